/* SPDX-License-Identifier: BSD-3-Clause */
/* The user API of weft/user.h: call-site registration and the thin entry
 * points over the event model.
 *
 * A region is identified by (name, file). BEGIN registers it with its line;
 * END finds the region its BEGIN registered, or registers one itself if it
 * runs first (line 0 until a BEGIN supplies it is not tracked: the first
 * registration wins). */
#include "weft/user.h"

#include <pthread.h>
#include <string.h>

#include "weft/log.h"
#include "weft/alloc.h"
#include "weft/recorder.h"

/* (name, file) -> region, for matching END sites to BEGIN sites. Guarded by
 * sites_mutex; registrations are rare, a linear scan is enough. */
typedef struct user_region {
    const char *name; /* string literals of the program: not copied */
    const char *file;
    uint32_t region;
} user_region;

static pthread_mutex_t sites_mutex = PTHREAD_MUTEX_INITIALIZER;
static user_region *user_regions;
static uint32_t user_region_count, user_region_capacity;

static uint32_t find_locked(const char *name, const char *file)
{
    for (uint32_t i = 0; i < user_region_count; i++) {
        if (strcmp(user_regions[i].name, name) == 0 && strcmp(user_regions[i].file, file) == 0)
            return user_regions[i].region;
    }
    return WEFT_USER_HANDLE_UNSET;
}

static uint32_t add_locked(const char *name, const char *file, int line)
{
    if (user_region_count == user_region_capacity) {
        uint32_t capacity = user_region_capacity ? user_region_capacity * 2 : 64;
        user_region *bigger = weft_realloc(user_regions, capacity * sizeof(*bigger));
        if (!bigger)
            return WEFT_USER_HANDLE_UNSET;
        user_regions = bigger;
        user_region_capacity = capacity;
    }
    weft_region_desc desc = {.name = name,
                             .file = file,
                             .begin_line = line > 0 ? (uint32_t)line : 0,
                             .role = WEFT_REGION_ROLE_CODE,
                             .paradigm = WEFT_PARADIGM_USER};
    weft_region region;
    if (weft_registry_region(weft_defs_global(), &desc, &region) != WEFT_OK)
        return WEFT_USER_HANDLE_UNSET;
    user_regions[user_region_count++] = (user_region){name, file, region.id};
    return region.id;
}

uint32_t weft_user_region_register(uint32_t *handle, const char *name, const char *file,
                                   int line, int is_begin)
{
    if (!name || !file) {
        weft_log_error("a user region without a name at %s:%d is not recorded",
                       file ? file : "?", line);
        return WEFT_USER_HANDLE_UNSET;
    }
    if (weft_region_filtered(name, file)) {
        __atomic_store_n(handle, WEFT_USER_HANDLE_FILTERED, __ATOMIC_RELEASE);
        return WEFT_USER_HANDLE_FILTERED;
    }
    pthread_mutex_lock(&sites_mutex);
    uint32_t region = find_locked(name, file);
    if (region == WEFT_USER_HANDLE_UNSET)
        region = add_locked(name, file, is_begin ? line : 0);
    pthread_mutex_unlock(&sites_mutex);
    if (region == WEFT_USER_HANDLE_UNSET) {
        weft_log_error("out of memory registering user region '%s'; it is not recorded", name);
        return region;
    }
    /* Release: pairs with the acquire load in weft_user_site_handle_. */
    __atomic_store_n(handle, region, __ATOMIC_RELEASE);
    return region;
}

/* Unset and filtered handles are the two largest values: one branch. */
void weft_user_region_enter(uint32_t handle)
{
    if (handle < WEFT_USER_HANDLE_FILTERED)
        weft_enter((weft_region){handle});
}

void weft_user_region_leave(uint32_t handle)
{
    if (handle < WEFT_USER_HANDLE_FILTERED)
        weft_leave((weft_region){handle});
}

void weft_user_off(void)
{
    weft_recording_set(false);
}

void weft_user_on(void)
{
    weft_recording_set(true);
}
