/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading EPILOG files (KOJAK, Scalasca 1.x / EPIK), record by record:
 * docs/dev/LEGACY-FORMATS.md section 1 describes the format. A file may be
 * gzip-compressed as a whole (zlib reads both kinds the same way). Private
 * to tools/ (weft convert). */
#ifndef WEFT_TOOLS_EPILOG_READER_H
#define WEFT_TOOLS_EPILOG_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Record types (the ones weft convert reads; others are skipped). */
enum {
    ELG_STRING = 1,
    ELG_STRING_CNT = 2,
    ELG_MACHINE = 3,
    ELG_NODE = 4,
    ELG_LOCATION = 7,
    ELG_FILE = 8,
    ELG_REGION = 9,
    ELG_METRIC = 10,
    ELG_MPI_COMM = 11,
    ELG_OFFSET = 12,
    ELG_LAST_DEF = 13,
    ELG_NUM_EVENTS = 14,
    ELG_CALL_SITE = 15,
    ELG_MPI_COMM_CNT = 19,
    ELG_MAP_SECTION = 23,
    ELG_IDMAP = 25,
    ELG_IDMAP_CNT = 26,
    ELG_MPI_GROUP = 27,
    ELG_MPI_GROUP_CNT = 28,
    ELG_MPI_COMM_REF = 29,
    ELG_ENTER = 101,
    ELG_EXIT = 102,
    ELG_MPI_SEND = 103,
    ELG_MPI_RECV = 104,
    ELG_MPI_COLLEXIT = 105,
    ELG_OMP_FORK = 106,
    ELG_OMP_JOIN = 107,
    ELG_OMP_ALOCK = 108,
    ELG_OMP_RLOCK = 109,
    ELG_OMP_COLLEXIT = 110,
    ELG_ENTER_CS = 111,
    ELG_LOG_OFF = 201,
    ELG_LOG_ON = 202,
    ELG_ENTER_TRACING = 203,
    ELG_EXIT_TRACING = 204,
};

#define ELG_NO_ID UINT32_MAX

typedef struct epilog_reader epilog_reader;

typedef struct epilog_record {
    uint8_t type;
    uint8_t length;      /* body bytes */
    const uint8_t *body; /* valid until the next weft__epilog_next */
    uint64_t offset;     /* of the record in the (uncompressed) file */
} epilog_record;

/* Opens PATH and reads its header. On failure returns NULL and writes one
 * line (no newline) into err: cannot open, not EPILOG, unknown version. */
epilog_reader *weft__epilog_open(const char *path, char *err, size_t err_len);

/* The next record: 1, or 0 at the end of the file, or -1 when the file
 * ends inside a record (err says where). */
int weft__epilog_next(epilog_reader *r, epilog_record *rec, char *err, size_t err_len);

/* The header: version and byte order. */
unsigned weft__epilog_version(const epilog_reader *r); /* major * 1000 + minor */
bool weft__epilog_big_endian(const epilog_reader *r);

/* Bytes read so far (uncompressed) and whether the file is gzip-compressed. */
uint64_t weft__epilog_position(const epilog_reader *r);
bool weft__epilog_compressed(const epilog_reader *r);

void weft__epilog_close(epilog_reader *r);

/* Reading a record body field by field, in the file's byte order. A read
 * past the end sets ok to false and gives 0 (or ""). */
typedef struct epilog_fields {
    const uint8_t *at, *end;
    bool swap; /* the file's byte order is not this machine's */
    bool ok;
} epilog_fields;

epilog_fields weft__epilog_fields_of(const epilog_reader *r, const epilog_record *rec);
uint8_t weft__epilog_u1(epilog_fields *f);
uint32_t weft__epilog_u4(epilog_fields *f);
uint64_t weft__epilog_u8(epilog_fields *f);
double weft__epilog_d8(epilog_fields *f);
/* A NUL-terminated string, or the bytes up to the end of the body (then
 * *len tells how many; the text is not terminated). */
const char *weft__epilog_chars(epilog_fields *f, size_t *len);
/* Bytes left in the body. */
size_t weft__epilog_left(const epilog_fields *f);

#endif /* WEFT_TOOLS_EPILOG_READER_H */
