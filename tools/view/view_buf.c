/* SPDX-License-Identifier: BSD-3-Clause */
/* Growable byte buffers, unsigned LEB128, and zlib streams into memory for
 * `weft view`. An allocation failure marks the buffer failed instead of
 * stopping the caller at every append; the caller checks once at the end. */
#include "view.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(view_buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra) {
        if (cap > SIZE_MAX / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    unsigned char *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = true;
        return false;
    }
    b->data = grown;
    b->cap = cap;
    return true;
}

void weft__view_buf_append(view_buf *b, const void *bytes, size_t n)
{
    if (n == 0 || !reserve(b, n))
        return;
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

void weft__view_buf_uvar(view_buf *b, uint64_t v)
{
    if (!reserve(b, 10))
        return;
    while (v >= 0x80) {
        b->data[b->len++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (unsigned char)v;
}

size_t weft__view_uvar_length(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

void weft__view_buf_printf(view_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof(small)) {
        weft__view_buf_append(b, small, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n + 1))
        return;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void weft__view_buf_free(view_buf *b)
{
    free(b->data);
    *b = (view_buf){0};
}

/* --- zlib ---------------------------------------------------------------------------- */

bool weft__view_deflate_init(view_deflate *d)
{
    *d = (view_deflate){0};
    if (deflateInit(&d->z, Z_DEFAULT_COMPRESSION) != Z_OK)
        return false;
    d->open = true;
    d->adler = (uint32_t)adler32(0, Z_NULL, 0);
    return true;
}

bool weft__view_deflate_write(view_deflate *d, const void *bytes, size_t n, int flush)
{
    if (!d->open || d->out.failed)
        return false;
    d->z.next_in = (Bytef *)(uintptr_t)bytes;
    d->z.avail_in = (uInt)n;
    d->raw += n;
    if (n > 0)
        d->adler = (uint32_t)adler32(d->adler, bytes, (uInt)n);
    for (;;) {
        if (!reserve(&d->out, 65536))
            return false;
        d->z.next_out = d->out.data + d->out.len;
        d->z.avail_out = (uInt)(d->out.cap - d->out.len);
        uInt before = d->z.avail_out;
        int rc = deflate(&d->z, flush);
        d->out.len += before - d->z.avail_out;
        if (rc == Z_STREAM_END)
            return true;
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return false;
        /* Done when the input is used up and deflate left output room. */
        if (d->z.avail_in == 0 && d->z.avail_out > 0 && flush != Z_FINISH)
            return true;
    }
}

void weft__view_deflate_free(view_deflate *d)
{
    if (d->open)
        deflateEnd(&d->z);
    weft__view_buf_free(&d->out);
    d->open = false;
}
