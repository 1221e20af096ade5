/* SPDX-License-Identifier: BSD-3-Clause */
/* getrusage fields as metrics (WEFT_METRIC_RUSAGE); see metrics_source.h. */
#include <string.h>
#include <sys/resource.h>

#include "metrics_source.h"
#include "weft/log.h"

typedef struct rusage_field {
    const char *name;
    const char *description;
    const char *unit;
    uint8_t mode;
    int8_t exponent;
} rusage_field;

/* The fields Linux fills in; ru_maxrss is in kilobytes and converted. */
static const rusage_field fields[] = {
    {"ru_utime", "User CPU time of the thread", "s", WEFT_METRIC_MODE_ACCUMULATED_START, -6},
    {"ru_stime", "System CPU time of the thread", "s", WEFT_METRIC_MODE_ACCUMULATED_START, -6},
    {"ru_maxrss", "Largest resident set size of the process so far", "bytes",
     WEFT_METRIC_MODE_ABSOLUTE_POINT, 0},
    {"ru_minflt", "Page faults of the thread served without I/O", "#",
     WEFT_METRIC_MODE_ACCUMULATED_START, 0},
    {"ru_majflt", "Page faults of the thread that needed I/O", "#",
     WEFT_METRIC_MODE_ACCUMULATED_START, 0},
    {"ru_inblock", "Block input operations of the thread", "#", WEFT_METRIC_MODE_ACCUMULATED_START,
     0},
    {"ru_oublock", "Block output operations of the thread", "#", WEFT_METRIC_MODE_ACCUMULATED_START,
     0},
    {"ru_nvcsw", "Voluntary context switches of the thread", "#",
     WEFT_METRIC_MODE_ACCUMULATED_START, 0},
    {"ru_nivcsw", "Involuntary context switches of the thread", "#",
     WEFT_METRIC_MODE_ACCUMULATED_START, 0},
};
enum { FIELD_COUNT = sizeof(fields) / sizeof(fields[0]) };

/* The configured fields, in the order of the metric class. */
static uint8_t chosen[FIELD_COUNT];
static uint32_t chosen_count;

static void choose(unsigned field, weft_metric_member_desc *members, uint32_t *count)
{
    for (uint32_t i = 0; i < chosen_count; i++) {
        if (chosen[i] == field)
            return; /* named twice */
    }
    if (*count >= WEFT_METRIC_MAX_MEMBERS)
        return;
    chosen[chosen_count++] = (uint8_t)field;
    const rusage_field *f = &fields[field];
    members[(*count)++] = (weft_metric_member_desc){
        f->name, f->description, f->unit, WEFT_METRIC_SOURCE_RUSAGE, f->mode, f->exponent};
}

void weft__rusage_configure(const char *list, weft_metric_member_desc *members, uint32_t *count)
{
    chosen_count = 0;
    for (const char *at = list; at && *at;) {
        at += strspn(at, " \t,");
        size_t len = strcspn(at, " \t,");
        if (len == 0)
            break;
        if (len == 3 && strncmp(at, "all", 3) == 0) {
            for (unsigned f = 0; f < FIELD_COUNT; f++)
                choose(f, members, count);
        } else {
            unsigned f = 0;
            while (f < FIELD_COUNT &&
                   !(strlen(fields[f].name) == len && strncmp(fields[f].name, at, len) == 0))
                f++;
            if (f < FIELD_COUNT)
                choose(f, members, count);
            else
                weft_log_error("WEFT_METRIC_RUSAGE: '%.*s' is not a getrusage field (ru_utime, "
                               "ru_stime, ru_maxrss, ru_minflt, ru_majflt, ru_inblock, "
                               "ru_oublock, ru_nvcsw, ru_nivcsw or all); left out",
                               (int)len, at);
        }
        at += len;
    }
}

static uint64_t microseconds(struct timeval tv)
{
    return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* The value of fields[field]: the cases follow the order of fields[]. */
static uint64_t value_of(unsigned field, const struct rusage *ru)
{
    switch (field) {
    case 0:
        return microseconds(ru->ru_utime);
    case 1:
        return microseconds(ru->ru_stime);
    case 2:
        return (uint64_t)ru->ru_maxrss * 1024u;
    case 3:
        return (uint64_t)ru->ru_minflt;
    case 4:
        return (uint64_t)ru->ru_majflt;
    case 5:
        return (uint64_t)ru->ru_inblock;
    case 6:
        return (uint64_t)ru->ru_oublock;
    case 7:
        return (uint64_t)ru->ru_nvcsw;
    default:
        return (uint64_t)ru->ru_nivcsw;
    }
}

uint32_t weft__rusage_read(uint64_t *values)
{
    if (chosen_count == 0)
        return 0;
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        memset(&ru, 0, sizeof(ru)); /* cannot fail for the calling thread */
    for (uint32_t i = 0; i < chosen_count; i++)
        values[i] = value_of(chosen[i], &ru);
    return chosen_count;
}
