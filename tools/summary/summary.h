/* SPDX-License-Identifier: BSD-3-Clause */
/* The profile `weft summary` computes, and the steps that make it: a
 * streaming builder that turns one location's enter/leave events into
 * per-region sums and OpenMP waiting times, counter tables for MPI messages
 * and collectives, an OTF2 reader that feeds both, and formatters (text,
 * CSV, JSON) that print the finished weft_summary. Memory depends on the
 * number of definitions, rank pairs and communicators and on the nesting
 * depth, never on the number of events. Private to summary/. */
#ifndef WEFT_TOOLS_SUMMARY_H
#define WEFT_TOOLS_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "progress.h"
#include "trace_reader.h"
#include "weft/status.h"

/* --- Classifying regions ---------------------------------------------------- */

/* The paradigm a region's time and visits count towards. */
typedef enum weft_summary_class {
    WEFT_SUMMARY_CLASS_USER,        /* user code: OTF2 USER, COMPILER, UNKNOWN paradigms */
    WEFT_SUMMARY_CLASS_OPENMP,      /* OpenMP constructs and runtime calls */
    WEFT_SUMMARY_CLASS_MPI,         /* MPI calls */
    WEFT_SUMMARY_CLASS_MEASUREMENT, /* the measurement system itself, artificial regions */
    WEFT_SUMMARY_CLASS_OTHER,       /* any other paradigm: pthreads, CUDA, I/O, ... */
    WEFT_SUMMARY_CLASS_COUNT
} weft_summary_class;

/* What the OpenMP waiting accounts make of a region. */
typedef enum weft_summary_wait {
    WEFT_SUMMARY_WAIT_NONE,
    WEFT_SUMMARY_WAIT_EXPLICIT_BARRIER, /* `!$omp barrier` (role BARRIER) */
    WEFT_SUMMARY_WAIT_IMPLICIT_BARRIER, /* `!$omp implicit barrier` (role IMPLICIT_BARRIER) */
    WEFT_SUMMARY_WAIT_LOCK,             /* critical construct, omp_set_lock, omp_set_nest_lock */
} weft_summary_wait;

typedef struct weft_summary_kind {
    weft_summary_class paradigm;
    weft_summary_wait wait;
} weft_summary_kind;

/* Classifies a region from its definition: PARADIGM and ROLE are OTF2's
 * values (OTF2_Paradigm, OTF2_RegionRole), NAME and FILE its name and source
 * file (either may be NULL). Follows docs/dev/OTF2-CONVENTIONS.md: the paradigm
 * decides, and for traces that leave it UNKNOWN, the source file "MPI" or
 * "OMP" and a name starting "!$omp" do, as in Scalasca. Pure function. */
weft_summary_kind weft__summary_classify(uint8_t paradigm, uint8_t role, const char *name,
                                         const char *file);

/* "user", "openmp", "mpi", "measurement", "other": the names in every format. */
const char *weft__summary_class_name(weft_summary_class paradigm);

/* The lower-case name of an OTF2_CollectiveOp ("allreduce"); NULL when unknown. */
const char *weft__summary_collective_name(uint8_t op);

/* --- The result --------------------------------------------------------------- */

/* Per-region results. Times are in timer ticks; divide by
 * weft_summary.timer_resolution for seconds. */
typedef struct weft_summary_region {
    char *name;              /* owned by the region; never NULL in a finished summary */
    uint64_t visits;         /* enters, summed over locations, recursive ones included */
    uint64_t incl_ticks;     /* outermost instances only: recursion is not counted twice */
    uint64_t excl_ticks;     /* time with no other region entered inside */
    uint64_t min_incl_ticks; /* over the locations that visited the region */
    uint64_t max_incl_ticks;
    uint64_t location_count;     /* locations that visited the region; mean = incl / this */
    uint64_t events;             /* events recorded while it was the innermost open region on its
                                    location, its own enters and leaves included: what it added */
    weft_summary_class paradigm; /* set by the reader */
} weft_summary_region;

/* Per-paradigm totals: the sums of the regions of one class. */
typedef struct weft_summary_paradigm {
    uint64_t visits;
    uint64_t excl_ticks;
} weft_summary_paradigm;

/* OpenMP waiting on one location (or summed). Barrier time is the inclusive
 * time of barrier region instances. Lock wait is, for each OpenMP
 * ThreadAcquireLock recorded directly inside a critical construct or an
 * omp_set_lock / omp_set_nest_lock region, the time from entering that
 * region to the acquisition. */
typedef struct weft_summary_omp {
    uint64_t explicit_barrier_ticks;
    uint64_t explicit_barrier_visits;
    uint64_t implicit_barrier_ticks;
    uint64_t implicit_barrier_visits;
    uint64_t lock_wait_ticks;
    uint64_t lock_acquisitions; /* every OpenMP ThreadAcquireLock, waited for or not */
} weft_summary_omp;

/* A location with OpenMP barrier visits or lock acquisitions. */
typedef struct weft_summary_location {
    uint64_t ref;
    char *name;    /* owned */
    uint32_t rank; /* WEFT_TRACE_NO_RANK when unknown */
    weft_summary_omp omp;
} weft_summary_location;

/* Point-to-point traffic: sends are counted where they were sent (MpiSend,
 * MpiIsend), receives where they were received (MpiRecv, MpiIrecv). */
typedef struct weft_summary_p2p {
    uint64_t sent_messages;
    uint64_t sent_bytes;
    uint64_t received_messages;
    uint64_t received_bytes;
} weft_summary_p2p;

/* Traffic from world rank SENDER to world rank RECEIVER. */
typedef struct weft_summary_pair {
    uint32_t sender;
    uint32_t receiver;
    weft_summary_p2p p2p;
} weft_summary_pair;

/* An MPI communicator that carried point-to-point or collective traffic. */
typedef struct weft_summary_comm {
    uint32_t ref;
    char *name;    /* owned; as defined in the trace */
    uint64_t size; /* members; 1 for a COMM_SELF, 0 when unknown */
    weft_summary_p2p p2p;
} weft_summary_comm;

/* Collective calls of one operation on one communicator, summed over ranks. */
typedef struct weft_summary_collective {
    uint8_t op;  /* OTF2_CollectiveOp */
    size_t comm; /* index into weft_summary.comms */
    uint64_t calls;
    uint64_t sent_bytes;
    uint64_t received_bytes;
} weft_summary_collective;

/* I/O of one rank on one file (OTF2 I/O records: MPI-IO), summed over its
 * handles on that file. An operation counts when its IoOperationComplete is
 * read; its time runs from its IoOperationBegin to that completion (a
 * non-blocking one's thus includes the time until its Wait). */
typedef struct weft_summary_io {
    uint32_t rank; /* WEFT_TRACE_NO_RANK when unknown */
    char *file;    /* owned */
    uint64_t reads, read_bytes;
    uint64_t writes, written_bytes;
    uint64_t flushes;
    uint64_t ticks;
} weft_summary_io;

/* A whole-trace profile. Regions that were never entered are left out. */
typedef struct weft_summary {
    char *trace_path;          /* owned copy of the anchor file path */
    uint64_t timer_resolution; /* ticks per second, from ClockProperties */
    uint64_t duration_ticks;   /* ClockProperties trace length, or last - first event */
    uint64_t location_group_count;
    uint64_t rank_count; /* location groups of type PROCESS */
    uint64_t location_count;
    uint64_t thread_count;           /* locations of type CPU_THREAD */
    uint64_t event_count;            /* every event record, whatever its type */
    uint64_t root_incl_ticks;        /* root-level instances, summed over all locations */
    uint64_t unbalanced_count;       /* stray leaves plus regions closed by the summary */
    uint64_t undefined_region_count; /* enter/leave events naming no defined region */
    uint64_t undefined_comm_count;   /* MPI events naming no defined communicator */
    uint64_t events_lost;            /* recorded, not written (weft::events_lost), summed */
    uint64_t events_lost_locations;  /* locations that lost any */
    uint64_t recovered_locations;    /* weft recover: their last events lost (weft::recovered) */
    uint64_t events_left_out;        /* weft recover: left out (weft::events_left_out), summed */
    uint64_t unattributed_events;    /* events recorded with no region open */
    size_t region_count;
    weft_summary_region *regions; /* heaviest inclusive time first, then by name */
    weft_summary_paradigm paradigms[WEFT_SUMMARY_CLASS_COUNT];

    weft_summary_p2p p2p_total;
    size_t pair_count;
    weft_summary_pair *pairs; /* by sender, then receiver */
    size_t comm_count;
    weft_summary_comm *comms; /* by ref */
    size_t collective_count;
    weft_summary_collective *collectives; /* by communicator ref, then operation */

    weft_summary_omp omp_total;
    size_t omp_location_count;
    weft_summary_location *omp_locations; /* by ref */
    size_t io_count;
    weft_summary_io *io; /* by rank, then file */
} weft_summary;

/* Frees everything SUMMARY owns and zeroes it; NULL is a no-op. */
void weft__summary_clear(weft_summary *summary);

/* Sorts summary->regions: inclusive time descending, then name, then visits. */
void weft__summary_sort(weft_summary *summary);

/* --- Builder: streaming accumulation, one location at a time ------------- */

/* Accumulates enter/leave events into per-region sums, and OpenMP waiting
 * into per-location sums. Regions are dense indices 0..region_count-1 chosen
 * by the caller. Feed one location at a time: location_begin, its events in
 * order, location_end. Not thread-safe. */
typedef struct weft_summary_builder weft_summary_builder;

/* Returns a builder for REGION_COUNT regions, or NULL when out of memory.
 * Every region starts as WEFT_SUMMARY_WAIT_NONE. */
weft_summary_builder *weft__summary_builder_create(size_t region_count);

/* Frees the builder; NULL is a no-op. */
void weft__summary_builder_destroy(weft_summary_builder *builder);

/* Marks REGION (< region_count) as a barrier or lock-waiting region. */
void weft__summary_builder_set_wait(weft_summary_builder *builder, size_t region,
                                    weft_summary_wait wait);

/* Starts a location: an empty stack, no timestamp seen yet, no waiting. */
void weft__summary_location_begin(weft_summary_builder *builder);

/* REGION is entered at TIME_TICKS. Returns WEFT_ERR_NO_MEMORY when the stack
 * of open regions cannot grow, WEFT_ERR_RANGE for a region index out of range. */
weft_status weft__summary_enter(weft_summary_builder *builder, size_t region, uint64_t time_ticks);

/* REGION is left at TIME_TICKS. A leave of a region that is not open is
 * counted as unbalanced and ignored; regions opened after REGION and still
 * open are closed at TIME_TICKS first, each counted as unbalanced. */
void weft__summary_leave(weft_summary_builder *builder, size_t region, uint64_t time_ticks);

/* Counts one event of the current location to its innermost open region
 * (the region just entered for an enter; call it before the leave for a
 * leave), or to the events outside any region. */
void weft__summary_count_event(weft_summary_builder *builder);

/* An OpenMP lock was acquired at TIME_TICKS on the current location. When the
 * innermost open region is a WEFT_SUMMARY_WAIT_LOCK region, the time since
 * its enter is lock waiting. */
void weft__summary_lock_acquired(weft_summary_builder *builder, uint64_t time_ticks);

/* Ends the current location: regions still open are closed at the location's
 * last enter/leave timestamp (each counted as unbalanced), and the location's
 * per-region inclusive times join the min/max/mean across locations. */
void weft__summary_location_end(weft_summary_builder *builder);

/* The OpenMP waiting of the location last ended (valid until the next
 * location_begin). */
weft_summary_omp weft__summary_builder_location_omp(const weft_summary_builder *builder);

/* Per-region accumulators, indexed like the builder's regions (names NULL). */
const weft_summary_region *weft__summary_builder_regions(const weft_summary_builder *builder);

/* Totals kept by the builder, for weft_summary's fields of the same name. */
typedef struct weft_summary_totals {
    uint64_t root_incl_ticks;
    uint64_t unbalanced_count;
    uint64_t first_ticks;         /* earliest enter/leave seen; UINT64_MAX when none */
    uint64_t last_ticks;          /* latest enter/leave seen; 0 when none */
    uint64_t unattributed_events; /* counted with no region open */
} weft_summary_totals;

weft_summary_totals weft__summary_builder_totals(const weft_summary_builder *builder);

/* --- Counter tables: MPI traffic keyed by rank pair, communicator, ... ------- */

/* A hash table from a 64-bit key to four counters, in memory proportional to
 * the number of keys. Not thread-safe. */
typedef struct weft_summary_table weft_summary_table;

#define WEFT_SUMMARY_COUNTERS 4

/* Returns an empty table, or NULL when out of memory. */
weft_summary_table *weft__summary_table_create(void);

/* Frees the table; NULL is a no-op. */
void weft__summary_table_destroy(weft_summary_table *table);

/* Returns the WEFT_SUMMARY_COUNTERS counters of KEY, zeroed when KEY is new,
 * valid until the next call; NULL when out of memory. */
uint64_t *weft__summary_table_counters(weft_summary_table *table, uint64_t key);

/* Number of keys, and the I-th key and its counters in order of first use. */
size_t weft__summary_table_size(const weft_summary_table *table);
uint64_t weft__summary_table_key(const weft_summary_table *table, size_t i,
                                 const uint64_t **counters);

/* --- Reading a trace ------------------------------------------------------ */

/* Reads the OTF2 archive whose anchor file is ANCHOR_PATH into *OUT (zeroed
 * first; cleared again on failure), streaming each location's events once.
 * On failure prints one line "weft summary: ..." on stderr, saying what went
 * wrong and with which file, and returns WEFT_ERR_IO (cannot open or read),
 * WEFT_ERR_OTF2 (not an OTF2 archive, or a damaged one) or WEFT_ERR_NO_MEMORY.
 * The OTF2 library's own error messages are captured, not printed. */
weft_status weft__summary_read(const char *anchor_path, weft_progress_mode progress,
                               weft_summary *out);

/* --- Output formats --------------------------------------------------------- */

/* Prints SUMMARY as text: a header, a table of at most TOP regions (0 =
 * all), heaviest first, the paradigm totals, and the MPI and OpenMP
 * sections when the trace has such events; the rank-pair and OpenMP location
 * tables also show at most TOP rows, heaviest first. */
void weft__summary_print_text(FILE *out, const weft_summary *summary, size_t top);

/* Prints SUMMARY as one JSON object (schema in docs/COMMANDS.md), with at
 * most TOP regions (0 = all). VERSION is weft's version. */
void weft__summary_print_json(FILE *out, const weft_summary *summary, size_t top,
                              const char *version);

/* The CSV tables, one per section. */
typedef enum weft_summary_table_id {
    WEFT_SUMMARY_TABLE_OVERVIEW,
    WEFT_SUMMARY_TABLE_REGIONS,
    WEFT_SUMMARY_TABLE_PARADIGMS,
    WEFT_SUMMARY_TABLE_P2P_PAIRS,
    WEFT_SUMMARY_TABLE_P2P_COMMUNICATORS,
    WEFT_SUMMARY_TABLE_COLLECTIVES,
    WEFT_SUMMARY_TABLE_OPENMP_LOCATIONS,
    WEFT_SUMMARY_TABLE_IO,
    WEFT_SUMMARY_TABLE_COUNT
} weft_summary_table_id;

/* The table's name on the command line ("p2p_pairs"). */
const char *weft__summary_table_name(weft_summary_table_id table);

/* Prints one table as CSV (RFC 4180, a header row first); the regions table
 * has at most TOP rows (0 = all). */
void weft__summary_print_csv(FILE *out, const weft_summary *summary, weft_summary_table_id table,
                             size_t top);

#endif /* WEFT_TOOLS_SUMMARY_H */
