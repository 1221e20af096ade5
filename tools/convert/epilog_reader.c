/* SPDX-License-Identifier: BSD-3-Clause */
/* EPILOG records from a plain or gzip-compressed file; see epilog_reader.h. */
#include "epilog_reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "files.h"

struct epilog_reader {
    gzFile file;
    uint64_t position;
    unsigned version;
    bool big_endian;
    bool compressed;
    uint8_t body[256];
};

static bool host_big_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 0;
}

/* Reads exactly len bytes; false at the end of the file or on an error. */
static bool read_bytes(epilog_reader *r, void *buf, unsigned len)
{
    int got = len ? gzread(r->file, buf, len) : 0;
    if (got > 0)
        r->position += (uint64_t)got;
    return got == (int)len;
}

epilog_reader *weft__epilog_open(const char *path, char *err, size_t err_len)
{
    epilog_reader *r = calloc(1, sizeof(*r));
    if (!r) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    const char *kind = NULL;
    int fd = weft__cli_open_regular(path, &kind, NULL);
    if (fd < 0 && kind) {
        snprintf(err, err_len,
                 "'%s' is %s, not a regular file; weft convert reads only regular "
                 "files",
                 path, kind);
        free(r);
        return NULL;
    }
    r->file = fd >= 0 ? gzdopen(fd, "rb") : NULL;
    if (!r->file) {
        snprintf(err, err_len, "cannot open '%s': %s", path, strerror(errno ? errno : EIO));
        if (fd >= 0)
            close(fd);
        free(r);
        return NULL;
    }
    gzbuffer(r->file, 1 << 18);
    uint8_t header[10];
    bool whole = read_bytes(r, header, sizeof(header));
    r->compressed = !gzdirect(r->file);
    if (!whole || memcmp(header, "EPILOG", 7) != 0) {
        snprintf(err, err_len, "'%s' is not an EPILOG file (it does not start with \"EPILOG\")",
                 path);
        weft__epilog_close(r);
        return NULL;
    }
    r->version = header[7] * 1000u + header[8];
    if (header[7] != 1 || (header[9] != 1 && header[9] != 2)) {
        snprintf(err, err_len,
                 "'%s': EPILOG version %u.%u, byte order %u; weft convert reads version 1.x, "
                 "byte order 1 or 2",
                 path, header[7], header[8], header[9]);
        weft__epilog_close(r);
        return NULL;
    }
    r->big_endian = header[9] == 2;
    return r;
}

int weft__epilog_next(epilog_reader *r, epilog_record *rec, char *err, size_t err_len)
{
    uint8_t frame[2];
    uint64_t offset = r->position;
    int got = gzread(r->file, frame, 2);
    if (got == 0)
        return 0;
    if (got < 0) {
        int code;
        snprintf(err, err_len, "read error at byte %llu: %s", (unsigned long long)offset,
                 gzerror(r->file, &code));
        return -1;
    }
    r->position += (uint64_t)got;
    if (got == 1 || !read_bytes(r, r->body, frame[0])) {
        snprintf(err, err_len,
                 "the file ends inside the record at byte %llu (type %u, %u bytes expected)",
                 (unsigned long long)offset, got == 2 ? frame[1] : 0u, got == 2 ? frame[0] : 0u);
        return -1;
    }
    *rec = (epilog_record){.type = frame[1], .length = frame[0], .body = r->body, .offset = offset};
    return 1;
}

unsigned weft__epilog_version(const epilog_reader *r)
{
    return r->version;
}

bool weft__epilog_big_endian(const epilog_reader *r)
{
    return r->big_endian;
}

uint64_t weft__epilog_position(const epilog_reader *r)
{
    return r->position;
}

bool weft__epilog_compressed(const epilog_reader *r)
{
    return r->compressed;
}

void weft__epilog_close(epilog_reader *r)
{
    if (!r)
        return;
    if (r->file)
        gzclose(r->file);
    free(r);
}

epilog_fields weft__epilog_fields_of(const epilog_reader *r, const epilog_record *rec)
{
    return (epilog_fields){rec->body, rec->body + rec->length, r->big_endian != host_big_endian(),
                           true};
}

/* Copies n bytes in the host's order into out, or zeroes and fails. */
static void take(epilog_fields *f, void *out, size_t n)
{
    if (!f->ok || (size_t)(f->end - f->at) < n) {
        f->ok = false;
        memset(out, 0, n);
        return;
    }
    uint8_t *bytes = out;
    for (size_t i = 0; i < n; i++)
        bytes[i] = f->swap ? f->at[n - 1 - i] : f->at[i];
    f->at += n;
}

uint8_t weft__epilog_u1(epilog_fields *f)
{
    uint8_t v;
    take(f, &v, 1);
    return v;
}

uint32_t weft__epilog_u4(epilog_fields *f)
{
    uint32_t v;
    take(f, &v, 4);
    return v;
}

uint64_t weft__epilog_u8(epilog_fields *f)
{
    uint64_t v;
    take(f, &v, 8);
    return v;
}

double weft__epilog_d8(epilog_fields *f)
{
    double v;
    take(f, &v, 8);
    return v;
}

const char *weft__epilog_chars(epilog_fields *f, size_t *len)
{
    const uint8_t *start = f->at;
    const uint8_t *nul = memchr(start, '\0', (size_t)(f->end - start));
    *len = nul ? (size_t)(nul - start) : (size_t)(f->end - start);
    f->at = nul ? nul + 1 : f->end;
    return (const char *)start;
}

size_t weft__epilog_left(const epilog_fields *f)
{
    return (size_t)(f->end - f->at);
}
