/* SPDX-License-Identifier: BSD-3-Clause */
/* The definitions pass of `weft view`: regions classified exactly as weft
 * summary classifies them (paradigm, OpenMP waiting kind), their source
 * files collected into one list, and the display order of locations:
 * process groups by rank, other groups after them, and within a group by
 * location id, so a rank's master thread comes first. Also the time origin
 * and the run's length from the ClockProperties definition. */
#include "view.h"
#include "summary.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

static int64_t file_index(view_defs *d, const char *file)
{
    if (!file || !*file)
        return -1;
    for (size_t i = 0; i < d->file_count; i++) {
        if (strcmp(d->files[i], file) == 0)
            return (int64_t)i;
    }
    if (!weft__cli_grow(&d->files, &d->file_capacity, d->file_count + 1, sizeof(*d->files)))
        return -2;
    if (!(d->files[d->file_count] = strdup(file)))
        return -2;
    return (int64_t)d->file_count++;
}

static const weft_trace_reader *sorting; /* qsort has no context */

/* Process groups by rank first, then any other group; then by group, by location id. */
static int compare_locations(const void *pa, const void *pb)
{
    const location_def *a = &sorting->locations[*(const size_t *)pa];
    const location_def *b = &sorting->locations[*(const size_t *)pb];
    size_t ga = weft__trace_find_group(sorting, a->group_ref);
    size_t gb = weft__trace_find_group(sorting, b->group_ref);
    bool pa_proc = ga != NOT_FOUND && sorting->groups[ga].type == OTF2_LOCATION_GROUP_TYPE_PROCESS;
    bool pb_proc = gb != NOT_FOUND && sorting->groups[gb].type == OTF2_LOCATION_GROUP_TYPE_PROCESS;
    if (pa_proc != pb_proc)
        return pa_proc ? -1 : 1;
    if (pa_proc && a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (ga != gb)
        return ga < gb ? -1 : 1;
    return a->ref < b->ref ? -1 : a->ref > b->ref;
}

static weft_status order_locations(view_defs *d, const weft_trace_reader *r)
{
    size_t n = r->location_count;
    d->location_count = n;
    size_t alloc = n ? n : 1;
    d->order = malloc(alloc * sizeof(*d->order));
    d->display = malloc(alloc * sizeof(*d->display));
    d->group_of = malloc(alloc * sizeof(*d->group_of));
    d->groups = malloc(alloc * sizeof(*d->groups));
    d->group_rank = malloc(alloc * sizeof(*d->group_rank));
    if (!d->order || !d->display || !d->group_of || !d->groups || !d->group_rank)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < n; i++)
        d->order[i] = i;
    sorting = r;
    qsort(d->order, n, sizeof(*d->order), compare_locations);
    /* Groups in the order their locations come; a location of an undefined
     * group gets a group of its own. */
    size_t last_group = NOT_FOUND;
    for (size_t k = 0; k < n; k++) {
        const location_def *loc = &r->locations[d->order[k]];
        d->display[d->order[k]] = k;
        size_t g = weft__trace_find_group(r, loc->group_ref);
        if (k == 0 || g != last_group || g == NOT_FOUND) {
            d->groups[d->group_count] = g;
            bool process = g != NOT_FOUND && r->groups[g].type == OTF2_LOCATION_GROUP_TYPE_PROCESS;
            d->group_rank[d->group_count] =
                process && loc->rank != WEFT_TRACE_NO_RANK ? loc->rank : d->group_count;
            d->group_count++;
        }
        d->group_of[k] = d->group_count - 1;
        last_group = g;
    }
    return WEFT_OK;
}

weft_status weft__view_defs_build(view_defs *d, const weft_trace_reader *r)
{
    *d = (view_defs){0};
    size_t n = r->region_count ? r->region_count : 1;
    d->region_count = r->region_count;
    d->paradigm = calloc(n, 1);
    d->wait = calloc(n, 1);
    d->region_file = calloc(n, sizeof(*d->region_file));
    if (!d->paradigm || !d->wait || !d->region_file)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < r->region_count; i++) {
        const region_def *def = &r->regions[i];
        const char *file = weft__trace_string(r, def->file_ref);
        weft_summary_kind kind = weft__summary_classify(def->paradigm, def->role,
                                                        weft__trace_string(r, def->name_ref), file);
        d->paradigm[i] = (uint8_t)kind.paradigm;
        d->wait[i] = (uint8_t)kind.wait;
        d->region_file[i] = file_index(d, file);
        if (d->region_file[i] == -2)
            return WEFT_ERR_NO_MEMORY;
    }
    d->origin = r->global_offset;
    d->duration = r->trace_length;
    return order_locations(d, r);
}

void weft__view_defs_free(view_defs *d)
{
    for (size_t i = 0; i < d->file_count; i++)
        free(d->files[i]);
    free(d->files);
    free(d->paradigm);
    free(d->wait);
    free(d->region_file);
    free(d->order);
    free(d->display);
    free(d->group_of);
    free(d->groups);
    free(d->group_rank);
    *d = (view_defs){0};
}
