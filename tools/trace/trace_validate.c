/* SPDX-License-Identifier: BSD-3-Clause */
/* What the OTF2 library would read unchecked, checked before it reads it.
 *
 * OTF2 3.0.2 reads a definition file in chunks of the anchor's definition
 * chunk size (4 MiB by default) and checks a record's length only against
 * the end of its chunk buffer, not against the bytes the file holds; and it
 * reads the elements of an array (a group's members, an id map's entries)
 * one by one, as many as the record's count says, without looking at the
 * record's length at all. One damaged byte in a count therefore makes it
 * allocate gigabytes or read past its buffer (issue 23; valgrind: an
 * invalid read 0 bytes after the 4 MiB block).
 *
 * So before OTF2 opens the archive, weft reads the anchor file's chunk
 * sizes and walks every definition file record by record, as OTF2's reader
 * will (docs/dev/OTF2-CONVENTIONS.md, section 9, describes the layout):
 * each chunk begins with a chunk header; each record's type, length and
 * body, and the byte after it, lie within the bytes of its chunk; the file
 * ends with its end-of-file mark; and the arrays of the record types that
 * hold one (Group, MetricClass, CartTopology, CartCoordinate, IoParadigm,
 * and a location's MappingTable) fit into their record. Fields OTF2 reads
 * with checks of its own (strings, the length of a compressed number) are
 * left to it. Every file must be a regular file. */
#include "trace_reader.h"

#include "escape.h"
#include "files.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The buffer format (OTF2's OTF2_Buffer.h; stable since OTF2 1.0). */
enum { END_OF_CHUNK = 0, END_OF_FILE = 2, CHUNK_HEADER = 3 };
enum { LITTLE_ENDIAN_MARK = 0x42, BIG_ENDIAN_MARK = 0x23 };
#define CHUNK_HEADER_SIZE 18 /* type, endianness, first and last event number */
#define LONG_RECORD 0xff     /* a length byte saying that 8 bytes of length follow */

/* Definition record types that hold arrays (otf2_global_definitions.h,
 * otf2_local_definitions.h); the rest of the numbers are alike in both. */
enum {
    LOCAL_MAPPING_TABLE = 5,
    GLOBAL_IO_PARADIGM = 8,
    DEF_GROUP = 18,
    DEF_METRIC_CLASS = 20,
    DEF_CART_TOPOLOGY = 31,
    DEF_CART_COORDINATE = 32,
};

/* Reading a record body; a read past its end clears ok. */
typedef struct cursor {
    const uint8_t *at, *end;
    bool big_endian;
    bool ok;
} cursor;

static uint8_t take_u8(cursor *c)
{
    if (!c->ok || c->at >= c->end) {
        c->ok = false;
        return 0;
    }
    return *c->at++;
}

static void skip(cursor *c, size_t bytes)
{
    if (!c->ok || (size_t)(c->end - c->at) < bytes)
        c->ok = false;
    else
        c->at += bytes;
}

/* An OTF2 compressed number: a byte of length (0, 1..MAX_BYTES, or 0xff for
 * "undefined") and that many bytes of value. */
static uint64_t take_compressed(cursor *c, unsigned max_bytes)
{
    uint8_t size = take_u8(c);
    if (size == 0 || size == 0xff)
        return size == 0 ? 0 : UINT64_MAX;
    if (size > max_bytes) {
        c->ok = false;
        return 0;
    }
    if (!c->ok || (size_t)(c->end - c->at) < size) {
        c->ok = false;
        return 0;
    }
    uint64_t value = 0;
    for (unsigned i = 0; i < size; i++) {
        unsigned byte = c->big_endian ? i : size - 1 - i; /* most significant first */
        value = value << 8 | c->at[byte];
    }
    c->at += size;
    return value;
}

/* An attribute value of TYPE (OTF2_Buffer_ReadAttributeValue's encoding). */
static void skip_value(cursor *c, uint8_t type)
{
    switch (type) {
    case OTF2_TYPE_UINT8:
    case OTF2_TYPE_INT8:
        skip(c, 1);
        break;
    case OTF2_TYPE_UINT16:
    case OTF2_TYPE_INT16:
        skip(c, 2);
        break;
    case OTF2_TYPE_FLOAT:
        skip(c, 4);
        break;
    case OTF2_TYPE_DOUBLE:
        skip(c, 8);
        break;
    default:
        take_compressed(c, 8);
        break;
    }
}

/* Skips COUNT compressed numbers: false as soon as one does not fit. */
static bool skip_numbers(cursor *c, uint64_t count, unsigned max_bytes)
{
    /* each takes at least a byte: a count beyond the bytes left is damage
     * before any is read */
    if (count > (uint64_t)(c->end - c->at))
        return false;
    for (uint64_t i = 0; i < count && c->ok; i++)
        take_compressed(c, max_bytes);
    return c->ok;
}

/* Whether the arrays of a record of TYPE fit into BODY. */
static bool arrays_fit(uint8_t type, bool global, cursor *c)
{
    uint64_t count;
    switch (type) {
    case DEF_GROUP: /* self, name, type (pre 1.2), members */
        take_compressed(c, 4);
        take_compressed(c, 4);
        skip(c, 1);
        count = take_compressed(c, 4);
        return c->ok && skip_numbers(c, count, 8);
    case DEF_METRIC_CLASS: /* self, members */
        take_compressed(c, 4);
        count = take_u8(c);
        return c->ok && skip_numbers(c, count, 4);
    case DEF_CART_TOPOLOGY: /* self, name, communicator, dimensions */
        take_compressed(c, 4);
        take_compressed(c, 4);
        take_compressed(c, 4);
        count = take_u8(c);
        return c->ok && skip_numbers(c, count, 4);
    case DEF_CART_COORDINATE: /* topology, rank, coordinates */
        take_compressed(c, 4);
        take_compressed(c, 4);
        count = take_u8(c);
        return c->ok && skip_numbers(c, count, 4);
    case GLOBAL_IO_PARADIGM: /* self, identification, name, class, flags, properties */
        if (!global)
            return true;
        skip(c, 1);
        take_compressed(c, 4);
        take_compressed(c, 4);
        skip(c, 1);
        take_compressed(c, 4);
        count = take_u8(c);
        for (uint64_t i = 0; i < count && c->ok; i++) {
            skip(c, 1); /* the property */
            skip_value(c, take_u8(c));
        }
        return c->ok;
    case LOCAL_MAPPING_TABLE: { /* mapping type, size, mode, entries */
        if (global)
            return true; /* type 5 is the clock properties there */
        skip(c, 1);
        count = take_compressed(c, 8);
        uint8_t mode = take_u8(c);
        if (!c->ok || (mode == OTF2_ID_MAP_SPARSE && count > UINT64_MAX / 2))
            return false;
        return skip_numbers(c, mode == OTF2_ID_MAP_SPARSE ? 2 * count : count, 8);
    }
    default:
        return true;
    }
}

static uint64_t full_u64(const uint8_t *p, bool big_endian)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < 8; i++)
        value = value << 8 | p[big_endian ? i : 7 - i];
    return value;
}

/* A file being checked: its name for messages, what is known of it. */
typedef struct def_file {
    weft_trace_reader *st;
    const char *path;
    bool global;
    uint64_t chunk_size;
} def_file;

static weft_status damaged(const def_file *f, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* One line: "COMMAND: the definitions 'PATH' are damaged at byte N: WHAT". */
static weft_status damaged(const def_file *f, uint64_t offset, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    weft__cli_line(stderr, "%s: the definitions '%s' are damaged at byte %" PRIu64 ": %s; " DAMAGED,
                   f->st->command ? f->st->command : "weft", f->path, offset, what);
    return WEFT_ERR_OTF2;
}

/* Walks the records of one chunk (LEN bytes at DATA, which begins at byte
 * BASE of the file). Sets *END_OF_FILE when the chunk ends the file. */
static weft_status walk_chunk(const def_file *f, const uint8_t *data, size_t len, uint64_t base,
                              bool last, bool *end_of_file)
{
    if (len < CHUNK_HEADER_SIZE || data[0] != CHUNK_HEADER ||
        (data[1] != LITTLE_ENDIAN_MARK && data[1] != BIG_ENDIAN_MARK))
        return damaged(f, base, "no chunk header where a chunk begins");
    bool big_endian = data[1] == BIG_ENDIAN_MARK;
    size_t pos = CHUNK_HEADER_SIZE;
    for (;;) {
        if (pos >= len)
            return damaged(f, base + pos,
                           "the chunk ends without an end-of-chunk or end-of-file mark");
        size_t at = pos;
        uint8_t type = data[pos++];
        if (type == END_OF_FILE) {
            *end_of_file = true;
            return WEFT_OK;
        }
        if (type == END_OF_CHUNK) {
            if (last)
                return damaged(f, base + at, "an end-of-chunk mark, but no chunk follows");
            return WEFT_OK;
        }
        if (type == CHUNK_HEADER)
            return damaged(f, base + at, "a chunk header inside a chunk");
        uint64_t length = pos < len ? data[pos++] : UINT64_MAX;
        if (length == LONG_RECORD) {
            length = len - pos >= 8 ? full_u64(data + pos, big_endian) : UINT64_MAX;
            pos += len - pos >= 8 ? 8 : 0;
        }
        /* OTF2 reads the body and, after it, the next record's type */
        if (length == UINT64_MAX || length >= len - pos)
            return damaged(f, base + at,
                           "a record of type %u whose length (%" PRIu64
                           " bytes) runs past its chunk",
                           (unsigned)type, length == UINT64_MAX ? 0 : length);
        cursor c = {data + pos, data + pos + length, big_endian, true};
        if (!arrays_fit(type, f->global, &c))
            return damaged(f, base + at,
                           "a record of type %u whose array does not fit into its %" PRIu64
                           " bytes",
                           (unsigned)type, length);
        pos += (size_t)length;
    }
}

/* Checks the definition file PATH chunk by chunk; a file that does not
 * exist is left to OTF2 (local definitions are optional). */
static weft_status validate_file(def_file *f)
{
    const char *kind = NULL;
    uint64_t size = 0;
    int fd = weft__cli_open_regular(f->path, &kind, &size);
    if (fd < 0 && kind) {
        weft__cli_line(stderr,
                       "%s: '%s' is %s, not a regular file; weft reads traces only from "
                       "regular files",
                       f->st->command ? f->st->command : "weft", f->path, kind);
        return WEFT_ERR_OTF2;
    }
    if (fd < 0)
        return WEFT_OK;
    uint8_t *chunk = malloc(f->chunk_size);
    if (!chunk) {
        close(fd);
        weft__trace_report(f->st, OTF2_SUCCESS, NULL, "out of memory checking");
        return WEFT_ERR_NO_MEMORY;
    }
    weft_status status = WEFT_OK;
    bool end_of_file = false;
    uint64_t base = 0;
    while (status == WEFT_OK && !end_of_file) {
        if (base >= size) {
            status = damaged(f, base, "the file ends without its end-of-file mark");
            break;
        }
        size_t want = size - base < f->chunk_size ? (size_t)(size - base) : (size_t)f->chunk_size;
        size_t got = 0;
        while (got < want) {
            ssize_t n = read(fd, chunk + got, want - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        if (got < want) { /* changed under our feet: OTF2 will say more */
            status = damaged(f, base + got, "the file cannot be read to its end");
            break;
        }
        status = walk_chunk(f, chunk, got, base, base + got >= size, &end_of_file);
        base += got;
    }
    free(chunk);
    close(fd);
    return status;
}

/* The anchor file: OTF2's magic, versions and chunk sizes (OTF2_AnchorFile.c:
 * a chunk header without event numbers, "OTF2", the anchor and trace
 * formats, the OTF2 version, then the event and definition chunk sizes). */
static weft_status read_anchor(weft_trace_reader *st, uint64_t *def_chunk_size)
{
    const char *kind = NULL;
    int fd = weft__cli_open_regular(st->path, &kind, NULL);
    if (fd < 0 && kind) {
        weft__cli_line(stderr,
                       "%s: '%s' is %s, not a regular file; weft reads traces only from "
                       "regular files",
                       st->command ? st->command : "weft", st->path, kind);
        return WEFT_ERR_OTF2;
    }
    *def_chunk_size = 0;
    if (fd < 0)
        return WEFT_OK; /* OTF2 says why it cannot be opened */
    uint8_t head[28];
    ssize_t got = read(fd, head, sizeof(head));
    close(fd);
    if (got != (ssize_t)sizeof(head) || head[0] != CHUNK_HEADER ||
        (head[1] != LITTLE_ENDIAN_MARK && head[1] != BIG_ENDIAN_MARK) ||
        memcmp(head + 2, "OTF2", 5) != 0)
        return WEFT_OK; /* not an anchor file: OTF2 says so */
    bool big_endian = head[1] == BIG_ENDIAN_MARK;
    uint64_t events = full_u64(head + 12, big_endian), defs = full_u64(head + 20, big_endian);
    if (events < OTF2_CHUNK_SIZE_MIN || events > OTF2_CHUNK_SIZE_MAX ||
        defs < OTF2_CHUNK_SIZE_MIN || defs > OTF2_CHUNK_SIZE_MAX) {
        weft__cli_line(stderr,
                       "%s: the anchor file '%s' is damaged: chunk sizes of %" PRIu64
                       " and %" PRIu64 " bytes, not between %" PRIu64 " and %" PRIu64 "; " DAMAGED,
                       st->command ? st->command : "weft", st->path, events, defs,
                       (uint64_t)OTF2_CHUNK_SIZE_MIN, (uint64_t)OTF2_CHUNK_SIZE_MAX);
        return WEFT_ERR_OTF2;
    }
    *def_chunk_size = defs;
    return WEFT_OK;
}

/* "<dir>/<name>" of the anchor "<dir>/<name>.otf2"; malloc'ed. */
static char *archive_base(const char *anchor)
{
    size_t len = strlen(anchor);
    const char *suffix = ".otf2";
    if (len > strlen(suffix) && strcmp(anchor + len - strlen(suffix), suffix) == 0)
        len -= strlen(suffix);
    char *base = malloc(len + 1);
    if (base) {
        memcpy(base, anchor, len);
        base[len] = '\0';
    }
    return base;
}

weft_status weft__trace_validate_archive(weft_trace_reader *st)
{
    uint64_t chunk_size = 0;
    weft_status status = read_anchor(st, &chunk_size);
    if (status != WEFT_OK || chunk_size == 0)
        return status;
    free(st->archive_base);
    st->archive_base = archive_base(st->path);
    if (!st->archive_base) {
        weft__trace_report(st, OTF2_SUCCESS, NULL, "out of memory checking");
        return WEFT_ERR_NO_MEMORY;
    }
    st->def_chunk_size = chunk_size;
    size_t size = strlen(st->archive_base) + sizeof(".def");
    char *path = malloc(size);
    if (!path) {
        weft__trace_report(st, OTF2_SUCCESS, NULL, "out of memory checking");
        return WEFT_ERR_NO_MEMORY;
    }
    snprintf(path, size, "%s.def", st->archive_base);
    def_file f = {st, path, true, chunk_size};
    status = validate_file(&f);
    free(path);
    return status;
}

weft_status weft__trace_validate_location(weft_trace_reader *st, uint64_t location)
{
    if (!st->archive_base)
        return WEFT_OK; /* the anchor could not be read: OTF2 decides */
    size_t size = strlen(st->archive_base) + 32;
    char *path = malloc(size);
    if (!path) {
        weft__trace_report(st, OTF2_SUCCESS, NULL, "out of memory checking");
        return WEFT_ERR_NO_MEMORY;
    }
    snprintf(path, size, "%s/%" PRIu64 ".evt", st->archive_base, location);
    const char *kind = weft__cli_special_file(path);
    weft_status status = WEFT_OK;
    if (kind) {
        weft__cli_line(stderr,
                       "%s: '%s' is %s, not a regular file; weft reads traces only from "
                       "regular files",
                       st->command ? st->command : "weft", path, kind);
        status = WEFT_ERR_OTF2;
    }
    if (status == WEFT_OK) {
        snprintf(path, size, "%s/%" PRIu64 ".def", st->archive_base, location);
        def_file f = {st, path, false, st->def_chunk_size};
        status = validate_file(&f);
    }
    free(path);
    return status;
}
