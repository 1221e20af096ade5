/* SPDX-License-Identifier: BSD-3-Clause */
/* Run-time configuration from WEFT_* environment variables.
 *
 * Every variable is listed once in WEFT_CONFIG_LIST; the same list drives the
 * parser, the defaults and `weft info`, so documentation cannot drift from
 * the code. Values are read once, when recording starts. A bad value is
 * reported in one line on stderr and the default is used instead. */
#ifndef WEFT_RECORDER_CONFIG_H
#define WEFT_RECORDER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/compiler.h"
#include "weft/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which clock timestamps events. AUTO picks the TSC when the CPU has an
 * invariant one, CLOCK_MONOTONIC otherwise. */
typedef enum weft_timer_kind {
    WEFT_TIMER_AUTO,
    WEFT_TIMER_TSC,
    WEFT_TIMER_MONOTONIC,
} weft_timer_kind;

typedef enum weft_config_type {
    WEFT_CONFIG_BOOL,
    WEFT_CONFIG_SIZE,
    WEFT_CONFIG_PATH,
    WEFT_CONFIG_TIMER,
    WEFT_CONFIG_DURATION,
    WEFT_CONFIG_NAMES,
    WEFT_CONFIG_LIMIT,
    WEFT_CONFIG_COUNT,
} weft_config_type;

/* clang-format off */
/* X(NAME without WEFT_, field, type, default text, one-line meaning) */
#define WEFT_CONFIG_LIST(X)                                                                 \
    X(ENABLE_TRACING, enable_tracing, WEFT_CONFIG_BOOL, "true",                           \
      "Record events. false: the program runs as if untraced and no trace is written.")   \
    X(EXPERIMENT_DIRECTORY, experiment_directory, WEFT_CONFIG_PATH, "",                  \
      "Directory for the trace (traces.otf2, traces.def, traces/). Default: a new "        \
      "weft-YYYYMMDD_HHMMSS_<pid> in the working directory. An existing directory is "     \
      "never written into: weft picks a new name (NAME.1, NAME.2, ...) and says so.")      \
    X(BUFFER_SIZE, buffer_size, WEFT_CONFIG_SIZE, "16M",                                 \
      "Event-buffer memory per thread, with unit K, M or G (powers of 1024), at least "    \
      "64K. Full parts go to a background writer; a thread waits only when all of its "    \
      "memory is waiting to be written, and that wait appears in the trace as a buffer "   \
      "flush. When a thread ends its memory is written and given back, and its location " \
      "is reused by the next new thread.")                                                \
    X(TOTAL_MEMORY, total_memory, WEFT_CONFIG_LIMIT, "0",                                 \
      "Event-buffer memory of the whole process, with unit K, M or G; 0: no bound but "    \
      "WEFT_BUFFER_SIZE per thread. Within the bound threads share the memory; a thread "  \
      "that would exceed it waits for its buffers to be written instead (each thread "     \
      "always gets one part of WEFT_BUFFER_SIZE / 8). OTF2 adds up to 4.5M per thread "    \
      "while writing.")                                                                   \
    X(TIMER, timer, WEFT_CONFIG_TIMER, "auto",                                            \
      "Event clock: tsc (invariant time-stamp counter, calibrated against "                \
      "CLOCK_MONOTONIC), monotonic (clock_gettime) or auto (tsc when the CPU has an "      \
      "invariant one).")                                                                  \
    X(CLOCK_SYNC_INTERVAL, clock_sync_interval_ns, WEFT_CONFIG_DURATION, "10s",           \
      "How often, at most, MPI ranks measure their clock offsets against rank 0 "         \
      "between MPI_Init and MPI_Finalize (which always measure), at a collective on "     \
      "MPI_COMM_WORLD: e.g. 10s, 500ms, 2m, 1.5s; a plain number is seconds. 0: only "    \
      "at MPI_Init and MPI_Finalize.")                                                    \
    X(CLOCK_SYNC_SAME_MACHINE, clock_same_machine, WEFT_CONFIG_BOOL, "true",            \
      "MPI ranks on one machine (same Linux boot) read one clock: their offsets are "      \
      "taken as exact instead of measured. false: measure them like those of other "       \
      "machines (for machines whose sockets' TSCs are not synchronised).")                 \
    X(FILTERING_FILE, filtering_file, WEFT_CONFIG_PATH, "",                              \
      "A filter file in Score-P's syntax (SCOREP_REGION_NAMES_BEGIN / "                   \
      "SCOREP_FILE_NAMES_BEGIN blocks of INCLUDE and EXCLUDE rules with * and ? globs, "   \
      "or the same with WEFT_): user regions it excludes are not recorded; OpenMP "        \
      "regions only by name rules whose pattern starts with !$omp (not parallel regions "  \
      "or tasks). MPI regions are always recorded. A file that does not parse: one line, " \
      "no filter.")                                                                        \
    X(OPENMP_EVENTS, openmp_events, WEFT_CONFIG_NAMES, "all",                             \
      "The OpenMP events recorded (POMP2 and OMPT alike), comma-separated, in order: "     \
      "all, none, a kind, or -kind to leave it out (a list starting with -kind starts "    \
      "from all): loops, sections, single, workshare, master, critical, ordered, "         \
      "atomic, flush, barrier, taskwait, tasks, locks, sync (atomic, critical, master, "   \
      "flush, single, ordered, locks). Parallel regions are always recorded. Example: "    \
      "-flush,-atomic.")                                                                   \
    X(THROTTLE, throttle, WEFT_CONFIG_BOOL, "true",                                       \
      "Stop recording an OpenMP region on a thread once it was entered more than "        \
      "WEFT_THROTTLE_NUMCALLS times for less than WEFT_THROTTLE_PERCALL each on average "  \
      "(not parallel regions, tasks, barriers, critical sections or lock routines); the " \
      "trace stays balanced and the end of the run names the regions throttled. false: "  \
      "record every visit.")                                                              \
    X(THROTTLE_NUMCALLS, throttle_numcalls, WEFT_CONFIG_COUNT, "10000",                   \
      "Visits of an OpenMP region on one thread recorded before throttling may stop it.") \
    X(THROTTLE_PERCALL, throttle_percall_ns, WEFT_CONFIG_DURATION, "10us",                \
      "Throttling stops a region whose visits took less than this on average.")          \
    X(METRIC_RUSAGE, metric_rusage, WEFT_CONFIG_NAMES, "",                               \
      "Fields of getrusage recorded at every region enter and leave, comma-separated "     \
      "(ru_utime, ru_stime, ru_maxrss, ru_minflt, ru_majflt, ru_inblock, ru_oublock, "     \
      "ru_nvcsw, ru_nivcsw) or all. Per thread (RUSAGE_THREAD); ru_maxrss is the "          \
      "process's. Unknown names: one line each, the others are recorded.")                 \
    X(METRIC_PAPI, metric_papi, WEFT_CONFIG_NAMES, "",                                   \
      "PAPI events (presets such as PAPI_TOT_CYC, or native names) recorded at every "     \
      "region enter and leave, comma-separated, counted per thread. Events the machine "   \
      "lacks or cannot count together: one line saying which and why; the run goes on "    \
      "without them.")                                                                    \
    X(SIGNALS, signals, WEFT_CONFIG_NAMES, "default",                                      \
      "Terminating signals after which the trace is written (then the signal takes its "   \
      "usual effect): default (HUP, INT, QUIT, ILL, TRAP, ABRT, BUS, FPE, USR1, SEGV, "     \
      "USR2, PIPE, ALRM, TERM, XCPU, XFSZ, SYS), none, or a list such as TERM,INT. "        \
      "Signals the program handles or ignores when recording starts stay its own.")        \
    X(VERBOSE, verbose, WEFT_CONFIG_BOOL, "false",                                        \
      "Progress and diagnostics on stderr: configuration, where the trace went, "          \
      "buffer statistics.")                                                                \
    X(WRITE_EMPTY_TRACE, write_empty_trace, WEFT_CONFIG_BOOL, "false",                    \
      "Write a trace even when the program recorded no event. By default such a run "      \
      "leaves no experiment directory behind.")
/* clang-format on */

typedef struct weft_config {
    bool enable_tracing;
    const char *experiment_directory; /* NULL: generate a name */
    uint64_t buffer_size;
    uint64_t total_memory; /* 0: no bound */
    weft_timer_kind timer;
    uint64_t clock_sync_interval_ns; /* 0: no syncs between MPI_Init and MPI_Finalize */
    bool clock_same_machine;         /* ranks on one machine share its clock */
    const char *filtering_file;      /* NULL: no filter */
    const char *openmp_events;       /* NULL: all; the text as given */
    bool throttle;                   /* stop recording short, frequent OpenMP regions */
    uint64_t throttle_numcalls;      /* visits per thread before that may happen */
    uint64_t throttle_percall_ns;    /* the average visit below which it happens */
    const char *metric_rusage;       /* NULL: none; the text as given */
    const char *metric_papi;         /* NULL: none; the text as given */
    const char *signals;             /* NULL: the default list; the text as given */
    bool verbose;
    bool write_empty_trace;
} weft_config;

/* Description of one variable, for `weft info`. Strings are static. */
typedef struct weft_config_var {
    const char *name; /* "WEFT_BUFFER_SIZE" */
    const char *default_text;
    const char *meaning;
} weft_config_var;

/* The table of every WEFT_* variable, in documentation order. */
WEFT_EXPORT const weft_config_var *weft_config_vars(size_t *count);

/* Smallest accepted WEFT_BUFFER_SIZE. */
#define WEFT_CONFIG_MIN_BUFFER_SIZE ((uint64_t)64 * 1024)

/* Fills *cfg from the environment. Bad values are reported in one stderr line
 * each ("weft: WEFT_BUFFER_SIZE='abc' is not a size ...; using 16M") and
 * replaced by the default. Never fails. The strings point into the
 * environment or static storage. */
void weft_config_load(weft_config *cfg);

/* The configuration recording started with (defaults before weft_init;
 * never NULL). Adapters read their settings here. */
WEFT_EXPORT const weft_config *weft_config_current(void);

/* Parses a size with an optional unit: "4096", "64K", "16M", "1G" (powers of
 * 1024; lower-case and a trailing "B"/"iB" accepted). Returns WEFT_ERR_INVALID
 * for text that is not a size and WEFT_ERR_RANGE when it overflows 64 bits. */
weft_status weft_config_parse_size(const char *text, uint64_t *out);

/* Parses true/false, yes/no, on/off, 1/0 (any case). */
weft_status weft_config_parse_bool(const char *text, bool *out);

/* Parses auto, tsc, monotonic (any case). */
weft_status weft_config_parse_timer(const char *text, weft_timer_kind *out);

/* Parses a duration into nanoseconds: a number with an optional fraction and
 * an optional unit ns, us, ms, s, m (or min), h (any case); no unit means
 * seconds ("10s", "500ms", "2m", "1.5s", "0", "30"). Digits of the fraction
 * beyond a nanosecond are dropped. Returns WEFT_ERR_INVALID for text that is
 * not a duration (*ns_out is then 0) and WEFT_ERR_RANGE when it overflows 64
 * bits of nanoseconds. */
weft_status weft_config_parse_duration(const char *text, uint64_t *ns_out);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECORDER_CONFIG_H */
