/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing a `weft view` page: the template (built from tools/view/page and
 * compiled in as weft_view_template) up to its one data marker, the header
 * element, one element per table as base64 in lines of 76 characters, and
 * the rest of the template. The file is written under a temporary name
 * next to its destination and renamed at the end, so a failed run never
 * leaves half a page where a good one was. */
#include "view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MARKER "<!--WEFT:DATA-->"

bool weft__view_template_parts(size_t *before, size_t *after_start)
{
    const char *t = (const char *)weft_view_template;
    size_t n = weft_view_template_size, len = strlen(MARKER), found = 0, at = 0;
    for (size_t i = 0; i + len <= n; i++) {
        if (memcmp(t + i, MARKER, len) == 0) {
            found++;
            at = i;
        }
    }
    if (found != 1) {
        fprintf(stderr,
                "%s: the page template built into this weft holds the data marker %s %zu times, "
                "not once; rebuild weft from a clean tools/view/page/dist\n",
                VIEW_COMMAND, MARKER, found);
        return false;
    }
    *before = at;
    *after_start = at + len;
    return true;
}

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* BYTES as base64 text in lines of 76 characters, each ending in '\n'. */
static void base64(FILE *f, const unsigned char *bytes, size_t n)
{
    char line[77];
    size_t used = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)bytes[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)bytes[i + 1] << 8;
        if (i + 2 < n)
            v |= bytes[i + 2];
        line[used++] = alphabet[(v >> 18) & 63];
        line[used++] = alphabet[(v >> 12) & 63];
        line[used++] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
        line[used++] = i + 2 < n ? alphabet[v & 63] : '=';
        if (used == 76) {
            line[used++] = '\n';
            fwrite(line, 1, used, f);
            used = 0;
        }
    }
    if (used > 0) {
        line[used++] = '\n';
        fwrite(line, 1, used, f);
    }
}

static void write_page(FILE *f, const view_buf *header, const view_page *p, size_t before,
                       size_t after)
{
    fwrite(weft_view_template, 1, before, f);
    fputs("<script type=\"application/json\" id=\"weft-header\">", f);
    fwrite(header->data, 1, header->len, f);
    fputs("</script>\n", f);
    for (size_t i = 0; i < p->table_count; i++) {
        const view_built *b = &p->tables[i];
        fprintf(f, "<script type=\"application/x-weft-table\" id=\"weft-table-%s\">\n", b->name);
        base64(f, b->payload.data, b->payload.len);
        fputs("</script>\n", f);
    }
    fwrite(weft_view_template + after, 1, weft_view_template_size - after, f);
}

uint64_t weft__view_write(const view_state *s, const view_page *p, const view_options *o,
                          const char *path)
{
    size_t before = 0, after = 0;
    if (!weft__view_template_parts(&before, &after))
        return 0;
    view_buf header = {0};
    if (!weft__view_header(s, p, o, &header)) {
        weft__view_buf_free(&header);
        fprintf(stderr, "%s: out of memory writing the page of '%s'\n", VIEW_COMMAND, s->read.path);
        return 0;
    }
    size_t tmp_size = strlen(path) + 32;
    char *tmp = malloc(tmp_size);
    if (!tmp) {
        weft__view_buf_free(&header);
        fprintf(stderr, "%s: out of memory\n", VIEW_COMMAND);
        return 0;
    }
    snprintf(tmp, tmp_size, "%s.tmp-%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", VIEW_COMMAND, path, strerror(errno));
        weft__view_buf_free(&header);
        free(tmp);
        return 0;
    }
    write_page(f, &header, p, before, after);
    weft__view_buf_free(&header);
    long size = ftell(f);
    errno = 0;
    bool ok = !ferror(f) && size >= 0;
    if (fclose(f) != 0)
        ok = false;
    if (ok && (uint64_t)size > o->max_bytes) {
        fprintf(stderr,
                "%s: the page came out at %ld bytes, over the bound of %llu (a bug); "
                "nothing written\n",
                VIEW_COMMAND, size, (unsigned long long)o->max_bytes);
        unlink(tmp);
        free(tmp);
        return 0;
    }
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", VIEW_COMMAND, path,
                errno ? strerror(errno) : "write error");
        unlink(tmp);
        free(tmp);
        return 0;
    }
    free(tmp);
    return (uint64_t)size;
}
