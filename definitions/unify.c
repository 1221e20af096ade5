/* SPDX-License-Identifier: BSD-3-Clause */
/* Packing a registry into one buffer and merging packed registries into
 * another; see weft/unify.h.
 *
 * Layout of a packed registry: native byte order, fixed-width fields, no
 * padding (fields are read and written with memcpy, so nothing needs to be
 * aligned). Every id refers to the packed registry's own tables.
 *
 *   header      u32 magic "WFTP" | u32 version | u32 flags |
 *               u32 strings | u32 regions | u32 comms | u32 processes |
 *               u32 locations | u32 properties |
 *               u32 metric members | u32 metric classes |
 *               u32 objects                                      (48 bytes)
 *   strings     u32 length | length bytes, no NUL               (4 + length)
 *   regions     u32 name | u32 canonical name | u32 file | u32 begin line |
 *               u32 end line | u8 role | u8 paradigm             (22 bytes)
 *   comms       u32 name | u8 paradigm | u32 parent | u64 key | u32 scope |
 *               u32 member count | u32 member[member count]     (25 + 4 n)
 *   processes   u32 rank | u32 host                              (8 bytes)
 *   locations   u32 name | u32 thread number | u32 group |
 *               u64 event count                                  (20 bytes)
 *   properties  u32 location | u32 name | u64 value              (16 bytes)
 *   metric members  u32 name | u32 description | u32 unit | u8 source |
 *               u8 mode | i8 exponent                             (15 bytes)
 *   metric classes  u32 member count | u32 member[member count]   (4 + 4 n)
 *   objects     u8 kind | u32 name | u64 key | u32 scope | u32 file |
 *               u32 comm                                         (25 bytes)
 *
 * Locations and properties are present only with WEFT_PACK_LOCATIONS (their
 * counts are 0 otherwise). A merge first decodes and validates the whole
 * buffer into a view (decode), and only then changes the target registry
 * (apply), so a corrupt buffer never leaves a half-merged registry. */
#include "weft/unify.h"

#include <string.h>

#include "registry_internal.h"
#include "weft/alloc.h"

#define PACK_MAGIC UINT32_C(0x50544657) /* "WFTP" in little-endian memory */
#define PACK_VERSION UINT32_C(3)
#define PACK_KNOWN_FLAGS ((uint32_t)WEFT_PACK_LOCATIONS)

enum {
    HEADER_BYTES = 48,
    STRING_MIN_BYTES = 4,
    REGION_BYTES = 22,
    COMM_MIN_BYTES = 25,
    PROCESS_BYTES = 8,
    LOCATION_BYTES = 20,
    PROPERTY_BYTES = 16,
    METRIC_MEMBER_BYTES = 15,
    METRIC_CLASS_MIN_BYTES = 4,
    OBJECT_BYTES = 25,
};

/* ---- packing ------------------------------------------------------------ */

typedef struct writer {
    unsigned char *at;
} writer;

static void put_u8(writer *w, uint8_t v)
{
    *w->at++ = v;
}

static void put_u32(writer *w, uint32_t v)
{
    memcpy(w->at, &v, sizeof(v));
    w->at += sizeof(v);
}

static void put_u64(writer *w, uint64_t v)
{
    memcpy(w->at, &v, sizeof(v));
    w->at += sizeof(v);
}

static void put_bytes(writer *w, const void *data, size_t len)
{
    if (len)
        memcpy(w->at, data, len);
    w->at += len;
}

/* Bytes of the packed form; WEFT_ERR_RANGE for a string too long for its
 * u32 length. */
static weft_status packed_size(const weft_registry *reg, bool locations, uint64_t *size)
{
    uint64_t total = HEADER_BYTES;
    for (uint32_t i = 0; i < reg->string_count; i++) {
        size_t len = strlen(reg->strings[i]);
        if (len > UINT32_MAX)
            return WEFT_ERR_RANGE;
        total += STRING_MIN_BYTES + (uint64_t)len;
    }
    total += (uint64_t)reg->region_count * REGION_BYTES;
    for (uint32_t i = 0; i < reg->comm_count; i++)
        total += COMM_MIN_BYTES + 4 * (uint64_t)reg->comms[i].def.member_count;
    total += (uint64_t)reg->process_count * PROCESS_BYTES;
    if (locations) {
        total += (uint64_t)reg->location_count * LOCATION_BYTES;
        total += (uint64_t)reg->property_count * PROPERTY_BYTES;
    }
    total += (uint64_t)reg->metric_member_count * METRIC_MEMBER_BYTES;
    for (uint32_t i = 0; i < reg->metric_class_count; i++)
        total += METRIC_CLASS_MIN_BYTES + 4 * (uint64_t)reg->metric_classes[i].member_count;
    total += (uint64_t)reg->object_count * OBJECT_BYTES;
    *size = total;
    return total > SIZE_MAX ? WEFT_ERR_RANGE : WEFT_OK;
}

static void pack_strings_and_regions(writer *w, const weft_registry *reg)
{
    for (uint32_t i = 0; i < reg->string_count; i++) {
        size_t len = strlen(reg->strings[i]);
        put_u32(w, (uint32_t)len);
        put_bytes(w, reg->strings[i], len);
    }
    for (uint32_t i = 0; i < reg->region_count; i++) {
        const weft_region_def *r = &reg->regions[i];
        put_u32(w, r->name.id);
        put_u32(w, r->canonical_name.id);
        put_u32(w, r->file.id);
        put_u32(w, r->begin_line);
        put_u32(w, r->end_line);
        put_u8(w, r->role);
        put_u8(w, r->paradigm);
    }
}

static void pack_comms(writer *w, const weft_registry *reg, uint32_t rank)
{
    for (uint32_t i = 0; i < reg->comm_count; i++) {
        const struct weft_comm_entry *c = &reg->comms[i];
        uint32_t scope = c->scope;
        if (c->def.paradigm != WEFT_PARADIGM_MPI && scope == WEFT_INVALID_ID)
            scope = rank; /* a local thread team: it belongs to this rank */
        put_u32(w, c->def.name.id);
        put_u8(w, c->def.paradigm);
        put_u32(w, c->def.parent.id);
        put_u64(w, c->def.key);
        put_u32(w, scope);
        put_u32(w, c->def.member_count);
        for (uint32_t m = 0; m < c->def.member_count; m++)
            put_u32(w, c->members[m]);
    }
}

static void pack_processes_and_locations(writer *w, const weft_registry *reg, bool locations)
{
    for (uint32_t i = 0; i < reg->process_count; i++) {
        put_u32(w, reg->processes[i].rank);
        put_u32(w, reg->processes[i].host.id);
    }
    if (!locations)
        return;
    for (uint32_t i = 0; i < reg->location_count; i++) {
        const weft_location_def *l = &reg->locations[i];
        put_u32(w, l->name.id);
        put_u32(w, l->thread_number);
        put_u32(w, l->group);
        put_u64(w, l->event_count);
    }
    for (uint32_t i = 0; i < reg->property_count; i++) {
        const weft_location_property *p = &reg->properties[i];
        put_u32(w, p->location.id);
        put_u32(w, p->name.id);
        put_u64(w, p->value);
    }
}

static void pack_metrics(writer *w, const weft_registry *reg)
{
    for (uint32_t i = 0; i < reg->metric_member_count; i++) {
        const weft_metric_member_def *m = &reg->metric_members[i];
        put_u32(w, m->name.id);
        put_u32(w, m->description.id);
        put_u32(w, m->unit.id);
        put_u8(w, m->source);
        put_u8(w, m->mode);
        put_u8(w, (uint8_t)m->exponent);
    }
    for (uint32_t i = 0; i < reg->metric_class_count; i++) {
        const struct weft_metric_class_entry *c = &reg->metric_classes[i];
        put_u32(w, c->member_count);
        for (uint32_t m = 0; m < c->member_count; m++)
            put_u32(w, c->members[m]);
    }
}

/* I/O handles registered here belong to this rank (scope), like thread
 * teams; files and windows are shared by the job. */
static void pack_objects(writer *w, const weft_registry *reg, uint32_t rank)
{
    for (uint32_t i = 0; i < reg->object_count; i++) {
        const weft_object_def *o = &reg->objects[i];
        uint32_t scope = o->scope;
        if (o->kind == WEFT_OBJECT_IO_HANDLE && scope == WEFT_INVALID_ID)
            scope = rank;
        put_u8(w, o->kind);
        put_u32(w, o->name.id);
        put_u64(w, o->key);
        put_u32(w, scope);
        put_u32(w, o->file.id);
        put_u32(w, o->comm.id);
    }
}

static weft_status pack_locked(const weft_registry *reg, uint32_t rank, unsigned flags, void **buf,
                               uint64_t *len)
{
    bool locations = flags & WEFT_PACK_LOCATIONS;
    uint64_t size = 0;
    weft_status st = packed_size(reg, locations, &size);
    if (st != WEFT_OK)
        return st;
    unsigned char *bytes = weft_alloc((size_t)size);
    if (!bytes)
        return WEFT_ERR_NO_MEMORY;
    writer w = {bytes};
    put_u32(&w, PACK_MAGIC);
    put_u32(&w, PACK_VERSION);
    put_u32(&w, flags);
    put_u32(&w, reg->string_count);
    put_u32(&w, reg->region_count);
    put_u32(&w, reg->comm_count);
    put_u32(&w, reg->process_count);
    put_u32(&w, locations ? reg->location_count : 0);
    put_u32(&w, locations ? reg->property_count : 0);
    put_u32(&w, reg->metric_member_count);
    put_u32(&w, reg->metric_class_count);
    put_u32(&w, reg->object_count);
    pack_strings_and_regions(&w, reg);
    pack_comms(&w, reg, rank);
    pack_processes_and_locations(&w, reg, locations);
    pack_metrics(&w, reg);
    pack_objects(&w, reg, rank);
    *buf = bytes;
    *len = size;
    return WEFT_OK;
}

weft_status weft_registry_pack(const weft_registry *reg, uint32_t rank, unsigned flags, void **buf,
                               uint64_t *len)
{
    if (buf)
        *buf = NULL;
    if (len)
        *len = 0;
    if (!reg || !buf || !len || (flags & ~PACK_KNOWN_FLAGS) != 0)
        return WEFT_ERR_INVALID;
    weft__registry_lock(reg);
    weft_status st = pack_locked(reg, rank, flags, buf, len);
    weft__registry_unlock(reg);
    return st;
}

/* ---- decoding and validating -------------------------------------------- */

typedef struct reader {
    const unsigned char *at, *end;
    bool ok; /* false once a read ran past the end */
} reader;

static bool take(reader *r, void *out, size_t len)
{
    if (!r->ok || (size_t)(r->end - r->at) < len) {
        r->ok = false;
        memset(out, 0, len);
        return false;
    }
    memcpy(out, r->at, len);
    r->at += len;
    return true;
}

static uint8_t get_u8(reader *r)
{
    uint8_t v;
    take(r, &v, sizeof(v));
    return v;
}

static uint32_t get_u32(reader *r)
{
    uint32_t v;
    take(r, &v, sizeof(v));
    return v;
}

static uint64_t get_u64(reader *r)
{
    uint64_t v;
    take(r, &v, sizeof(v));
    return v;
}

/* True when `count` entries of at least `min_bytes` each can still follow:
 * checked before anything is allocated for them. */
static bool room_for(const reader *r, uint32_t count, uint64_t min_bytes)
{
    return r->ok && (uint64_t)count * min_bytes <= (uint64_t)(r->end - r->at);
}

typedef struct packed_string {
    const char *text; /* into the buffer; not NUL-terminated */
    uint32_t len;
} packed_string;

typedef struct packed_comm {
    weft_comm_def def;
    uint32_t scope;
    const unsigned char *members; /* member_count u32s in the buffer */
} packed_comm;

/* A decoded buffer. The arrays are weft_alloc'ed; texts and members point
 * into the buffer, which must outlive the view. */
typedef struct packed_metric_class {
    uint32_t member_count;
    const unsigned char *members; /* member_count u32s in the buffer */
} packed_metric_class;

typedef struct packed_view {
    uint32_t flags;
    uint32_t string_count, region_count, comm_count, process_count, location_count, property_count;
    uint32_t metric_member_count, metric_class_count, object_count;
    weft_metric_member_def *metric_members;
    weft_object_def *objects;
    packed_metric_class *metric_classes;
    packed_string *strings;
    weft_region_def *regions;
    packed_comm *comms;
    weft_process_def *processes;
    weft_location_def *locations;
    weft_location_property *properties;
} packed_view;

static void view_free(packed_view *v)
{
    weft_free(v->strings);
    weft_free(v->regions);
    weft_free(v->comms);
    weft_free(v->processes);
    weft_free(v->locations);
    weft_free(v->properties);
    weft_free(v->metric_members);
    weft_free(v->metric_classes);
    weft_free(v->objects);
}

/* Allocates an array for `count` entries after room_for said they fit;
 * never NULL on success (at least one element). */
static weft_status alloc_entries(const reader *r, uint32_t count, uint64_t min_bytes, size_t elem,
                                 void **out)
{
    if (!room_for(r, count, min_bytes))
        return WEFT_ERR_INVALID;
    *out = weft_calloc(count ? count : 1, elem);
    return *out ? WEFT_OK : WEFT_ERR_NO_MEMORY;
}

static bool is_string(const packed_view *v, weft_string s)
{
    return s.id < v->string_count;
}

static weft_status decode_strings(reader *r, packed_view *v)
{
    weft_status st = alloc_entries(r, v->string_count, STRING_MIN_BYTES, sizeof(*v->strings),
                                   (void **)&v->strings);
    for (uint32_t i = 0; i < v->string_count && st == WEFT_OK; i++) {
        uint32_t len = get_u32(r);
        const char *text = (const char *)r->at;
        if (!r->ok || (uint64_t)len > (uint64_t)(r->end - r->at) || memchr(text, '\0', len))
            return WEFT_ERR_INVALID;
        r->at += len;
        v->strings[i] = (packed_string){text, len};
    }
    return st;
}

static weft_status decode_regions(reader *r, packed_view *v)
{
    weft_status st =
        alloc_entries(r, v->region_count, REGION_BYTES, sizeof(*v->regions), (void **)&v->regions);
    for (uint32_t i = 0; i < v->region_count && st == WEFT_OK; i++) {
        weft_region_def *d = &v->regions[i];
        d->name.id = get_u32(r);
        d->canonical_name.id = get_u32(r);
        d->file.id = get_u32(r);
        d->begin_line = get_u32(r);
        d->end_line = get_u32(r);
        d->role = get_u8(r);
        d->paradigm = get_u8(r);
        if (!r->ok || !is_string(v, d->name) || !is_string(v, d->canonical_name) ||
            (d->file.id != WEFT_INVALID_ID && !is_string(v, d->file)) ||
            d->role >= WEFT_REGION_ROLE_COUNT || d->paradigm >= WEFT_PARADIGM_COUNT)
            st = WEFT_ERR_INVALID;
    }
    return st;
}

/* A parent must come before its child; MPI communicators have no scope. */
static weft_status decode_comms(reader *r, packed_view *v)
{
    weft_status st =
        alloc_entries(r, v->comm_count, COMM_MIN_BYTES, sizeof(*v->comms), (void **)&v->comms);
    for (uint32_t i = 0; i < v->comm_count && st == WEFT_OK; i++) {
        packed_comm *c = &v->comms[i];
        c->def.name.id = get_u32(r);
        c->def.paradigm = get_u8(r);
        c->def.parent.id = get_u32(r);
        c->def.key = get_u64(r);
        c->scope = get_u32(r);
        c->def.member_count = get_u32(r);
        c->members = r->at;
        if (!r->ok || !is_string(v, c->def.name) || c->def.paradigm >= WEFT_PARADIGM_COUNT ||
            (c->def.parent.id != WEFT_INVALID_ID && c->def.parent.id >= i) ||
            (c->def.paradigm == WEFT_PARADIGM_MPI && c->scope != WEFT_INVALID_ID) ||
            !room_for(r, c->def.member_count, 4))
            return WEFT_ERR_INVALID;
        r->at += (size_t)c->def.member_count * 4;
    }
    return st;
}

static weft_status decode_processes(reader *r, packed_view *v)
{
    weft_status st = alloc_entries(r, v->process_count, PROCESS_BYTES, sizeof(*v->processes),
                                   (void **)&v->processes);
    for (uint32_t i = 0; i < v->process_count && st == WEFT_OK; i++) {
        v->processes[i].rank = get_u32(r);
        v->processes[i].host.id = get_u32(r);
        if (!r->ok || !is_string(v, v->processes[i].host))
            st = WEFT_ERR_INVALID;
    }
    return st;
}

static weft_status decode_locations(reader *r, packed_view *v)
{
    weft_status st = alloc_entries(r, v->location_count, LOCATION_BYTES, sizeof(*v->locations),
                                   (void **)&v->locations);
    for (uint32_t i = 0; i < v->location_count && st == WEFT_OK; i++) {
        weft_location_def *l = &v->locations[i];
        l->name.id = get_u32(r);
        l->thread_number = get_u32(r);
        l->group = get_u32(r);
        l->event_count = get_u64(r);
        if (!r->ok || !is_string(v, l->name))
            st = WEFT_ERR_INVALID;
    }
    if (st == WEFT_OK)
        st = alloc_entries(r, v->property_count, PROPERTY_BYTES, sizeof(*v->properties),
                           (void **)&v->properties);
    for (uint32_t i = 0; i < v->property_count && st == WEFT_OK; i++) {
        weft_location_property *p = &v->properties[i];
        p->location.id = get_u32(r);
        p->name.id = get_u32(r);
        p->value = get_u64(r);
        if (!r->ok || p->location.id >= v->location_count || !is_string(v, p->name))
            st = WEFT_ERR_INVALID;
    }
    return st;
}

static weft_status decode_metrics(reader *r, packed_view *v)
{
    weft_status st = alloc_entries(r, v->metric_member_count, METRIC_MEMBER_BYTES,
                                   sizeof(*v->metric_members), (void **)&v->metric_members);
    for (uint32_t i = 0; i < v->metric_member_count && st == WEFT_OK; i++) {
        weft_metric_member_def *m = &v->metric_members[i];
        m->name.id = get_u32(r);
        m->description.id = get_u32(r);
        m->unit.id = get_u32(r);
        m->source = get_u8(r);
        m->mode = get_u8(r);
        m->exponent = (int8_t)get_u8(r);
        if (!r->ok || !is_string(v, m->name) || !is_string(v, m->unit) ||
            (m->description.id != WEFT_INVALID_ID && !is_string(v, m->description)) ||
            m->source >= WEFT_METRIC_SOURCE_COUNT || m->mode >= WEFT_METRIC_MODE_COUNT)
            st = WEFT_ERR_INVALID;
    }
    if (st == WEFT_OK)
        st = alloc_entries(r, v->metric_class_count, METRIC_CLASS_MIN_BYTES,
                           sizeof(*v->metric_classes), (void **)&v->metric_classes);
    for (uint32_t i = 0; i < v->metric_class_count && st == WEFT_OK; i++) {
        packed_metric_class *c = &v->metric_classes[i];
        c->member_count = get_u32(r);
        c->members = r->at;
        if (!r->ok || c->member_count == 0 || c->member_count > WEFT_METRIC_MAX_MEMBERS ||
            !room_for(r, c->member_count, 4))
            return WEFT_ERR_INVALID;
        for (uint32_t m = 0; m < c->member_count; m++) {
            if (get_u32(r) >= v->metric_member_count)
                return WEFT_ERR_INVALID;
        }
    }
    return st;
}

/* A handle's file comes before it and is a file; comms are the packed ones. */
static weft_status decode_objects(reader *r, packed_view *v)
{
    weft_status st =
        alloc_entries(r, v->object_count, OBJECT_BYTES, sizeof(*v->objects), (void **)&v->objects);
    for (uint32_t i = 0; i < v->object_count && st == WEFT_OK; i++) {
        weft_object_def *o = &v->objects[i];
        o->kind = get_u8(r);
        o->name.id = get_u32(r);
        o->key = get_u64(r);
        o->scope = get_u32(r);
        o->file.id = get_u32(r);
        o->comm.id = get_u32(r);
        if (!r->ok || o->kind >= WEFT_OBJECT_KIND_COUNT || !is_string(v, o->name) ||
            (o->file.id != WEFT_INVALID_ID &&
             (o->file.id >= i || v->objects[o->file.id].kind != WEFT_OBJECT_IO_FILE)) ||
            (o->comm.id != WEFT_INVALID_ID && o->comm.id >= v->comm_count))
            st = WEFT_ERR_INVALID;
    }
    return st;
}

static weft_status decode(const void *buf, uint64_t len, packed_view *v)
{
    memset(v, 0, sizeof(*v));
    if (!buf || len < HEADER_BYTES || len > SIZE_MAX)
        return WEFT_ERR_INVALID;
    reader r = {buf, (const unsigned char *)buf + (size_t)len, true};
    uint32_t magic = get_u32(&r), version = get_u32(&r);
    v->flags = get_u32(&r);
    v->string_count = get_u32(&r);
    v->region_count = get_u32(&r);
    v->comm_count = get_u32(&r);
    v->process_count = get_u32(&r);
    v->location_count = get_u32(&r);
    v->property_count = get_u32(&r);
    v->metric_member_count = get_u32(&r);
    v->metric_class_count = get_u32(&r);
    v->object_count = get_u32(&r);
    if (magic != PACK_MAGIC || version != PACK_VERSION || (v->flags & ~PACK_KNOWN_FLAGS) != 0 ||
        (!(v->flags & WEFT_PACK_LOCATIONS) && (v->location_count || v->property_count)))
        return WEFT_ERR_INVALID;
    weft_status st = decode_strings(&r, v);
    if (st == WEFT_OK)
        st = decode_regions(&r, v);
    if (st == WEFT_OK)
        st = decode_comms(&r, v);
    if (st == WEFT_OK)
        st = decode_processes(&r, v);
    if (st == WEFT_OK)
        st = decode_locations(&r, v);
    if (st == WEFT_OK)
        st = decode_metrics(&r, v);
    if (st == WEFT_OK)
        st = decode_objects(&r, v);
    if (st == WEFT_OK && (!r.ok || r.at != r.end))
        st = WEFT_ERR_INVALID; /* short, or bytes left over */
    if (st != WEFT_OK)
        view_free(v);
    return st;
}

/* ---- merging a decoded buffer ------------------------------------------- */

/* Maps of the packed registry's ids; the arrays are weft_alloc'ed. */
static weft_status alloc_maps(const packed_view *v, weft_id_maps *m)
{
    m->strings = weft_alloc((v->string_count ? v->string_count : 1) * sizeof(uint32_t));
    m->regions = weft_alloc((v->region_count ? v->region_count : 1) * sizeof(uint32_t));
    m->comms = weft_alloc((v->comm_count ? v->comm_count : 1) * sizeof(uint32_t));
    m->metrics = weft_alloc((v->metric_class_count ? v->metric_class_count : 1) * sizeof(uint32_t));
    m->objects = weft_alloc((v->object_count ? v->object_count : 1) * sizeof(uint32_t));
    m->object_count = v->object_count;
    m->string_count = v->string_count;
    m->region_count = v->region_count;
    m->comm_count = v->comm_count;
    m->metric_count = v->metric_class_count;
    return m->strings && m->regions && m->comms && m->metrics && m->objects ? WEFT_OK
                                                                            : WEFT_ERR_NO_MEMORY;
}

static weft_string map_string(const weft_id_maps *m, weft_string s)
{
    return s.id == WEFT_INVALID_ID ? s : (weft_string){m->strings[s.id]};
}

static weft_status apply_strings_and_regions(weft_registry *into, const packed_view *v,
                                             weft_id_maps *m)
{
    weft_status st = WEFT_OK;
    for (uint32_t i = 0; i < v->string_count && st == WEFT_OK; i++) {
        weft_string s = WEFT_STRING_INVALID;
        st = weft__registry_intern_n_locked(into, v->strings[i].text, v->strings[i].len, &s);
        m->strings[i] = s.id;
    }
    for (uint32_t i = 0; i < v->region_count && st == WEFT_OK; i++) {
        weft_region_def def = v->regions[i];
        def.name = map_string(m, def.name);
        def.canonical_name = map_string(m, def.canonical_name);
        def.file = map_string(m, def.file);
        weft_region r = WEFT_REGION_INVALID;
        st = weft__registry_region_def_locked(into, &def, &r);
        m->regions[i] = r.id;
    }
    return st;
}

/* Appends the packed locations and properties (location ids offset by
 * `base`, the number of locations `into` had before). */
static weft_status apply_locations(weft_registry *into, const packed_view *v, const weft_id_maps *m,
                                   uint32_t base)
{
    weft_status st = WEFT_OK;
    for (uint32_t i = 0; i < v->location_count && st == WEFT_OK; i++) {
        weft_location_def def = v->locations[i];
        def.name = map_string(m, def.name);
        weft_location loc;
        st = weft__registry_append_location_locked(into, &def, &loc);
    }
    for (uint32_t i = 0; i < v->property_count && st == WEFT_OK; i++) {
        const weft_location_property *p = &v->properties[i];
        st = weft__registry_property_locked(into, (weft_location){base + p->location.id},
                                            map_string(m, p->name), p->value);
    }
    return st;
}

/* The members of a communicator that this merge added. A thread team's
 * members are location ids of the packed registry: with packed locations
 * they are offset by `base` (ids out of range become unknown positions);
 * without, they are taken as they are, like MPI members (world ranks). */
static weft_status apply_members(weft_registry *into, const packed_view *v, const packed_comm *c,
                                 weft_comm comm, uint32_t base)
{
    bool offset = c->def.paradigm != WEFT_PARADIGM_MPI && (v->flags & WEFT_PACK_LOCATIONS);
    weft_status st = WEFT_OK;
    for (uint32_t pos = 0; pos < c->def.member_count && st == WEFT_OK; pos++) {
        uint32_t member;
        memcpy(&member, c->members + (size_t)pos * 4, sizeof(member));
        if (offset)
            member = member < v->location_count ? base + member : WEFT_INVALID_ID;
        st = weft__registry_comm_set_member_locked(into, comm, pos, member);
    }
    return st;
}

/* Communicators in packed order, so a parent is mapped before its child. */
static weft_status apply_comms(weft_registry *into, const packed_view *v, weft_id_maps *m,
                               uint32_t base)
{
    weft_status st = WEFT_OK;
    for (uint32_t i = 0; i < v->comm_count && st == WEFT_OK; i++) {
        const packed_comm *c = &v->comms[i];
        uint32_t parent = c->def.parent.id;
        weft__comm_key key = {.paradigm = c->def.paradigm,
                              .scope = c->scope,
                              .parent = parent == WEFT_INVALID_ID ? parent : m->comms[parent],
                              .key = c->def.key};
        weft_comm comm = WEFT_COMM_INVALID;
        bool added = false;
        st = weft__registry_comm_find_or_add_locked(into, &key, map_string(m, c->def.name), &comm,
                                                    &added);
        if (st == WEFT_OK && added)
            st = apply_members(into, v, c, comm, base);
        m->comms[i] = comm.id;
    }
    return st;
}

/* Metric members by their mapped strings, then classes by mapped members. */
static weft_status apply_metrics(weft_registry *into, const packed_view *v, weft_id_maps *m)
{
    uint32_t *members =
        weft_alloc((v->metric_member_count ? v->metric_member_count : 1) * sizeof(*members));
    if (!members)
        return WEFT_ERR_NO_MEMORY;
    weft_status st = WEFT_OK;
    for (uint32_t i = 0; i < v->metric_member_count && st == WEFT_OK; i++) {
        weft_metric_member_def def = v->metric_members[i];
        def.name = map_string(m, def.name);
        def.description = map_string(m, def.description);
        def.unit = map_string(m, def.unit);
        st = weft__registry_metric_member_locked(into, &def, &members[i]);
    }
    for (uint32_t i = 0; i < v->metric_class_count && st == WEFT_OK; i++) {
        const packed_metric_class *c = &v->metric_classes[i];
        uint32_t ids[WEFT_METRIC_MAX_MEMBERS];
        for (uint32_t k = 0; k < c->member_count; k++) {
            uint32_t packed;
            memcpy(&packed, c->members + (size_t)k * 4, sizeof(packed));
            ids[k] = members[packed];
        }
        weft_metric metric = WEFT_METRIC_INVALID;
        st = weft__registry_metric_class_locked(into, ids, c->member_count, &metric);
        m->metrics[i] = metric.id;
    }
    weft_free(members);
    return st;
}

/* Objects in packed order (a handle's file is mapped before it), their
 * names, files and comms mapped. */
static weft_status apply_objects(weft_registry *into, const packed_view *v, weft_id_maps *m)
{
    weft_status st = WEFT_OK;
    for (uint32_t i = 0; i < v->object_count && st == WEFT_OK; i++) {
        weft_object_def def = v->objects[i];
        def.name = map_string(m, def.name);
        if (def.file.id != WEFT_INVALID_ID)
            def.file.id = m->objects[def.file.id];
        if (def.comm.id != WEFT_INVALID_ID)
            def.comm.id = m->comms[def.comm.id];
        weft_object o = WEFT_OBJECT_INVALID;
        st = weft__registry_object_locked(into, &def, &o);
        m->objects[i] = o.id;
    }
    return st;
}

static weft_status apply(weft_registry *into, const packed_view *v, weft_id_maps *m)
{
    uint32_t base = into->location_count;
    if ((uint64_t)base + v->location_count >= WEFT_INVALID_ID)
        return WEFT_ERR_RANGE;
    weft_status st = apply_strings_and_regions(into, v, m);
    if (st == WEFT_OK)
        st = apply_locations(into, v, m, base);
    if (st == WEFT_OK)
        st = apply_comms(into, v, m, base);
    if (st == WEFT_OK)
        st = apply_metrics(into, v, m);
    if (st == WEFT_OK)
        st = apply_objects(into, v, m);
    for (uint32_t i = 0; i < v->process_count && st == WEFT_OK; i++)
        st = weft__registry_process_locked(into, v->processes[i].rank,
                                           map_string(m, v->processes[i].host), NULL);
    return st;
}

weft_status weft_registry_merge(weft_registry *into, const void *buf, uint64_t len,
                                weft_id_maps *maps)
{
    if (maps)
        memset(maps, 0, sizeof(*maps));
    if (!into)
        return WEFT_ERR_INVALID;
    packed_view view;
    weft_status st = decode(buf, len, &view);
    if (st != WEFT_OK)
        return st;
    weft_id_maps local = {0};
    st = alloc_maps(&view, &local);
    if (st == WEFT_OK) {
        pthread_mutex_lock(&into->mutex);
        st = apply(into, &view, &local);
        pthread_mutex_unlock(&into->mutex);
    }
    view_free(&view);
    if (st == WEFT_OK && maps)
        *maps = local;
    else
        weft_id_maps_free(&local);
    return st;
}

void weft_id_maps_free(weft_id_maps *maps)
{
    if (!maps)
        return;
    weft_free(maps->strings);
    weft_free(maps->regions);
    weft_free(maps->comms);
    weft_free(maps->metrics);
    weft_free(maps->objects);
    weft_free(maps->groups);
    memset(maps, 0, sizeof(*maps));
}

bool weft_id_map_is_identity(const uint32_t *map, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        if (map[i] != i)
            return false;
    }
    return true;
}
