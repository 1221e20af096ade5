/* SPDX-License-Identifier: BSD-3-Clause */
/* `weft view`: one self-contained HTML page of a trace's timeline, in the
 * format docs/dev/VIEW-FORMAT.md describes. The parts, private to view/:
 *
 *   view_buf.c    growable byte buffers, LEB128, zlib streams into memory
 *   view_table.c  column tables in blocks (the format's section 4)
 *   view_spill.c  an external sort of fixed-size records in temporary files
 *   view_nest.c   the stack of open regions of one location (both passes)
 *   view_lod.c    pass A's accumulators: pyramid, profile bins, histograms
 *   view_defs.c   the definitions pass: regions, display order, communicators
 *   view_passes.c the event handlers of the range pass, pass A and pass B
 *   view_match.c  messages matched send to receive after pass A
 *   view_plan.c   the size plan: levels, profile bins, detail windows
 *   view_tables.c every table of the page, compressed into memory
 *   view_header.c the JSON header
 *   view_page.c   the file: template, data elements in base64
 *   view.c        the command line and the order of the steps
 *
 * Memory grows with locations, regions, bins, nesting depth and the size
 * bound, never with the number of events: events are read location by
 * location (the shared reader), and what must be ordered across locations
 * (detail visits by end time, messages by channel, markers by time) goes
 * through view_spill's sorted runs on disk. */
#ifndef WEFT_TOOLS_VIEW_H
#define WEFT_TOOLS_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <zlib.h>

#include "trace_reader.h"
#include "weft/status.h"

#define VIEW_COMMAND "weft view"
#define VIEW_DEFAULT_MAX_BYTES (UINT64_C(25) * 1024 * 1024)

/* --- Bytes ------------------------------------------------------------------------ */

typedef struct view_buf {
    unsigned char *data;
    size_t len, cap;
    bool failed; /* an allocation failed; every later append is dropped */
} view_buf;

void weft__view_buf_append(view_buf *b, const void *bytes, size_t n);
void weft__view_buf_uvar(view_buf *b, uint64_t v);
void weft__view_buf_printf(view_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void weft__view_buf_free(view_buf *b);
size_t weft__view_uvar_length(uint64_t v);
static inline uint64_t weft__view_zigzag(int64_t v)
{
    return v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1;
}

/* A zlib stream (RFC 1950, default window) into a memory buffer. */
typedef struct view_deflate {
    z_stream z;
    bool open;
    view_buf out;
    uint64_t raw;   /* bytes fed */
    uint32_t adler; /* Adler-32 of the bytes fed */
} view_deflate;

bool weft__view_deflate_init(view_deflate *d);
/* Feeds N bytes; FLUSH is Z_NO_FLUSH, Z_SYNC_FLUSH or Z_FINISH. */
bool weft__view_deflate_write(view_deflate *d, const void *bytes, size_t n, int flush);
void weft__view_deflate_free(view_deflate *d);

/* --- Column tables ----------------------------------------------------------------- */

enum { VIEW_MAX_COLUMNS = 8, VIEW_BLOCK_RECORDS = 65536 };

typedef struct view_column {
    const char *name;
    const char *codec; /* "u", "s", "d", "ds" */
    const char *type;  /* "u32", "i32", "f64": what the page decodes into */
} view_column;

typedef struct view_table_spec {
    const char *name; /* "visits"; pyramid levels are named by the caller */
    size_t columns;
    view_column column[VIEW_MAX_COLUMNS];
} view_table_spec;

extern const view_table_spec weft__view_visits_spec, weft__view_messages_spec,
    weft__view_collectives_spec, weft__view_threads_spec, weft__view_profile_spec,
    weft__view_lod_spec;

/* A table being built: one block of columns at a time, each finished block
 * fed through a zlib stream. */
typedef struct view_table {
    const view_table_spec *spec;
    view_buf col[VIEW_MAX_COLUMNS];
    uint64_t prev[VIEW_MAX_COLUMNS];
    size_t in_block;
    size_t block_records; /* a block is flushed when it holds this many */
    uint64_t count;       /* records in the blocks fed so far */
    view_deflate z;
    view_buf block; /* scratch: one encoded block */
} view_table;

bool weft__view_table_init(view_table *t, const view_table_spec *spec);
/* Adds one record: one value per column (signed columns take int64_t bits). */
void weft__view_table_add(view_table *t, const uint64_t *values);
/* Encodes the pending block into t->block (empty when none is pending). */
void weft__view_table_encode_block(view_table *t);
/* Feeds t->block to the stream (sync-flushed, so t->z.out.len is exact).
 * With a LIMIT (0: none) on the payload, a block that would take it past
 * LIMIT is taken back and the stream ended before it: false with
 * *CUT set. */
bool weft__view_table_feed_block(view_table *t, uint64_t limit, bool *cut);
/* Encodes and feeds whatever is pending (within LIMIT, as above), then ends the stream. */
bool weft__view_table_finish(view_table *t, uint64_t limit, bool *cut);
void weft__view_table_free(view_table *t);

/* Bytes an element of a table whose payload has PAYLOAD bytes takes in the
 * page: the tags, base64 text and line breaks. */
uint64_t weft__view_element_bytes(const char *name, uint64_t payload);

/* --- External sort ----------------------------------------------------------------- */

enum { VIEW_SPILL_MAX_WORDS = 10 };

/* Records of WORDS uint64_t, ordered by their first KEYS words. Callers make
 * the keys unique (a sequence number last), so the order is total. */
typedef struct view_spill {
    size_t words, keys;
    uint64_t *buffer; /* one sorted run in the making */
    size_t buffered, buffer_capacity;
    FILE **runs;
    size_t run_count, run_capacity;
    uint64_t count; /* records added */
    bool failed;
    /* merging */
    struct view_spill_cursor *cursors;
    size_t *heap;
    size_t heap_size;
    size_t next_in_memory;
    bool merging;
} view_spill;

void weft__view_spill_init(view_spill *s, size_t words, size_t keys);
void weft__view_spill_add(view_spill *s, const uint64_t *record);
/* Starts handing out the records in order (after the last add). */
bool weft__view_spill_rewind(view_spill *s);
/* The next record in order into RECORD; false at the end. */
bool weft__view_spill_next(view_spill *s, uint64_t *record);
void weft__view_spill_free(view_spill *s);

/* --- Definitions ----------------------------------------------------------------- */

/* What the page names: regions as the summary classifies them, locations in
 * display order with their groups, files. Region and communicator indices
 * are the reader's (definitions sorted by ref); locations have a display
 * index (display[reader index]). */
typedef struct view_defs {
    size_t region_count;
    uint8_t *paradigm;    /* per region: weft_summary_class */
    uint8_t *wait;        /* per region: weft_summary_wait */
    int64_t *region_file; /* per region: index into files, -1 */
    char **files;
    size_t file_count, file_capacity;
    size_t location_count;
    size_t *order;        /* display index -> reader index */
    size_t *display;      /* reader index -> display index */
    size_t *group_of;     /* display index -> index into groups */
    size_t *groups;       /* reader group indices, in display order */
    uint64_t *group_rank; /* per display group: the number the header gives */
    size_t group_count;
    uint64_t origin, duration; /* ticks */
} view_defs;

weft_status weft__view_defs_build(view_defs *d, const weft_trace_reader *r);
void weft__view_defs_free(view_defs *d);

/* --- One location's open regions (view_nest.c) -------------------------------------- */

typedef struct view_frame {
    uint64_t region, start;
    bool outer; /* the region was not open already on this location */
} view_frame;

/* What a pass does as regions open and close on a location. */
typedef struct view_nest_hooks {
    /* Time [from, to) passes with REGION (or none: INNERMOST false) innermost at DEPTH. */
    void (*span)(void *ctx, uint64_t from, uint64_t to, bool running, uint64_t region,
                 uint64_t depth);
    void (*enter)(void *ctx, uint64_t region, uint64_t time);
    /* A visit closes: children before parents, in leave order. */
    void (*visit)(void *ctx, const view_frame *f, uint64_t end, uint64_t depth);
} view_nest_hooks;

typedef struct view_nest {
    view_frame *stack;
    size_t depth, capacity;
    uint32_t *open; /* per region: instances open */
    size_t region_count;
    uint64_t now; /* time of the last enter/leave, never decreasing */
    uint64_t unbalanced;
    const view_nest_hooks *hooks;
    void *ctx;
} view_nest;

bool weft__view_nest_init(view_nest *n, size_t region_count, const view_nest_hooks *hooks,
                          void *ctx);
void weft__view_nest_begin(view_nest *n); /* a new location at time 0 */
bool weft__view_nest_enter(view_nest *n, uint64_t region, uint64_t time);
void weft__view_nest_leave(view_nest *n, uint64_t region, uint64_t time);
/* Closes what is still open at the last enter/leave, as weft summary does. */
void weft__view_nest_end(view_nest *n);
void weft__view_nest_free(view_nest *n);

/* --- Pass A's accumulators (view_lod.c) ------------------------------------------- */

enum { VIEW_MAX_LEVELS = 10, VIEW_HISTOGRAM_BUCKETS = 217 };

typedef struct view_map view_map; /* (region, depth) -> ticks of one bin */

typedef struct view_level {
    uint64_t bins, width;
    uint32_t *region; /* bins x locations: 0 idle, else region + 1 */
    uint16_t *depth;
} view_level;

typedef struct view_lod {
    size_t location_count, region_count;
    uint64_t n0, w0;
    size_t level_count;
    view_level levels[VIEW_MAX_LEVELS];

    uint64_t profile_bins, profile_width; /* finest profile bins */
    uint64_t *profile;                    /* bins x regions x {visits, incl, excl} */

    uint64_t *ends;                             /* n0: visits ending in each finest bin */
    uint64_t durations[VIEW_HISTOGRAM_BUCKETS]; /* visits per duration bucket */
    uint64_t visits, visit_bytes;

    /* the current location */
    size_t loc; /* display index */
    uint64_t t, last_end;
    uint64_t bin[VIEW_MAX_LEVELS];
    view_map *maps[VIEW_MAX_LEVELS];
    /* A sample for the plan: every visit (of any location) ending in
     * [sample_from, sample_from + sample_span), the span halved whenever more
     * than the sample holds would fall in it; records of VIS_WORDS. */
    uint64_t *sample;
    size_t sample_count;
    uint64_t sample_from, sample_span, sample_seq;
} view_lod;

uint64_t weft__view_edge(size_t bucket);     /* E_k of the histograms */
size_t weft__view_bucket(uint64_t duration); /* the bucket of a duration */

bool weft__view_lod_init(view_lod *l, uint64_t duration, size_t locations, size_t regions);
void weft__view_lod_location(view_lod *l, size_t display_loc);
void weft__view_lod_span(view_lod *l, uint64_t from, uint64_t to, bool running, uint64_t region,
                         uint64_t depth);
void weft__view_lod_enter(view_lod *l, uint64_t region, uint64_t time);
void weft__view_lod_visit(view_lod *l, const view_frame *f, uint64_t end, uint64_t depth);
/* Idle to the end of the finest level: closes every bin of the location. */
void weft__view_lod_location_end(view_lod *l);
/* Page bytes per visit of the visits table, from the sample compressed in
 * the table's order (0 when the sample is empty). */
double weft__view_lod_bytes_per_visit(view_lod *l);
void weft__view_lod_free(view_lod *l);

/* --- The whole run (view.c, view_passes.c, view_match.c) ---------------------------- */

typedef struct view_stats {
    uint64_t events, visits, messages, collectives, thread_events;
    uint64_t unmatched_sends, unmatched_receives, unbalanced, undefined;
    uint64_t message_bytes_est; /* LEB128 bytes of every message record */
} view_stats;

/* Record layouts in the spills (uint64_t words). */
enum {
    /* a send or receive: the channel, the order among its channel, then data */
    P2P_COMM,
    P2P_SENDER,
    P2P_RECEIVER,
    P2P_TAG,
    P2P_ORDER,
    P2P_LOC,
    P2P_SEQ,
    P2P_TIME,
    P2P_BYTES,
    P2P_WORDS,
    P2P_KEYS = P2P_SEQ + 1,
    /* a matched message, by receive time */
    MSG_RECV = 0,
    MSG_LOC,
    MSG_SEQ,
    MSG_TRANSFER,
    MSG_SENDER,
    MSG_TAG,
    MSG_BYTES,
    MSG_COMM,
    MSG_WORDS,
    /* a collective pair, by end time */
    COL_END = 0,
    COL_LOC,
    COL_SEQ,
    COL_DUR,
    COL_OP,
    COL_COMM,
    COL_ROOT,
    COL_SENT,
    COL_RECEIVED,
    COL_WORDS,
    /* a fork or join */
    THR_TIME = 0,
    THR_LOC,
    THR_SEQ,
    THR_KIND,
    THR_TEAM,
    THR_WORDS,
    /* a detail visit, by end time, each location's in leave order */
    VIS_END = 0,
    VIS_LOC,
    VIS_SEQ,
    VIS_DUR,
    VIS_DEPTH,
    VIS_REGION,
    VIS_WORDS,
    SORT_KEYS = 3 /* time, location, sequence */
};

/* The chosen detail (the format's section 6). */
typedef struct view_detail {
    bool everything;
    bool have_window;
    uint64_t window_start, window_end; /* half-open, ticks */
    bool have_min_duration;
    uint64_t min_duration;
    bool have_min_transfer;
    uint64_t min_transfer;
    bool markers_all;
    bool truncated;
    uint64_t truncated_at;
} view_detail;

typedef struct view_state {
    weft_trace_reader read; /* first: handlers get the reader */
    view_defs defs;
    view_stats stats;
    view_nest nest;
    view_lod lod;
    int pass;     /* 0 range, 1 pass A, 2 pass B */
    size_t loc;   /* display index of the location being read */
    uint64_t seq; /* records spilled, for a total order */
    size_t program_region;
    /* the range pass */
    bool any_time;
    uint64_t first_time, last_time;
    /* per location: collective begin, pending receive requests */
    bool collective_open;
    uint64_t collective_begin;
    uint64_t *requests; /* pairs: request id, posted time */
    size_t request_count, request_capacity;
    /* spills */
    view_spill sends, receives, messages, collectives, threads, visits;
    uint64_t transfers[VIEW_HISTOGRAM_BUCKETS];
    view_detail detail;
} view_state;

/* Time of an event as the page counts it: ticks from the origin, within
 * [0, duration]. */
static inline uint64_t weft__view_time(const view_state *s, uint64_t t)
{
    uint64_t rel = t > s->defs.origin ? t - s->defs.origin : 0;
    return rel > s->defs.duration ? s->defs.duration : rel;
}

weft_status weft__view_read_pass(view_state *s, OTF2_Reader *reader, int pass);
/* Pairs sends and receives per channel in order; fills s->messages. */
weft_status weft__view_match(view_state *s);

/* --- Plan and output ---------------------------------------------------------------- */

typedef struct view_options {
    const char *trace;
    const char *output;
    uint64_t max_bytes;
    bool window_given;
    double window_start_s, window_end_s;
    weft_progress_mode progress;
} view_options;

/* A finished table: its payload (a zlib stream) and what the header says. */
typedef struct view_built {
    char name[16];
    const view_table_spec *spec;
    uint64_t count, raw;
    view_buf payload;
} view_built;

typedef struct view_page {
    view_built tables[VIEW_MAX_LEVELS + 6];
    size_t table_count;
    size_t level_written[VIEW_MAX_LEVELS]; /* the levels in lod.levels, coarsest first */
    size_t levels_written;
    uint64_t profile_bins, profile_width;
    uint64_t used;        /* planned page bytes so far */
    uint64_t rest;        /* what the shares split */
    uint64_t planned[4];  /* pyramid, profile, markers, detail */
    view_buf definitions; /* the header's definition fields, JSON */
    const char *created;
    char *trace_path;
} view_page;

/* view_tables.c: each table built into T (compressed in memory). */
bool weft__view_table_level(const view_state *s, size_t level, view_table *t);
bool weft__view_table_profile(const view_state *s, uint64_t merge, view_table *t);
bool weft__view_table_markers(view_state *s, int kind, bool all, uint64_t allowance, view_table *t,
                              bool *cut, uint64_t *cut_at);
bool weft__view_table_visits(view_state *s, uint64_t allowance, view_table *t, bool *cut,
                             uint64_t *cut_at);
/* Moves a finished table into the page (its bytes counted in p->used). */
weft_status weft__view_add_table(view_page *p, const char *name, view_table *t);

/* The pyramid levels and the profile, coarsest first, within their shares. */
weft_status weft__view_build_lod(view_state *s, view_page *p, const view_options *o);
/* Everything for the detail: the plan (section 6), then pass B's input. */
weft_status weft__view_plan_detail(view_state *s, view_page *p, const view_options *o);
/* The marker tables and the visits table (the hard stop). */
weft_status weft__view_build_detail(view_state *s, view_page *p, const view_options *o);

/* The header's definition part (files, regions, groups, locations, comms). */
bool weft__view_header_definitions(const view_state *s, view_buf *out);
/* The whole header element. */
bool weft__view_header(const view_state *s, const view_page *p, const view_options *o,
                       view_buf *out);
void weft__view_json_string(view_buf *out, const char *text);

extern const unsigned char weft_view_template[];
extern const size_t weft_view_template_size;
/* The template split at its one marker; false (and one line) when it has none or several. */
bool weft__view_template_parts(size_t *before, size_t *after_start);
/* Writes the page to PATH. Returns the bytes written, 0 after one line on stderr. */
uint64_t weft__view_write(const view_state *s, const view_page *p, const view_options *o,
                          const char *path);

#endif /* WEFT_TOOLS_VIEW_H */
