/* Reads an OTF2 archive for `weft summary`: opens it, has summary_defs.c
 * read the global definitions and summary_events.c every location's events,
 * then turns what they gathered into a weft_summary. Errors of the OTF2
 * library are captured and folded into the single line this file prints
 * when reading fails. */
#include "summary_reader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

char weft__summary_otf2_message[256];

static OTF2_ErrorCode capture_otf2_error(void *user_data, const char *file, uint64_t line,
                                         const char *function, OTF2_ErrorCode code,
                                         const char *format, va_list va)
{
    (void)user_data;
    (void)file;
    (void)line;
    (void)function;
    char *message = weft__summary_otf2_message;
    if (message[0] == '\0') {
        char text[200] = "";
        if (format)
            vsnprintf(text, sizeof(text), format, va);
        const char *description = OTF2_Error_GetDescription(code);
        if (!description)
            description = "unknown OTF2 error";
        if (text[0])
            snprintf(message, sizeof(weft__summary_otf2_message), "%s (%s)", text, description);
        else
            snprintf(message, sizeof(weft__summary_otf2_message), "%s", description);
        /* Keep the report to one line. */
        for (char *p = message; *p; p++) {
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        }
    }
    return code;
}

void weft__summary_report(const read_state *st, OTF2_ErrorCode code, const char *hint,
                          const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    const char *why = weft__summary_otf2_message[0] ? weft__summary_otf2_message
                      : code != OTF2_SUCCESS        ? OTF2_Error_GetDescription(code)
                                                    : NULL;
    fprintf(stderr, "%s: %s '%s'%s%s%s%s\n", st->command ? st->command : "weft summary", what,
            st->path, why ? ": " : "", why ? why : "", hint ? "; " : "", hint ? hint : "");
}

bool weft__summary_otf2_ok(const read_state *st, OTF2_ErrorCode code, const char *what)
{
    if (code == OTF2_SUCCESS)
        return true;
    weft__summary_report(st, code, NULL, "%s", what);
    return false;
}

OTF2_CallbackCode weft__summary_interrupt(read_state *st, weft_status why)
{
    st->failure = why;
    return OTF2_CALLBACK_INTERRUPT;
}

/* --- The result ----------------------------------------------------------------- */

static char *name_or(const char *name, const char *what, uint64_t ref)
{
    if (name)
        return strdup(name);
    char fallback[64];
    snprintf(fallback, sizeof(fallback), "<%s %" PRIu64 ">", what, ref);
    return strdup(fallback);
}

static weft_status make_regions(const read_state *st, weft_summary *out)
{
    const weft_summary_region *sums = weft__summary_builder_regions(st->builder);
    size_t visited = 0;
    for (size_t i = 0; i < st->region_count; i++)
        visited += sums[i].visits > 0;
    out->regions = calloc(visited ? visited : 1, sizeof(*out->regions));
    if (!out->regions)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < st->region_count; i++) {
        if (sums[i].visits == 0)
            continue;
        const region_def *def = &st->regions[i];
        const char *name = weft__summary_string(st, def->name_ref);
        weft_summary_region *r = &out->regions[out->region_count++];
        *r = sums[i];
        r->paradigm = weft__summary_classify(def->paradigm, def->role, name,
                                             weft__summary_string(st, def->file_ref))
                          .paradigm;
        r->name = name_or(name, "region", def->ref);
        if (!r->name)
            return WEFT_ERR_NO_MEMORY;
        out->paradigms[r->paradigm].visits += r->visits;
        out->paradigms[r->paradigm].excl_ticks += r->excl_ticks;
    }
    weft__summary_sort(out);
    return WEFT_OK;
}

static int compare_pairs(const void *pa, const void *pb)
{
    const weft_summary_pair *a = pa, *b = pb;
    if (a->sender != b->sender)
        return a->sender < b->sender ? -1 : 1;
    return a->receiver < b->receiver ? -1 : a->receiver > b->receiver;
}

static weft_summary_p2p p2p_of(const uint64_t *c)
{
    return (weft_summary_p2p){c[0], c[1], c[2], c[3]};
}

static void add_p2p(weft_summary_p2p *sum, weft_summary_p2p more)
{
    sum->sent_messages += more.sent_messages;
    sum->sent_bytes += more.sent_bytes;
    sum->received_messages += more.received_messages;
    sum->received_bytes += more.received_bytes;
}

static weft_status make_pairs(const read_state *st, weft_summary *out)
{
    size_t n = weft__summary_table_size(st->pairs);
    out->pairs = calloc(n ? n : 1, sizeof(*out->pairs));
    if (!out->pairs)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < n; i++) {
        const uint64_t *c;
        uint64_t key = weft__summary_table_key(st->pairs, i, &c);
        out->pairs[i] = (weft_summary_pair){(uint32_t)(key >> 32), (uint32_t)key, p2p_of(c)};
        add_p2p(&out->p2p_total, out->pairs[i].p2p);
    }
    out->pair_count = n;
    if (n > 1)
        qsort(out->pairs, n, sizeof(*out->pairs), compare_pairs);
    return WEFT_OK;
}

static int compare_comms(const void *pa, const void *pb)
{
    const weft_summary_comm *a = pa, *b = pb;
    return a->ref < b->ref ? -1 : a->ref > b->ref;
}

/* Appends communicator REF with traffic P2P to out->comms, which has room. */
static weft_status add_comm(const read_state *st, weft_summary *out, uint32_t ref,
                            weft_summary_p2p p2p)
{
    size_t def = weft__summary_find_comm(st, ref);
    weft_summary_comm *c = &out->comms[out->comm_count];
    *c = (weft_summary_comm){.ref = ref, .size = weft__summary_comm_size(st, def), .p2p = p2p};
    c->name = def == NOT_FOUND
                  ? name_or(NULL, "undefined communicator", ref)
                  : name_or(weft__summary_string(st, st->comms[def].name_ref), "communicator", ref);
    if (!c->name)
        return WEFT_ERR_NO_MEMORY;
    out->comm_count++;
    return WEFT_OK;
}

/* Sorts out->comms by ref and merges the entries of one communicator. */
static void merge_comms(weft_summary *out)
{
    if (out->comm_count < 2)
        return;
    qsort(out->comms, out->comm_count, sizeof(*out->comms), compare_comms);
    size_t kept = 1;
    for (size_t i = 1; i < out->comm_count; i++) {
        weft_summary_comm *last = &out->comms[kept - 1];
        if (out->comms[i].ref == last->ref) {
            add_p2p(&last->p2p, out->comms[i].p2p);
            free(out->comms[i].name);
        } else {
            out->comms[kept++] = out->comms[i];
        }
    }
    out->comm_count = kept;
}

static size_t comm_position(const weft_summary *out, uint32_t ref)
{
    weft_summary_comm key = {.ref = ref};
    const weft_summary_comm *found =
        bsearch(&key, out->comms, out->comm_count, sizeof(key), compare_comms);
    return (size_t)(found - out->comms);
}

static int compare_collectives(const void *pa, const void *pb)
{
    const weft_summary_collective *a = pa, *b = pb;
    if (a->comm != b->comm)
        return a->comm < b->comm ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

/* The communicators that carried traffic, by ref, then the collectives,
 * which refer to them by position. */
static weft_status make_comms(const read_state *st, weft_summary *out)
{
    size_t np2p = weft__summary_table_size(st->comm_p2p);
    size_t ncoll = weft__summary_table_size(st->collectives);
    out->comms = calloc(np2p + ncoll ? np2p + ncoll : 1, sizeof(*out->comms));
    out->collectives = calloc(ncoll ? ncoll : 1, sizeof(*out->collectives));
    if (!out->comms || !out->collectives)
        return WEFT_ERR_NO_MEMORY;
    const uint64_t *c;
    for (size_t i = 0; i < np2p; i++) {
        uint32_t ref = (uint32_t)weft__summary_table_key(st->comm_p2p, i, &c);
        if (add_comm(st, out, ref, p2p_of(c)) != WEFT_OK)
            return WEFT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < ncoll; i++) {
        uint32_t ref = (uint32_t)(weft__summary_table_key(st->collectives, i, &c) >> 32);
        if (add_comm(st, out, ref, (weft_summary_p2p){0}) != WEFT_OK)
            return WEFT_ERR_NO_MEMORY;
    }
    merge_comms(out);
    for (size_t i = 0; i < ncoll; i++) {
        uint64_t key = weft__summary_table_key(st->collectives, i, &c);
        out->collectives[i] = (weft_summary_collective){
            .op = (uint8_t)key,
            .comm = comm_position(out, (uint32_t)(key >> 32)),
            .calls = c[0],
            .sent_bytes = c[1],
            .received_bytes = c[2],
        };
    }
    out->collective_count = ncoll;
    if (ncoll > 1)
        qsort(out->collectives, ncoll, sizeof(*out->collectives), compare_collectives);
    return WEFT_OK;
}

static void add_omp(weft_summary_omp *sum, const weft_summary_omp *more)
{
    sum->explicit_barrier_ticks += more->explicit_barrier_ticks;
    sum->explicit_barrier_visits += more->explicit_barrier_visits;
    sum->implicit_barrier_ticks += more->implicit_barrier_ticks;
    sum->implicit_barrier_visits += more->implicit_barrier_visits;
    sum->lock_wait_ticks += more->lock_wait_ticks;
    sum->lock_acquisitions += more->lock_acquisitions;
}

/* The locations with OpenMP barrier visits or lock acquisitions, by ref. */
static weft_status make_omp_locations(const read_state *st, weft_summary *out)
{
    out->omp_locations =
        calloc(st->location_count ? st->location_count : 1, sizeof(*out->omp_locations));
    if (!out->omp_locations)
        return WEFT_ERR_NO_MEMORY;
    for (size_t i = 0; i < st->location_count; i++) {
        const weft_summary_omp *omp = &st->location_omp[i];
        if (omp->explicit_barrier_visits + omp->implicit_barrier_visits + omp->lock_acquisitions ==
            0)
            continue;
        const location_def *def = &st->locations[i];
        weft_summary_location *l = &out->omp_locations[out->omp_location_count++];
        *l = (weft_summary_location){.ref = def->ref, .rank = def->rank, .omp = *omp};
        l->name = name_or(weft__summary_string(st, def->name_ref), "location", def->ref);
        if (!l->name)
            return WEFT_ERR_NO_MEMORY;
        add_omp(&out->omp_total, omp);
    }
    return WEFT_OK;
}

static void make_header(const read_state *st, weft_summary *out)
{
    weft_summary_totals totals = weft__summary_builder_totals(st->builder);
    out->timer_resolution = st->timer_resolution;
    if (st->trace_length > 0)
        out->duration_ticks = st->trace_length;
    else if (totals.last_ticks > totals.first_ticks)
        out->duration_ticks = totals.last_ticks - totals.first_ticks;
    out->location_group_count = st->group_count;
    for (size_t i = 0; i < st->group_count; i++)
        out->rank_count += st->groups[i].type == OTF2_LOCATION_GROUP_TYPE_PROCESS;
    out->location_count = st->location_count;
    for (size_t i = 0; i < st->location_count; i++)
        out->thread_count += st->locations[i].type == OTF2_LOCATION_TYPE_CPU_THREAD;
    out->event_count = st->event_count;
    out->root_incl_ticks = totals.root_incl_ticks;
    out->unbalanced_count = totals.unbalanced_count;
    out->undefined_region_count = st->undefined_region_count;
    out->undefined_comm_count = st->undefined_comm_count;
}

static weft_status make_summary(const read_state *st, weft_summary *out)
{
    make_header(st, out);
    out->trace_path = strdup(st->path);
    weft_status status = out->trace_path ? WEFT_OK : WEFT_ERR_NO_MEMORY;
    if (status == WEFT_OK)
        status = make_regions(st, out);
    if (status == WEFT_OK)
        status = make_pairs(st, out);
    if (status == WEFT_OK)
        status = make_comms(st, out);
    if (status == WEFT_OK)
        status = make_omp_locations(st, out);
    if (status != WEFT_OK)
        weft__summary_report(st, OTF2_SUCCESS, NULL, "out of memory summarising");
    return status;
}

static OTF2_ErrorCallback previous_error_callback;

OTF2_Reader *weft__summary_open(read_state *st)
{
    weft__summary_otf2_message[0] = '\0';
    previous_error_callback = OTF2_Error_RegisterCallback(capture_otf2_error, NULL);
    OTF2_Reader *reader = OTF2_Reader_Open(st->path);
    if (!reader) {
        weft__summary_report(st, OTF2_SUCCESS,
                             "give an experiment directory or its .otf2 anchor file",
                             "cannot open the OTF2 archive");
        return NULL;
    }
    OTF2_ErrorCode code = OTF2_Reader_SetSerialCollectiveCallbacks(reader);
    if (code != OTF2_SUCCESS) {
        weft__summary_report(st, code, NULL, "cannot set up reading");
        OTF2_Reader_Close(reader);
        return NULL;
    }
    return reader;
}

weft_status weft__summary_close(read_state *st, OTF2_Reader *reader, weft_status status)
{
    if (reader) {
        OTF2_ErrorCode code = OTF2_Reader_Close(reader);
        if (code != OTF2_SUCCESS && status == WEFT_OK) {
            weft__summary_report(st, code, DAMAGED, "cannot close");
            status = WEFT_ERR_OTF2;
        }
    }
    OTF2_Error_RegisterCallback(previous_error_callback, NULL);
    return status;
}

weft_status weft__summary_read(const char *anchor_path, weft_summary_progress_mode progress,
                               weft_summary *out)
{
    memset(out, 0, sizeof(*out));
    read_state st = {
        .command = "weft summary", .path = anchor_path, .progress = progress, .failure = WEFT_OK};
    OTF2_Reader *reader = weft__summary_open(&st);
    weft_status status = reader ? WEFT_OK : WEFT_ERR_OTF2;
    if (status == WEFT_OK)
        status = weft__summary_read_defs(&st, reader);
    if (status == WEFT_OK)
        status = weft__summary_read_events(&st, reader);
    if (status == WEFT_OK)
        status = make_summary(&st, out);
    status = weft__summary_close(&st, reader, status);
    weft__summary_free_state(&st);
    if (status != WEFT_OK)
        weft__summary_clear(out);
    return status;
}

char *weft__summary_find_anchor(const char *command, const char *trace)
{
    struct stat st;
    if (stat(trace, &st) != 0) {
        fprintf(stderr, "%s: cannot open '%s': %s\n", command, trace, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        char *copy = strdup(trace);
        if (!copy)
            fprintf(stderr, "%s: out of memory\n", command);
        return copy;
    }
    size_t len = strlen(trace);
    bool slash = len > 0 && trace[len - 1] == '/';
    size_t size = len + (slash ? 0 : 1) + sizeof(WEFT_SUMMARY_ANCHOR_NAME);
    char *anchor = malloc(size);
    if (!anchor) {
        fprintf(stderr, "%s: out of memory\n", command);
        return NULL;
    }
    snprintf(anchor, size, "%s%s" WEFT_SUMMARY_ANCHOR_NAME, trace, slash ? "" : "/");
    if (stat(anchor, &st) != 0) {
        fprintf(stderr,
                "%s: '%s' is a directory without " WEFT_SUMMARY_ANCHOR_NAME
                " (%s); give an experiment directory or an .otf2 anchor file\n",
                command, trace, strerror(errno));
        free(anchor);
        return NULL;
    }
    return anchor;
}
