/* SPDX-License-Identifier: BSD-3-Clause */
/* Names and descriptions of weft_status values, generated from the one list
 * in weft/status.h. */
#include "weft/status.h"

#include <stddef.h>

#define NAME_ENTRY(name, text) #name,
#define TEXT_ENTRY(name, text) text,
static const char *const names[] = {WEFT_STATUS_LIST(NAME_ENTRY)};
static const char *const texts[] = {WEFT_STATUS_LIST(TEXT_ENTRY)};
#define STATUS_COUNT (sizeof(names) / sizeof(names[0]))

const char *weft_status_name(weft_status status)
{
    if ((unsigned)status >= STATUS_COUNT)
        return "WEFT_ERR_UNKNOWN";
    return names[status];
}

const char *weft_status_str(weft_status status)
{
    if ((unsigned)status >= STATUS_COUNT)
        return "unknown status";
    return texts[status];
}
