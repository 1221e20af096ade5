/* SPDX-License-Identifier: BSD-3-Clause */
/* weft_status: the one error type of weft's internal API.
 *
 * Every fallible function returns a weft_status; WEFT_OK is 0. Names and
 * one-line descriptions come from the single X-macro list below, so the enum
 * and its strings cannot drift apart. */
#ifndef WEFT_DEFINITIONS_STATUS_H
#define WEFT_DEFINITIONS_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
#define WEFT_STATUS_LIST(X)                                                          \
    X(WEFT_OK,              "success")                                               \
    X(WEFT_ERR_INVALID,     "invalid argument")                                      \
    X(WEFT_ERR_NO_MEMORY,   "out of memory")                                         \
    X(WEFT_ERR_IO,          "input/output error")                                    \
    X(WEFT_ERR_OTF2,        "the OTF2 library reported an error")                    \
    X(WEFT_ERR_EXISTS,      "already exists")                                        \
    X(WEFT_ERR_NOT_FOUND,   "not found")                                             \
    X(WEFT_ERR_RANGE,       "value out of range")                                    \
    X(WEFT_ERR_STATE,       "operation not allowed in the current state")
/* clang-format on */

typedef enum weft_status {
#define WEFT_STATUS_ENUM(name, text) name,
    WEFT_STATUS_LIST(WEFT_STATUS_ENUM)
#undef WEFT_STATUS_ENUM
} weft_status;

/* Returns the enumerator's name ("WEFT_ERR_IO"); never NULL. */
const char *weft_status_name(weft_status status);

/* Returns a one-line description ("input/output error"); never NULL. */
const char *weft_status_str(weft_status status);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_STATUS_H */
