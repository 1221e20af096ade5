/* SPDX-License-Identifier: BSD-3-Clause */
/* Control characters in text from a trace, escaped for a terminal; see
 * escape.h. */
#include "escape.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int weft__cli_utf8_length(const unsigned char *p)
{
    int n = p[0] < 0x80             ? 1
            : (p[0] & 0xe0) == 0xc0 ? 2
            : (p[0] & 0xf0) == 0xe0 ? 3
            : (p[0] & 0xf8) == 0xf0 ? 4
                                    : 0;
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    }
    /* Overlong forms, surrogates and code points beyond U+10FFFF. */
    if ((n == 2 && p[0] < 0xc2) || (n == 3 && p[0] == 0xe0 && p[1] < 0xa0) ||
        (n == 3 && p[0] == 0xed && p[1] >= 0xa0) || (n == 4 && p[0] == 0xf0 && p[1] < 0x90) ||
        (n == 4 && (p[0] > 0xf4 || (p[0] == 0xf4 && p[1] >= 0x90))))
        return 0;
    return n;
}

/* The piece of output for the text at P: its bytes into PIECE (at most 7),
 * their count into *LEN; returns how many bytes of P it stands for. */
static size_t piece_of(const unsigned char *p, char piece[8], size_t *len)
{
    if (*p < 0x20 || *p == 0x7f) {
        *len = (size_t)snprintf(piece, 8, "\\x%02x", *p);
        return 1;
    }
    if (*p < 0x80) {
        piece[0] = (char)*p;
        *len = 1;
        return 1;
    }
    int n = weft__cli_utf8_length(p);
    if (n == 0) {
        *len = (size_t)snprintf(piece, 8, "\\x%02x", *p);
        return 1;
    }
    if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) { /* U+0080..U+009F */
        *len = (size_t)snprintf(piece, 8, "\\u%04x", p[1]);
        return 2;
    }
    memcpy(piece, p, (size_t)n);
    *len = (size_t)n;
    return (size_t)n;
}

const char *weft__cli_escape(const char *text, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    size_t used = 0, cut = 0; /* cut: the last piece boundary that leaves room for "..." */
    while (*p) {
        char piece[8];
        size_t len;
        size_t consumed = piece_of(p, piece, &len);
        if (used + len + 1 > size) {
            used = size >= 4 ? cut : 0;
            if (size >= 4) {
                memcpy(buf + used, "...", 3);
                used += 3;
            }
            break;
        }
        memcpy(buf + used, piece, len);
        used += len;
        if (used + 4 <= size)
            cut = used;
        p += consumed;
    }
    buf[used] = '\0';
    return buf;
}

void weft__cli_put_escaped(FILE *out, const char *text)
{
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    while (*p) {
        char piece[8];
        size_t len;
        p += piece_of(p, piece, &len);
        fwrite(piece, 1, len, out);
    }
}

void weft__cli_line(FILE *out, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int needed = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    char *text = small;
    if (needed >= (int)sizeof(small)) {
        text = malloc((size_t)needed + 1);
        if (text) {
            va_start(ap, fmt);
            vsnprintf(text, (size_t)needed + 1, fmt, ap);
            va_end(ap);
        } else {
            text = small; /* out of memory: the line cut to what fitted */
        }
    }
    weft__cli_put_escaped(out, needed < 0 ? "" : text);
    fputc('\n', out);
    if (text != small)
        free(text);
}
