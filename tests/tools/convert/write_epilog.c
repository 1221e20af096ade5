/* A test-only EPILOG writer, following docs/dev/LEGACY-FORMATS.md section
 * 1: merged traces (global definitions, then the events of every location
 * in time order) for weft convert's tests.
 *
 *   write_epilog SCENARIO OUT [--big-endian] [--gzip] [--metrics] [--archive] [--broken=KIND]
 *
 * SCENARIO: omp (one process, two threads, two parallel regions with a for
 * loop, its implicit barrier, a critical section and an omp_set_lock pair
 * on thread 1), mpi (two processes: three messages each way, MPI_Allreduce,
 * MPI_Barrier, MPI_Bcast from rank 0), hybrid (both on two processes of two
 * threads; the MPI calls on thread 0 outside the parallel regions).
 * --metrics adds one integer counter to every enter and exit. --no-main
 * leaves out the "main" region around everything, so that the master
 * threads fork at the root of their call trees.
 * --parallel-regions=N repeats the parallel regions N times (default 2: the
 * tests' counts), for big traces (bench/run-convert). --archive
 * writes an EPIK archive directory OUT instead (epik.esd with MPI groups,
 * epik.map with every rank's id maps and clock offset, and ELG/NNNNN with
 * the rank's events, gzip-compressed: local ids (regions numbered backwards),
 * local times (rank r's clock 0.25 r s behind), peers as ranks, the
 * location field only with several threads). KIND damages
 * the file: truncated (cut inside a record), magic, version, short-record
 * (an ENTER one byte short), undefined-region (an ENTER of region 99),
 * unknown-types (adds records of types 50 and 150, which a reader skips:
 * not damage), header-only (the header and nothing else), definitions-only
 * (cut right after the definitions), flipped-ids (bit 23 of the ids of the
 * first string, location, file and region definition flipped: four bits),
 * and for archives map-section-lost (epik.map without rank 1's MAP_SECTION
 * record, so its maps follow rank 0's) and map-bytes-deleted (4 bytes cut
 * out of rank 0's OFFSET record, whose length still says 16) and
 * map-field-overwritten (0xfffffffe written over the type byte and rank of
 * rank 1's MAP_SECTION, little endian); not damage:
 * escape-metric (with --metrics: the metric has floating-point values and
 * a name holding a terminal escape sequence). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static bool big_endian, with_metrics, archive, without_main;
static const char *broken = "";

static bool is_broken(const char *kind)
{
    return strcmp(broken, kind) == 0;
}

/* flipped-ids: the first definition of a kind gets bit 23 of its id flipped. */
static uint32_t def_id(uint32_t id)
{
    return is_broken("flipped-ids") && id == 0 ? id ^ (1u << 23) : id;
}

/* Output buffers: the merged file, or the archive's files. */
typedef struct buffer {
    unsigned char *data;
    size_t len, cap;
} buffer;
static buffer merged, esd, map, rank_files[2];
static buffer *out = &merged;
static unsigned char rec[256];
static size_t rec_len;

static void put_raw(const void *data, size_t n)
{
    if (out->len + n > out->cap) {
        out->cap = (out->len + n) * 2 + 4096;
        out->data = realloc(out->data, out->cap);
        if (!out->data)
            exit(3);
    }
    memcpy(out->data + out->len, data, n);
    out->len += n;
}

static void field(uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned shift = big_endian ? 8 * (n - 1 - i) : 8 * i;
        rec[rec_len++] = (unsigned char)(v >> shift);
    }
}

static void u1(unsigned v)
{
    field(v, 1);
}
static void u4(uint32_t v)
{
    field(v, 4);
}
static void u8(uint64_t v)
{
    field(v, 8);
}
static void d8(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    field(bits, 8);
}
static void chars(const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(rec + rec_len, s, n);
    rec_len += n;
}

static void begin(void)
{
    rec_len = 0;
}
static void end(unsigned type)
{
    unsigned char frame[2] = {(unsigned char)rec_len, (unsigned char)type};
    put_raw(frame, 2);
    put_raw(rec, rec_len);
}

/* ---- definitions ------------------------------------------------------- */

#define NO_ID 0xFFFFFFFFu
enum { S_OMP_C, S_MPI, S_OMP, S_NODE0, S_NODE1, S_MACHINE, S_CYCLES, FIRST_REGION_STRING };

/* Regions: name, file string, lines, EPILOG region type. */
static const struct {
    const char *name;
    unsigned file, begin, end_line, type;
} regions[] = {
    {"main", S_OMP_C, 1, 50, 3},
    {"!$omp parallel @omp.c:10", S_OMP_C, 10, 20, 11},
    {"!$omp for @omp.c:12", S_OMP_C, 12, 14, 12},
    {"!$omp ibarrier @omp.c:14", S_OMP_C, 14, 14, 21},
    {"!$omp critical @omp.c:16", S_OMP_C, 16, 18, 18},
    {"!$omp critical sblock @omp.c:16", S_OMP_C, 16, 18, 23},
    {"omp_set_lock", S_OMP, NO_ID, NO_ID, 1},
    {"omp_unset_lock", S_OMP, NO_ID, NO_ID, 1},
    {"!$omp ibarrier @omp.c:20", S_OMP_C, 20, 20, 21},
    {"MPI_Send", S_MPI, NO_ID, NO_ID, 1},
    {"MPI_Recv", S_MPI, NO_ID, NO_ID, 1},
    {"MPI_Allreduce", S_MPI, NO_ID, NO_ID, 7},
    {"MPI_Barrier", S_MPI, NO_ID, NO_ID, 4},
    {"MPI_Bcast", S_MPI, NO_ID, NO_ID, 5},
};
enum {
    R_MAIN,
    R_PARALLEL,
    R_FOR,
    R_FOR_BARRIER,
    R_CRITICAL,
    R_SBLOCK,
    R_SET_LOCK,
    R_UNSET_LOCK,
    R_PAR_BARRIER,
    R_SEND,
    R_RECV,
    R_ALLREDUCE,
    R_BARRIER,
    R_BCAST,
    REGION_COUNT
};

static void string_def(uint32_t id, const char *text)
{
    begin();
    u4(id);
    u1(0);
    chars(text);
    end(1);
}

static unsigned processes, threads;
static long parallel_regions = 2; /* per process; --parallel-regions=N for big traces */

static void definitions(void)
{
    string_def(def_id(S_OMP_C), "omp.c");
    string_def(S_MPI, "MPI");
    string_def(S_OMP, "OMP");
    string_def(S_NODE0, "node-a");
    string_def(S_NODE1, "node-b");
    string_def(S_MACHINE, "cluster");
    /* escape-metric: a floating-point metric whose name would retitle a terminal */
    string_def(S_CYCLES, is_broken("escape-metric") ? "PAPI\x1b]0;owned\aTOT" : "PAPI_TOT_CYC");
    for (unsigned r = 0; r < REGION_COUNT; r++)
        string_def(FIRST_REGION_STRING + r, regions[r].name);
    begin(); /* MACHINE 0 with two nodes */
    u4(0), u4(2), u4(S_MACHINE);
    end(3);
    for (unsigned n = 0; n < 2; n++) {
        begin();
        u4(n), u4(0), u4(2), u4(n ? S_NODE1 : S_NODE0), d8(2.0e9);
        end(4);
    }
    for (unsigned p = 0; p < processes; p++) {
        for (unsigned t = 0; t < threads; t++) {
            begin(); /* LOCATION lid mid nid pid tid; one node per process */
            u4(def_id(p * threads + t)), u4(0), u4(p % 2), u4(p), u4(t);
            end(7);
        }
    }
    for (unsigned f = 0; f < 3; f++) { /* FILE ids = their string ids */
        begin();
        u4(def_id(f)), u4(f);
        end(8);
    }
    for (unsigned r = 0; r < REGION_COUNT; r++) {
        begin();
        u4(def_id(r)), u4(FIRST_REGION_STRING + r), u4(regions[r].file), u4(regions[r].begin);
        u4(regions[r].end_line), u4(NO_ID), u1(regions[r].type);
        end(9);
    }
    if (with_metrics) {
        begin(); /* METRIC id name descr dtype(int) mode(counter) interval(start) */
        u4(0), u4(S_CYCLES), u4(S_CYCLES), u1(is_broken("escape-metric")), u1(0), u1(0);
        end(10);
    }
    if (processes > 1 && archive) {
        begin(); /* MPI_GROUP 0: world (no rank list), 1: self */
        u4(0), u1(1), u4(processes);
        end(27);
        begin();
        u4(1), u1(2), u4(0);
        end(27);
        for (unsigned cid = 0; cid < 2; cid++) { /* MPI_COMM_REF comm -> group */
            begin();
            u4(cid), u4(cid);
            end(29);
        }
    } else if (processes > 1) {
        begin(); /* MPI_COMM 0: world, ranks 0 and 1 */
        u4(0), u1(1), u4(1), u1(0x3);
        end(11);
        for (unsigned p = 0; p < 2; p++) { /* MPI_COMM_SELF of each rank */
            begin();
            u4(1 + p), u1(0), u4(1), u1((unsigned)(1u << p));
            end(11);
        }
    }
    begin();
    end(13); /* LAST_DEF */
}

/* ---- events ------------------------------------------------------------ */

static double now;
static uint64_t cycles = 1000;

/* Rank r's clock runs this far behind the global one (archives). */
static double clock_behind(unsigned rank)
{
    return 0.25 * rank;
}

static void event_head(uint32_t lid)
{
    begin();
    if (archive) {
        unsigned rank = lid / threads;
        out = &rank_files[rank];
        if (threads > 1)
            u4(lid % threads); /* the thread: the location within the process */
        d8(now - clock_behind(rank) + 1.0);
    } else {
        u4(lid);
        d8(now);
    }
    now += 1e-6;
}

/* Ids as the file has them: archives number regions backwards locally,
 * and name peers and roots by rank. */
static uint32_t region_id(unsigned region)
{
    return archive ? REGION_COUNT - 1 - region : region;
}

static uint32_t peer_id(uint32_t lid)
{
    return archive && lid != NO_ID ? lid / threads : lid;
}

static void metrics(void)
{
    if (with_metrics)
        u8(cycles += 777);
}

static void enter(uint32_t lid, unsigned region)
{
    event_head(lid);
    u4(region_id(region));
    metrics();
    end(101);
}

static void exit_(uint32_t lid, unsigned type) /* EXIT 102 or OMP_COLLEXIT 110 */
{
    event_head(lid);
    metrics();
    end(type);
}

static void simple(uint32_t lid, unsigned type, int lock)
{
    event_head(lid);
    if (lock >= 0)
        u4((uint32_t)lock);
    end(type);
}

/* Two parallel regions of process p (threads lids base, base + 1). */
static void openmp(unsigned p)
{
    uint32_t base = p * threads;
    for (long k = 0; k < parallel_regions; k++) {
        simple(base, 106, -1); /* OMP_FORK */
        for (unsigned t = 0; t < threads; t++)
            enter(base + t, R_PARALLEL);
        for (unsigned t = 0; t < threads; t++) {
            enter(base + t, R_FOR);
            enter(base + t, R_FOR_BARRIER);
        }
        for (unsigned t = 0; t < threads; t++) {
            exit_(base + t, 110);
            exit_(base + t, 110);
        }
        for (unsigned t = 0; t < threads; t++) {
            enter(base + t, R_CRITICAL);
            simple(base + t, 108, 0); /* the critical's lock */
            enter(base + t, R_SBLOCK);
            exit_(base + t, 102);
            simple(base + t, 109, 0);
            exit_(base + t, 102);
        }
        if (threads > 1) {
            uint32_t other = base + 1;
            enter(other, R_SET_LOCK);
            simple(other, 108, 1);
            exit_(other, 102);
            enter(other, R_UNSET_LOCK);
            simple(other, 109, 1);
            exit_(other, 102);
        }
        for (unsigned t = 0; t < threads; t++)
            enter(base + t, R_PAR_BARRIER);
        for (unsigned t = 0; t < threads; t++) {
            exit_(base + t, 110);
            exit_(base + t, 110);
        }
        simple(base, 107, -1); /* OMP_JOIN */
    }
}

static void message(uint32_t from, uint32_t to, uint32_t tag, uint32_t bytes)
{
    enter(from, R_SEND);
    event_head(from);
    u4(peer_id(to)), u4(0), u4(tag), u4(bytes);
    end(103);
    exit_(from, 102);
    enter(to, R_RECV);
    event_head(to);
    u4(peer_id(from)), u4(0), u4(tag);
    end(104);
    exit_(to, 102);
}

static void collective(unsigned region, uint32_t root_lid, uint32_t sent, uint32_t received)
{
    uint32_t masters[2] = {0, threads};
    for (int i = 0; i < 2; i++)
        enter(masters[i], region);
    for (int i = 0; i < 2; i++) {
        event_head(masters[i]);
        metrics();
        bool is_root = root_lid == masters[i];
        u4(peer_id(root_lid)), u4(0);
        u4(root_lid == NO_ID || is_root ? sent : 0);
        u4(root_lid == NO_ID || !is_root ? received : 0);
        end(105);
    }
}

static void mpi(void)
{
    for (uint32_t r = 0; r < 3; r++)
        message(0, threads, 5, 64 * (r + 1));
    for (uint32_t r = 0; r < 3; r++)
        message(threads, 0, 6, 32 * (r + 1));
    collective(R_ALLREDUCE, NO_ID, 8, 8);
    collective(R_BARRIER, NO_ID, 0, 0);
    collective(R_BCAST, 0, 16, 16);
}

static void write_file(const char *path, const buffer *b, bool gzip)
{
    if (gzip) {
        gzFile f = gzopen(path, "wb");
        if (!f || gzwrite(f, b->data, (unsigned)b->len) != (int)b->len || gzclose(f) != Z_OK)
            exit(3);
        return;
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) != 0)
        exit(3);
}

static void header(buffer *b, unsigned char major)
{
    unsigned char bytes[10] = {'E', 'P', 'I', 'L', 'O', 'G', 0, major, 9, big_endian ? 2 : 1};
    out = b;
    put_raw(bytes, sizeof(bytes));
}

/* epik.map: each rank's location, region and comm maps and clock offset. */
static void write_map(void)
{
    out = &map;
    for (unsigned p = 0; p < processes; p++) {
        size_t section = map.len;
        begin();
        u4(p);
        if (!(p == 1 && is_broken("map-section-lost")))
            end(23); /* MAP_SECTION */
        /* map-field-overwritten: 0xfffffffe over the type byte and the rank */
        if (p == 1 && is_broken("map-field-overwritten"))
            memcpy(map.data + section + 1, (const unsigned char[]){0xfe, 0xff, 0xff, 0xff}, 4);
        begin(); /* IDMAP LOC dense: local thread -> global location */
        u1(7), u1(0), u4(threads);
        for (unsigned t = 0; t < threads; t++)
            u4(p * threads + t);
        end(25);
        begin(); /* IDMAP REG dense, split over a continuation record */
        u1(9), u1(0), u4(REGION_COUNT);
        for (unsigned r = 0; r < REGION_COUNT / 2; r++)
            u4(REGION_COUNT - 1 - r);
        end(25);
        begin();
        for (unsigned r = REGION_COUNT / 2; r < REGION_COUNT; r++)
            u4(REGION_COUNT - 1 - r);
        end(26);
        begin(); /* IDMAP COM: local comms 0, 1 are global 0, 1 */
        u1(11), u1(0), u4(2), u4(0), u4(1);
        end(25);
        begin(); /* OFFSET: global = local + offset */
        d8(0.0), d8(clock_behind(p) - 1.0);
        end(12);
        if (p == 0 && is_broken("map-bytes-deleted"))
            map.len -= 4; /* the offset's last 4 bytes: the next record is eaten */
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: write_epilog omp|mpi|hybrid OUT [--big-endian] [--gzip] "
                        "[--metrics] [--broken=KIND]\n");
        return 2;
    }
    const char *scenario = argv[1];
    bool gzip = false;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--big-endian") == 0)
            big_endian = true;
        else if (strcmp(argv[i], "--gzip") == 0)
            gzip = true;
        else if (strcmp(argv[i], "--metrics") == 0)
            with_metrics = true;
        else if (strcmp(argv[i], "--archive") == 0)
            archive = true;
        else if (strcmp(argv[i], "--no-main") == 0)
            without_main = true;
        else if (strncmp(argv[i], "--parallel-regions=", 19) == 0)
            parallel_regions = atol(argv[i] + 19);
        else if (strncmp(argv[i], "--broken=", 9) == 0)
            broken = argv[i] + 9;
    }
    bool omp = strcmp(scenario, "mpi") != 0, with_mpi = strcmp(scenario, "omp") != 0;
    processes = with_mpi ? 2 : 1;
    threads = omp ? 2 : 1;

    header(archive ? &esd : &merged, strcmp(broken, "version") == 0 ? 2 : 1);
    if (strcmp(broken, "magic") == 0)
        out->data[0] = 'X';
    if (is_broken("header-only")) {
        write_file(argv[2], &merged, gzip);
        return 0;
    }
    definitions();
    if (is_broken("definitions-only")) {
        write_file(argv[2], &merged, gzip);
        return 0;
    }
    if (archive) {
        header(&map, 1);
        write_map();
        for (unsigned p = 0; p < processes; p++)
            header(&rank_files[p], 1);
    }
    if (strcmp(broken, "unknown-types") == 0) {
        begin();
        u4(7);
        end(50); /* a definition type weft does not read, after LAST_DEF */
        begin();
        u4(0), d8(0.0), u4(1234);
        end(150);
    }
    for (unsigned p = 0; p < processes && !without_main; p++)
        for (unsigned t = 0; t < threads; t++)
            enter(p * threads + t, R_MAIN);
    if (strcmp(broken, "short-record") == 0) {
        event_head(0);
        u4(R_FOR);
        metrics();
        rec_len--;
        end(101);
    }
    if (strcmp(broken, "undefined-region") == 0)
        enter(0, 99);
    for (unsigned p = 0; omp && p < processes; p++)
        openmp(p);
    if (with_mpi)
        mpi();
    for (unsigned p = 0; p < processes && !without_main; p++)
        for (unsigned t = 0; t < threads; t++)
            exit_(p * threads + t, 102);
    if (strcmp(broken, "truncated") == 0)
        out->len -= 5; /* inside the last record */
    if (!archive) {
        write_file(argv[2], &merged, gzip);
        return 0;
    }
    char path[4200];
    snprintf(path, sizeof(path), "mkdir -p '%s/ELG'", argv[2]);
    if (system(path) != 0)
        return 3;
    snprintf(path, sizeof(path), "%s/epik.esd", argv[2]);
    write_file(path, &esd, false);
    snprintf(path, sizeof(path), "%s/epik.map", argv[2]);
    write_file(path, &map, false);
    for (unsigned p = 0; p < processes; p++) {
        snprintf(path, sizeof(path), "%s/ELG/%05u", argv[2], p);
        write_file(path, &rank_files[p], true);
    }
    return 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
