/* SPDX-License-Identifier: BSD-3-Clause */
/* weft's user API: mark regions of your own code, pause and resume.
 *
 *     #include <weft/user.h>
 *     WEFT_USER_REGION_BEGIN("solve");
 *     ...
 *     WEFT_USER_REGION_END("solve");
 *
 * Build with `pkg-config --cflags --libs weft`. The name must be a string
 * literal; BEGIN and END of one region belong in the same source file. Each
 * macro caches its region handle at the call site, so only its first
 * execution looks anything up. Works in C (C99 and later) and C++. */
#ifndef WEFT_USER_H
#define WEFT_USER_H

#include <stdint.h>

#include <weft/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Not a valid region handle: the call site has not registered yet. */
#define WEFT_USER_HANDLE_UNSET UINT32_MAX
/* A region WEFT_FILTERING_FILE excludes: its enter and leave record nothing. */
#define WEFT_USER_HANDLE_FILTERED (UINT32_MAX - 1)

/* Registers the region of a call site and publishes its handle in *handle.
 * is_begin says which macro asks. Thread-safe; called once per site. */
WEFT_EXPORT uint32_t weft_user_region_register(uint32_t *handle, const char *name,
                                                    const char *file, int line, int is_begin);

/* Records entering and leaving a registered region. */
WEFT_EXPORT void weft_user_region_enter(uint32_t handle);
WEFT_EXPORT void weft_user_region_leave(uint32_t handle);

/* Pause and resume recording for the whole process. The pause shows in the
 * trace as a measurement-off interval. */
WEFT_EXPORT void weft_user_off(void);
WEFT_EXPORT void weft_user_on(void);

/* The handle of a call site: one acquire load once registered. GCC/Clang
 * atomic builtins rather than <stdatomic.h>, so the header serves C++ too;
 * the acquire pairs with the release store in weft_user_region_register. */
static inline uint32_t weft_user_site_handle_(uint32_t *handle, const char *name,
                                              const char *file, int line, int is_begin)
{
    uint32_t h = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (WEFT_UNLIKELY(h == WEFT_USER_HANDLE_UNSET))
        h = weft_user_region_register(handle, name, file, line, is_begin);
    return h;
}

#define WEFT_USER_REGION_BEGIN(name)                                                               \
    do {                                                                                           \
        static uint32_t weft_user_site_ = WEFT_USER_HANDLE_UNSET;                                  \
        weft_user_region_enter(                                                                    \
            weft_user_site_handle_(&weft_user_site_, "" name "", __FILE__, __LINE__, 1));          \
    } while (0)

#define WEFT_USER_REGION_END(name)                                                                 \
    do {                                                                                           \
        static uint32_t weft_user_site_ = WEFT_USER_HANDLE_UNSET;                                  \
        weft_user_region_leave(                                                                    \
            weft_user_site_handle_(&weft_user_site_, "" name "", __FILE__, __LINE__, 0));          \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif /* WEFT_USER_H */
