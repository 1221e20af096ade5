/* SPDX-License-Identifier: BSD-3-Clause */
/* Metric members and classes in the registry; see weft/definitions.h.
 * A process defines one or two classes, so lookups are linear scans. */
#include <string.h>

#include "registry_internal.h"
#include "weft/alloc.h"

static bool member_equal(const weft_metric_member_def *a, const weft_metric_member_def *b)
{
    return a->name.id == b->name.id && a->description.id == b->description.id &&
           a->unit.id == b->unit.id && a->source == b->source && a->mode == b->mode &&
           a->exponent == b->exponent;
}

weft_status weft__registry_metric_member_locked(weft_registry *reg,
                                                const weft_metric_member_def *def, uint32_t *out)
{
    for (uint32_t i = 0; i < reg->metric_member_count; i++) {
        if (member_equal(&reg->metric_members[i], def)) {
            *out = i;
            return WEFT_OK;
        }
    }
    weft_status st =
        weft__registry_reserve_one((void **)&reg->metric_members, &reg->metric_member_capacity,
                                   reg->metric_member_count, sizeof(*reg->metric_members));
    if (st != WEFT_OK)
        return st;
    *out = reg->metric_member_count;
    reg->metric_members[reg->metric_member_count++] = *def;
    reg->generation++;
    return WEFT_OK;
}

weft_status weft__registry_metric_class_locked(weft_registry *reg, const uint32_t *members,
                                               uint32_t count, weft_metric *out)
{
    for (uint32_t i = 0; i < reg->metric_class_count; i++) {
        const struct weft_metric_class_entry *c = &reg->metric_classes[i];
        if (c->member_count == count &&
            memcmp(c->members, members, count * sizeof(*members)) == 0) {
            *out = (weft_metric){i};
            return WEFT_OK;
        }
    }
    weft_status st =
        weft__registry_reserve_one((void **)&reg->metric_classes, &reg->metric_class_capacity,
                                   reg->metric_class_count, sizeof(*reg->metric_classes));
    if (st != WEFT_OK)
        return st;
    uint32_t *copy = weft_alloc(count * sizeof(*copy));
    if (!copy)
        return WEFT_ERR_NO_MEMORY;
    memcpy(copy, members, count * sizeof(*copy));
    reg->metric_classes[reg->metric_class_count] = (struct weft_metric_class_entry){count, copy};
    *out = (weft_metric){reg->metric_class_count++};
    reg->generation++;
    return WEFT_OK;
}

static weft_status intern_optional(weft_registry *reg, const char *text, weft_string *out)
{
    *out = WEFT_STRING_INVALID;
    return text ? weft__registry_intern_locked(reg, text, out) : WEFT_OK;
}

weft_status weft_registry_metric_class(weft_registry *reg, const weft_metric_member_desc *members,
                                       uint32_t count, weft_metric *out)
{
    if (out)
        *out = WEFT_METRIC_INVALID;
    if (!reg || !members || !out || count == 0 || count > WEFT_METRIC_MAX_MEMBERS)
        return WEFT_ERR_INVALID;
    uint32_t ids[WEFT_METRIC_MAX_MEMBERS];
    weft_status st = WEFT_OK;
    pthread_mutex_lock(&reg->mutex);
    for (uint32_t i = 0; i < count && st == WEFT_OK; i++) {
        const weft_metric_member_desc *d = &members[i];
        if (!d->name || !d->unit || d->source >= WEFT_METRIC_SOURCE_COUNT ||
            d->mode >= WEFT_METRIC_MODE_COUNT) {
            st = WEFT_ERR_INVALID;
            break;
        }
        weft_metric_member_def def = {
            .source = d->source, .mode = d->mode, .exponent = d->exponent};
        st = weft__registry_intern_locked(reg, d->name, &def.name);
        if (st == WEFT_OK)
            st = intern_optional(reg, d->description, &def.description);
        if (st == WEFT_OK)
            st = weft__registry_intern_locked(reg, d->unit, &def.unit);
        if (st == WEFT_OK)
            st = weft__registry_metric_member_locked(reg, &def, &ids[i]);
    }
    if (st == WEFT_OK)
        st = weft__registry_metric_class_locked(reg, ids, count, out);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

uint32_t weft_registry_metric_member_count(const weft_registry *reg)
{
    weft__registry_lock(reg);
    uint32_t count = reg->metric_member_count;
    weft__registry_unlock(reg);
    return count;
}

weft_status weft_registry_metric_member_get(const weft_registry *reg, uint32_t member,
                                            weft_metric_member_def *out)
{
    weft__registry_lock(reg);
    weft_status st = WEFT_ERR_NOT_FOUND;
    if (member < reg->metric_member_count) {
        *out = reg->metric_members[member];
        st = WEFT_OK;
    }
    weft__registry_unlock(reg);
    return st;
}

uint32_t weft_registry_metric_class_count(const weft_registry *reg)
{
    weft__registry_lock(reg);
    uint32_t count = reg->metric_class_count;
    weft__registry_unlock(reg);
    return count;
}

uint32_t weft_registry_metric_class_members(const weft_registry *reg, weft_metric metric,
                                            uint32_t *members, uint32_t capacity)
{
    weft__registry_lock(reg);
    uint32_t count = 0;
    if (metric.id < reg->metric_class_count) {
        const struct weft_metric_class_entry *c = &reg->metric_classes[metric.id];
        count = c->member_count;
        memcpy(members, c->members, (count < capacity ? count : capacity) * sizeof(*members));
    }
    weft__registry_unlock(reg);
    return count;
}

void weft__registry_metrics_clear(weft_registry *reg)
{
    for (uint32_t i = 0; i < reg->metric_class_count; i++)
        weft_free(reg->metric_classes[i].members);
    weft_free(reg->metric_classes);
    weft_free(reg->metric_members);
}
