/* SPDX-License-Identifier: BSD-3-Clause */
/* The page's tables (VIEW-FORMAT.md section 4): records column by column in
 * blocks ("uvar n, then per column uvar length and n LEB128 values"), delta
 * columns carrying their running sum across blocks; each block goes through
 * one zlib stream, flushed to a byte boundary so that the compressed size so
 * far is exact (the hard stop needs it). The column lists match
 * tools/view/page/src/format.js. */
#include "view.h"

#include <string.h>

/* clang-format off */
const view_table_spec weft__view_visits_spec = {"visits", 5, {
    {"end", "d", "f64"}, {"dur", "u", "f64"}, {"loc", "u", "u32"}, {"depth", "u", "u32"},
    {"region", "u", "u32"}}};
const view_table_spec weft__view_messages_spec = {"messages", 7, {
    {"recv", "d", "f64"}, {"transfer", "s", "f64"}, {"sender", "u", "u32"},
    {"receiver", "u", "u32"}, {"tag", "u", "f64"}, {"bytes", "u", "f64"}, {"comm", "u", "u32"}}};
const view_table_spec weft__view_collectives_spec = {"collectives", 8, {
    {"end", "d", "f64"}, {"dur", "u", "f64"}, {"loc", "u", "u32"}, {"op", "u", "u32"},
    {"comm", "u", "u32"}, {"root", "u", "u32"}, {"sent", "u", "f64"},
    {"received", "u", "f64"}}};
const view_table_spec weft__view_threads_spec = {"threads", 4, {
    {"time", "d", "f64"}, {"loc", "u", "u32"}, {"kind", "u", "u32"}, {"team", "u", "u32"}}};
const view_table_spec weft__view_profile_spec = {"profile", 5, {
    {"bin", "d", "u32"}, {"region", "u", "u32"}, {"visits", "u", "f64"}, {"incl", "u", "f64"},
    {"excl", "u", "f64"}}};
const view_table_spec weft__view_lod_spec = {"lod", 2, {
    {"region", "u", "u32"}, {"depth", "u", "u32"}}};
/* clang-format on */

bool weft__view_table_init(view_table *t, const view_table_spec *spec)
{
    *t = (view_table){.spec = spec, .block_records = VIEW_BLOCK_RECORDS};
    return weft__view_deflate_init(&t->z);
}

void weft__view_table_add(view_table *t, const uint64_t *values)
{
    for (size_t c = 0; c < t->spec->columns; c++) {
        const char *codec = t->spec->column[c].codec;
        uint64_t v = values[c];
        if (codec[0] == 'd') {
            uint64_t diff = v - t->prev[c];
            t->prev[c] = v;
            v = codec[1] == 's' ? weft__view_zigzag((int64_t)diff) : diff;
        } else if (codec[0] == 's') {
            v = weft__view_zigzag((int64_t)v);
        }
        weft__view_buf_uvar(&t->col[c], v);
    }
    t->in_block++;
}

void weft__view_table_encode_block(view_table *t)
{
    t->block.len = 0;
    if (t->in_block == 0)
        return;
    weft__view_buf_uvar(&t->block, t->in_block);
    for (size_t c = 0; c < t->spec->columns; c++) {
        weft__view_buf_uvar(&t->block, t->col[c].len);
        weft__view_buf_append(&t->block, t->col[c].data, t->col[c].len);
        t->col[c].len = 0;
    }
}

/* Ends the stream by hand where it stood before the last block: the output
 * so far ends on a byte boundary (sync flush), so an empty final stored
 * block and the Adler-32 of the bytes up to there make a complete zlib
 * stream (RFC 1950/1951) that holds exactly the earlier blocks. */
static void end_before(view_table *t, size_t out_len, uint64_t raw, uint32_t adler)
{
    static const unsigned char final_empty_block[] = {0x01, 0x00, 0x00, 0xff, 0xff};
    t->z.out.len = out_len;
    weft__view_buf_append(&t->z.out, final_empty_block, sizeof(final_empty_block));
    unsigned char check[4] = {(unsigned char)(adler >> 24), (unsigned char)(adler >> 16),
                              (unsigned char)(adler >> 8), (unsigned char)adler};
    weft__view_buf_append(&t->z.out, check, sizeof(check));
    t->z.raw = raw;
    t->z.adler = adler;
    deflateEnd(&t->z.z);
    t->z.open = false;
}

/* Bytes Z_FINISH adds after a sync flush, at most: an empty final block and the check. */
#define FINISH_BYTES 16

bool weft__view_table_feed_block(view_table *t, uint64_t limit, bool *cut)
{
    if (t->block.failed)
        return false;
    if (t->block.len == 0)
        return true;
    size_t out_len = t->z.out.len;
    uint64_t raw = t->z.raw;
    uint32_t adler = t->z.adler;
    bool ok = weft__view_deflate_write(&t->z, t->block.data, t->block.len, Z_SYNC_FLUSH);
    t->block.len = 0;
    if (ok && limit > 0 && t->z.out.len + FINISH_BYTES > limit) {
        end_before(t, out_len, raw, adler);
        t->in_block = 0;
        *cut = true;
        return false;
    }
    t->count += t->in_block;
    t->in_block = 0;
    return ok;
}

bool weft__view_table_finish(view_table *t, uint64_t limit, bool *cut)
{
    weft__view_table_encode_block(t);
    if (!weft__view_table_feed_block(t, limit, cut))
        return *cut && !t->z.out.failed;
    return weft__view_deflate_write(&t->z, "", 0, Z_FINISH);
}

void weft__view_table_free(view_table *t)
{
    for (size_t c = 0; c < VIEW_MAX_COLUMNS; c++)
        weft__view_buf_free(&t->col[c]);
    weft__view_buf_free(&t->block);
    weft__view_deflate_free(&t->z);
}

uint64_t weft__view_element_bytes(const char *name, uint64_t payload)
{
    uint64_t text = 4 * ((payload + 2) / 3);
    uint64_t lines = (text + 75) / 76; /* each line ends in '\n' */
    return strlen("<script type=\"application/x-weft-table\" id=\"weft-table-\">\n") +
           strlen(name) + text + lines + strlen("</script>\n");
}
