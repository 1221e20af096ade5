/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON header of a `weft view` page (VIEW-FORMAT.md section 3). Strings
 * from the trace are checked as UTF-8 (a bad byte becomes U+FFFD), cut at
 * 512 bytes (with "…"), and every '<' is written \u003c so that nothing in
 * them can end the <script> element they sit in. */
#include "view.h"
#include "summary.h"
#include "escape.h"

#include <inttypes.h>
#include <string.h>

#define MAX_NAME_BYTES 512

void weft__view_json_string(view_buf *out, const char *text)
{
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    size_t n = strlen((const char *)p);
    weft__view_buf_append(out, "\"", 1);
    size_t written = 0;
    while (n > 0) {
        size_t len = (size_t)weft__cli_utf8_length(p);
        if (written + (len ? len : 3) > MAX_NAME_BYTES) {
            weft__view_buf_append(out, "\xe2\x80\xa6", 3); /* … */
            break;
        }
        if (len == 0) {
            weft__view_buf_append(out, "\xef\xbf\xbd", 3); /* U+FFFD */
            p++, n--, written += 3;
            continue;
        }
        unsigned char c = p[0];
        if (len == 1 && (c < 0x20 || c == '"' || c == '\\' || c == '<' || c == 0x7f)) {
            if (c == '"' || c == '\\')
                weft__view_buf_printf(out, "\\%c", c);
            else
                weft__view_buf_printf(out, "\\u%04x", c);
        } else {
            weft__view_buf_append(out, p, len);
        }
        p += len, n -= len, written += len;
    }
    weft__view_buf_append(out, "\"", 1);
}

static const char *role_name(uint8_t role)
{
    static const char *const names[] = {"unknown",
                                        "function",
                                        "wrapper",
                                        "loop",
                                        "code",
                                        "parallel",
                                        "sections",
                                        "section",
                                        "workshare",
                                        "single",
                                        "single_sblock",
                                        "master",
                                        "critical",
                                        "critical_sblock",
                                        "atomic",
                                        "barrier",
                                        "implicit_barrier",
                                        "flush",
                                        "ordered",
                                        "ordered_sblock",
                                        "task",
                                        "task_create",
                                        "task_wait",
                                        "coll_one2all",
                                        "coll_all2one",
                                        "coll_all2all",
                                        "coll_other",
                                        "file_io",
                                        "point2point",
                                        "rma",
                                        "data_transfer",
                                        "artificial",
                                        "thread_create",
                                        "thread_wait",
                                        "task_untied",
                                        "allocate",
                                        "deallocate",
                                        "reallocate",
                                        "file_io_metadata"};
    return role < sizeof(names) / sizeof(names[0]) ? names[role] : "unknown";
}

static const char *wait_name(uint8_t wait)
{
    static const char *const names[] = {"none", "barrier", "implicit_barrier", "lock"};
    return wait < 4 ? names[wait] : "none";
}

static const char *location_type(uint8_t type)
{
    switch (type) {
    case OTF2_LOCATION_TYPE_CPU_THREAD:
        return "cpu_thread";
    case OTF2_LOCATION_TYPE_ACCELERATOR_STREAM:
        return "accelerator_stream";
    case OTF2_LOCATION_TYPE_METRIC:
        return "metric";
    default:
        return "unknown";
    }
}

/* A name from the trace, or "<WHAT REF>" when it names no string. */
static void name_or(view_buf *out, const weft_trace_reader *r, uint64_t ref, const char *what,
                    uint64_t id)
{
    const char *name = weft__trace_string(r, ref);
    if (name) {
        weft__view_json_string(out, name);
    } else {
        char fallback[64];
        snprintf(fallback, sizeof(fallback), "<%s %" PRIu64 ">", what, id);
        weft__view_json_string(out, fallback);
    }
}

#define SEP(i) ((i) ? "," : "")

bool weft__view_header_definitions(const view_state *s, view_buf *out)
{
    const weft_trace_reader *r = &s->read;
    const view_defs *d = &s->defs;
    weft__view_buf_printf(out, "\"files\":[");
    for (size_t i = 0; i < d->file_count; i++) {
        weft__view_buf_printf(out, "%s", SEP(i));
        weft__view_json_string(out, d->files[i]);
    }
    weft__view_buf_printf(out, "],\"regions\":{\"name\":[");
    for (size_t i = 0; i < r->region_count; i++) {
        weft__view_buf_printf(out, "%s", SEP(i));
        name_or(out, r, r->regions[i].name_ref, "region", r->regions[i].ref);
    }
    weft__view_buf_printf(out, "],\"paradigm\":[");
    for (size_t i = 0; i < r->region_count; i++)
        weft__view_buf_printf(out, "%s\"%s\"", SEP(i),
                              weft__summary_class_name((weft_summary_class)d->paradigm[i]));
    weft__view_buf_printf(out, "],\"wait\":[");
    for (size_t i = 0; i < r->region_count; i++)
        weft__view_buf_printf(out, "%s\"%s\"", SEP(i), wait_name(d->wait[i]));
    weft__view_buf_printf(out, "],\"role\":[");
    for (size_t i = 0; i < r->region_count; i++)
        weft__view_buf_printf(out, "%s\"%s\"", SEP(i), role_name(r->regions[i].role));
    weft__view_buf_printf(out, "],\"file\":[");
    for (size_t i = 0; i < r->region_count; i++)
        weft__view_buf_printf(out, "%s%" PRId64, SEP(i), d->region_file[i]);
    weft__view_buf_printf(out, "],\"line\":[");
    for (size_t i = 0; i < r->region_count; i++)
        weft__view_buf_printf(out, "%s%" PRIu32, SEP(i), r->regions[i].begin_line);
    weft__view_buf_printf(out, "]},\"groups\":{\"name\":[");
    for (size_t g = 0; g < d->group_count; g++) {
        weft__view_buf_printf(out, "%s", SEP(g));
        size_t index = d->groups[g];
        if (index == NOT_FOUND)
            weft__view_json_string(out, "<no location group>");
        else
            name_or(out, r, r->groups[index].name_ref, "location group", r->groups[index].ref);
    }
    weft__view_buf_printf(out, "],\"rank\":[");
    for (size_t g = 0; g < d->group_count; g++)
        weft__view_buf_printf(out, "%s%" PRIu64, SEP(g), d->group_rank[g]);
    weft__view_buf_printf(out, "]},\"locations\":{\"name\":[");
    for (size_t k = 0; k < d->location_count; k++) {
        const location_def *loc = &r->locations[d->order[k]];
        weft__view_buf_printf(out, "%s", SEP(k));
        name_or(out, r, loc->name_ref, "location", loc->ref);
    }
    weft__view_buf_printf(out, "],\"group\":[");
    for (size_t k = 0; k < d->location_count; k++)
        weft__view_buf_printf(out, "%s%zu", SEP(k), d->group_of[k]);
    weft__view_buf_printf(out, "],\"type\":[");
    for (size_t k = 0; k < d->location_count; k++)
        weft__view_buf_printf(out, "%s\"%s\"", SEP(k),
                              location_type(r->locations[d->order[k]].type));
    weft__view_buf_printf(out, "]},\"comms\":{\"name\":[");
    for (size_t c = 0; c < r->comm_count; c++) {
        weft__view_buf_printf(out, "%s", SEP(c));
        name_or(out, r, r->comms[c].name_ref, "communicator", r->comms[c].ref);
    }
    weft__view_buf_printf(out, "],\"size\":[");
    for (size_t c = 0; c < r->comm_count; c++)
        weft__view_buf_printf(out, "%s%" PRIu64, SEP(c), weft__trace_comm_size(r, c));
    weft__view_buf_printf(out, "]}");
    return !out->failed;
}

static void table_entry(view_buf *out, const view_built *b, size_t i)
{
    weft__view_buf_printf(out,
                          "%s\"%s\":{\"count\":%" PRIu64 ",\"codec\":\"deflate\","
                          "\"raw_bytes\":%" PRIu64 ",\"bytes\":%zu,\"columns\":[",
                          SEP(i), b->name, b->count, b->raw, b->payload.len);
    for (size_t c = 0; c < b->spec->columns; c++) {
        const view_column *col = &b->spec->column[c];
        weft__view_buf_printf(out, "%s[\"%s\",\"%s\",\"%s\"]", SEP(c), col->name, col->codec,
                              col->type);
    }
    weft__view_buf_printf(out, "]}");
}

static void optional(view_buf *out, const char *name, bool have, uint64_t value)
{
    if (have)
        weft__view_buf_printf(out, ",\"%s\":%" PRIu64, name, value);
    else
        weft__view_buf_printf(out, ",\"%s\":null", name);
}

bool weft__view_header(const view_state *s, const view_page *p, const view_options *o,
                       view_buf *out)
{
    const weft_trace_reader *r = &s->read;
    const view_stats *st = &s->stats;
    weft__view_buf_printf(out,
                          "{\"format\":\"weft-view\",\"version\":1,\"generator\":\"weft %s\","
                          "\"trace\":",
                          WEFT_VERSION);
    weft__view_json_string(out, p->trace_path);
    weft__view_buf_printf(out, ",\"created\":\"%s\",", p->created);
    weft__view_buf_printf(out,
                          "\"timer\":{\"resolution\":%" PRIu64 ",\"origin\":\"%" PRIu64
                          "\",\"duration\":%" PRIu64 "},",
                          r->timer_resolution, s->defs.origin, s->defs.duration);
    weft__view_buf_printf(out,
                          "\"stats\":{\"events\":%" PRIu64 ",\"visits\":%" PRIu64
                          ",\"messages\":%" PRIu64 ",\"collectives\":%" PRIu64
                          ",\"thread_events\":%" PRIu64 ",\"locations\":%zu},",
                          st->events, st->visits, st->messages, st->collectives, st->thread_events,
                          s->defs.location_count);
    weft__view_buf_printf(out,
                          "\"budget\":{\"max_bytes\":%" PRIu64 ",\"planned\":{\"pyramid\":%" PRIu64
                          ",\"profile\":%" PRIu64 ",\"markers\":%" PRIu64 ",\"detail\":%" PRIu64
                          "}},",
                          o->max_bytes, p->planned[0], p->planned[1], p->planned[2], p->planned[3]);
    weft__view_buf_append(out, p->definitions.data, p->definitions.len);
    weft__view_buf_printf(out, ",\"lod\":{\"levels\":[");
    for (size_t i = 0; i < p->levels_written; i++) {
        const view_level *lv = &s->lod.levels[p->level_written[i]];
        weft__view_buf_printf(out,
                              "%s{\"bins\":%" PRIu64 ",\"width\":%" PRIu64 ",\"table\":\"lod%zu\"}",
                              SEP(i), lv->bins, lv->width, p->level_written[i]);
    }
    weft__view_buf_printf(
        out, "]},\"profile\":{\"bins\":%" PRIu64 ",\"width\":%" PRIu64 ",\"table\":\"profile\"},",
        p->profile_bins, p->profile_width);
    const view_detail *d = &s->detail;
    weft__view_buf_printf(out, "\"detail\":{\"windows\":[");
    if (d->have_window)
        weft__view_buf_printf(out, "[%" PRIu64 ",%" PRIu64 "]", d->window_start, d->window_end);
    weft__view_buf_printf(out, "]");
    optional(out, "min_duration", d->have_min_duration, d->min_duration);
    optional(out, "min_transfer", d->markers_all ? false : d->have_min_transfer, d->min_transfer);
    weft__view_buf_printf(out, ",\"markers\":\"%s\"", d->markers_all ? "all" : "windows");
    optional(out, "truncated_at", d->truncated, d->truncated_at);
    weft__view_buf_printf(out, "},\"tables\":{");
    for (size_t i = 0; i < p->table_count; i++)
        table_entry(out, &p->tables[i], i);
    weft__view_buf_printf(out, "}}");
    return !out->failed;
}
