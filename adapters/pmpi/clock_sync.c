/* SPDX-License-Identifier: BSD-3-Clause */
/* Clock offsets of every rank against rank 0 (see pmpi_internal.h): how they
 * are measured (weft__pmpi_clock_sync) and when, between MPI_Init and
 * MPI_Finalize (weft__pmpi_clock_checkpoint). Each rank hands its offsets to
 * the recorder (weft_clock_offset_add), which writes them as OTF2 ClockOffset
 * records; readers interpolate linearly between them. Only PMPI_* calls on
 * weft's private communicator, never on a user communicator.
 *
 * Measurement: a binomial tree, top-down, in ceil(log2 P) rounds. In the
 * round of stride s (1, 2, 4, ...), every rank r < s already knows its offset
 * to rank 0 and measures rank r + s (if it exists) by ping-pong:
 *
 *   stride 1:  0 -> 1
 *   stride 2:  0 -> 2    1 -> 3
 *   stride 4:  0 -> 4    1 -> 5    2 -> 6    3 -> 7
 *
 *   child                                parent
 *   t_send = now  --------- ping ------->
 *                 <------ reply --------  its time on rank 0's clock
 *   t_recv = now                          (local time + own offset), and its
 *                                         own error bound
 *
 * Repeated PING_PONGS times. The parent read its clock after the child's
 * send and before its receive, so each exchange bounds the offset:
 * reply - t_recv <= offset <= reply - t_send. The estimate is the middle of
 * the intersection of these intervals (ask_parent), taken at the middle of
 * the exchanges, and its error is at most half the intersection's width,
 * which is at most half the shortest round trip (the classic minimum round
 * trip estimate would err by up to that much). Because the parent answers
 * on rank 0's clock, its own error is inherited: rank r is popcount(r) hops
 * from rank 0 (at most ceil(log2 P)), and the bound handed to the recorder
 * as "stddev" is the sum of the half-widths along that path (a bound, so it
 * overstates the standard deviation). On one idle node (shared memory,
 * ~0.2-0.5 us round trips) that is ~0.1-0.2 us per hop; across nodes about a
 * microsecond per hop, e.g. ~10 hops for 1024 ranks.
 *
 * One machine: ranks that run under the same Linux boot (the same
 * /proc/sys/kernel/random/boot_id) and the same clock kind read the same
 * counter, so a child whose parent shares its machine takes the parent's
 * offset as exact (with the parent's error bound) instead of the measured
 * interval, which on an overloaded machine can be tens of microseconds wide
 * (WEFT_CLOCK_SYNC_SAME_MACHINE=false measures anyway). The ping-pongs still
 * run, so parent and child need not agree on this beforehand.
 *
 * Imprecise estimates: now and then one direction is slow in every exchange
 * of a sync (seen at MPI_Init, ~10 us one way, and on overloaded nodes, up to a
 * scheduler time slice), and the middle of the interval is that much off
 * although the interval is right. So each rank keeps its estimates and hands
 * them to the recorder at the last sync (the recorder writes them only at
 * the end anyway); one whose interval is much wider than is usual for this
 * rank gets the value interpolated from the precise ones around it, clamped
 * into its own interval (hand_over).
 *
 * Failure: if a PMPI call fails, this rank says so once and measures no more.
 * (On weft's communicator MPI's default handler aborts the job first, since
 * it is duplicated from MPI_COMM_WORLD at MPI_Init, before the program could
 * change that communicator's handler.) */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "weft/compiler.h"
#include "pmpi_internal.h"
#include "weft/config.h"
#include "weft/job.h"
#include "weft/log.h"
#include "weft/recorder.h"

/* The tag of clock messages on weft's private communicator (pmpi_job.c's
 * JOB_TAG is 0x5746). */
enum { CLOCK_TAG = 0x5743 };

/* Ping-pongs per parent and child in one sync. Ten give the estimate many
 * chances to see a fast way there and a fast way back despite preemptions
 * and interrupts, and cost ~10 us per tree level on one idle node. */
enum { PING_PONGS = 10 };

/* An estimate is imprecise when its error bound exceeds this many times the
 * median bound of the rank's estimates. Four: on an idle node the bounds of
 * one rank vary by less than a factor of two; the imprecise ones seen under
 * load or at MPI_Init were 10 to 10000 times the median. */
enum { IMPRECISE_FACTOR = 4 };

/* This rank's view of rank 0's clock, from one sync. */
typedef struct clock_estimate {
    uint64_t local_time; /* ticks: when it was measured (the midpoint) */
    int64_t offset;      /* ticks: rank 0's clock minus ours */
    uint64_t error;      /* ticks: bound on |error| of offset */
} clock_estimate;

/* Shared state. Written only inside a sync or a check, which never run
 * concurrently: the first sync runs inside MPI_Init, the last inside
 * MPI_Finalize, and checks follow world collectives, which a correct program
 * issues one after the other (MPI-3.1 12.4.2: threads calling collectives on
 * one communicator must order them themselves); so plain statics suffice. */
static bool started;                                /* the first sync is done */
static bool failed;                                 /* a PMPI call failed: no more syncs */
static unsigned sync_count;                         /* for the verbose lines */
static weft_region sync_region = {WEFT_INVALID_ID}; /* "weft clock synchronisation" */
static clock_estimate *kept;                        /* estimates not handed over yet */
static size_t kept_count, kept_capacity;
static bool keep_failed; /* out of memory: hand estimates over at once */

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void fail(const char *what)
{
    if (!failed)
        weft_log_error("clock synchronisation: %s failed; this rank measures no more clock "
                       "offsets, its events may be misaligned with other ranks",
                       what);
    failed = true;
}

/* ---- measurement ------------------------------------------------------------ */

/* Identifies the clock this rank reads: a hash of the Linux boot id and the
 * clock kind; 0 (never equal) when unknown or when the shortcut is off. */
static uint64_t clock_identity(void)
{
    static uint64_t identity;
    static bool known;
    if (known)
        return identity;
    known = true;
    if (!weft_config_current()->clock_same_machine)
        return identity = 0;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    char boot_id[64] = "";
    if (!f || !fgets(boot_id, sizeof(boot_id), f) || boot_id[0] == '\0') {
        if (f)
            fclose(f);
        return identity = 0;
    }
    fclose(f);
    uint64_t h = UINT64_C(14695981039346656037); /* FNV-1a */
    for (const char *p = boot_id; *p && *p != '\n'; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
    /* The tick rate tells a TSC from CLOCK_MONOTONIC's nanoseconds. */
    h ^= weft_clock_ticks_are_ns() ? 1 : 2;
    return identity = h ? h : 1;
}

/* Parent side: answers `child`'s pings with its time on rank 0's clock. */
static bool answer_child(MPI_Comm comm, int child, const clock_estimate *mine)
{
    for (int i = 0; i < PING_PONGS; i++) {
        if (PMPI_Recv(NULL, 0, MPI_BYTE, child, CLOCK_TAG, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return false;
        uint64_t reply[4] = {weft_clock_ticks() + (uint64_t)mine->offset, mine->error,
                             (uint64_t)mine->offset, clock_identity()};
        if (PMPI_Send(reply, 4, MPI_UINT64_T, child, CLOCK_TAG, comm) != MPI_SUCCESS)
            return false;
    }
    return true;
}

/* Child side: pings `parent` PING_PONGS times. Each exchange bounds the
 * offset: the parent read its clock after our send and before our receive,
 * so reply - t_recv <= offset <= reply - t_send. The estimate is the middle
 * of the intersection of all these intervals, whose width is at most the
 * shortest round trip but is often smaller: the fastest way there and the
 * fastest way back may come from different exchanges (under load, one
 * direction is often delayed by a descheduled process). */
static bool ask_parent(MPI_Comm comm, int parent, clock_estimate *out)
{
    int64_t lower = INT64_MIN, upper = INT64_MAX;
    uint64_t first_sent = 0, last_received = 0, parent_error = 0;
    uint64_t reply[4];
    for (int i = 0; i < PING_PONGS; i++) {
        uint64_t sent = weft_clock_ticks();
        if (PMPI_Send(NULL, 0, MPI_BYTE, parent, CLOCK_TAG, comm) != MPI_SUCCESS ||
            PMPI_Recv(reply, 4, MPI_UINT64_T, parent, CLOCK_TAG, comm, MPI_STATUS_IGNORE) !=
                MPI_SUCCESS)
            return false;
        uint64_t received = weft_clock_ticks();
        /* Unsigned differences, then signed: exact while |offset| < 2^63. */
        int64_t at_most = (int64_t)(reply[0] - sent);
        int64_t at_least = (int64_t)(reply[0] - received);
        upper = at_most < upper ? at_most : upper;
        lower = at_least > lower ? at_least : lower;
        first_sent = i == 0 ? sent : first_sent;
        last_received = received;
        parent_error = reply[1];
    }
    /* upper < lower only when the parent's own estimate is off (by at most
     * its error bound): the middle and half the gap are still right. */
    uint64_t width =
        upper >= lower ? (uint64_t)upper - (uint64_t)lower : (uint64_t)lower - (uint64_t)upper;
    out->local_time = first_sent + (last_received - first_sent) / 2;
    uint64_t identity = clock_identity();
    if (identity != 0 && identity == reply[3]) { /* one machine, one clock */
        out->offset = (int64_t)reply[2];
        out->error = parent_error;
        return true;
    }
    int64_t low_end = upper >= lower ? lower : upper;
    out->offset = (int64_t)((uint64_t)low_end + width / 2);
    out->error = parent_error + (width + 1) / 2;
    return true;
}

/* One pass down the tree (see the top of the file). Rank 0's estimate is
 * exact: offset 0 now. */
static bool measure(MPI_Comm comm, int rank, int size, clock_estimate *mine)
{
    *mine = (clock_estimate){weft_clock_ticks(), 0, 0};
    for (int stride = 1; stride < size; stride *= 2) {
        if (rank < stride && rank + stride < size) {
            if (!answer_child(comm, rank + stride, mine))
                return false;
        } else if (rank >= stride && rank < 2 * stride) {
            if (!ask_parent(comm, rank - stride, mine))
                return false;
        }
        if (stride > size / 2)
            break; /* the next doubling would overflow for sizes near INT_MAX */
    }
    return true;
}

static void register_region(void)
{
    weft_region_desc desc = {.name = "weft clock synchronisation",
                             .role = WEFT_REGION_ROLE_ARTIFICIAL,
                             .paradigm = WEFT_PARADIGM_MEASUREMENT_SYSTEM};
    weft_registry *reg = weft_defs_global();
    if (!reg || weft_registry_region(reg, &desc, &sync_region) != WEFT_OK)
        sync_region = (weft_region){WEFT_INVALID_ID}; /* syncs then go unrecorded */
}

/* ---- handing estimates to the recorder ------------------------------------ */

/* The offset at local time t on the line through a and b (t may lie outside
 * them), relative to a's offset. Offsets of one rank differ by far less than
 * 2^53 ticks, so doubles hold the differences exactly enough. */
static double line_at(const clock_estimate *a, const clock_estimate *b, uint64_t t)
{
    double rise = (double)(int64_t)((uint64_t)b->offset - (uint64_t)a->offset);
    double run = (double)(int64_t)(b->local_time - a->local_time);
    double along = (double)(int64_t)(t - a->local_time);
    return run != 0 ? rise * along / run : 0;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The indexes of the two precise estimates (error <= limit) nearest to k,
 * going in direction step (-1 or +1); SIZE_MAX where there is none. */
static void nearest_precise(const clock_estimate *e, size_t n, size_t k, int step, uint64_t limit,
                            size_t found[2])
{
    size_t count = 0;
    found[0] = found[1] = SIZE_MAX;
    for (size_t j = k; count < 2 && (step < 0 ? j > 0 : j + 1 < n);) {
        j = step < 0 ? j - 1 : j + 1;
        if (e[j].error <= limit)
            found[count++] = j;
    }
}

/* Gives each imprecise estimate (see the top of the file) the value of the
 * line through the nearest precise ones (both sides if there are, else the
 * two nearest on one side, else the one), clamped into its own interval.
 * The precise ones never change, so the order of the loop does not matter.
 * Returns how many changed. */
static size_t interpolate_imprecise(clock_estimate *e, size_t n)
{
    uint64_t *errors = n >= 2 ? malloc(n * sizeof(*errors)) : NULL;
    if (!errors)
        return 0;
    for (size_t k = 0; k < n; k++)
        errors[k] = e[k].error;
    qsort(errors, n, sizeof(*errors), compare_u64);
    uint64_t median = errors[(n - 1) / 2];
    free(errors);
    uint64_t limit =
        median <= UINT64_MAX / (2 * IMPRECISE_FACTOR) ? median * IMPRECISE_FACTOR + 1 : UINT64_MAX;
    size_t changed = 0;
    for (size_t k = 0; k < n; k++) {
        if (e[k].error <= limit)
            continue;
        size_t before[2], after[2];
        nearest_precise(e, n, k, -1, limit, before);
        nearest_precise(e, n, k, +1, limit, after);
        const clock_estimate *a = NULL, *b = NULL;
        if (before[0] != SIZE_MAX && after[0] != SIZE_MAX)
            a = &e[before[0]], b = &e[after[0]];
        else if (before[1] != SIZE_MAX)
            a = &e[before[1]], b = &e[before[0]];
        else if (after[1] != SIZE_MAX)
            a = &e[after[0]], b = &e[after[1]];
        else
            a = b = &e[before[0] != SIZE_MAX ? before[0] : after[0]];
        /* The line's value relative to e[k]'s own offset, clamped to its
         * error bound (so it still agrees with its own measurement). */
        double shift = (double)(int64_t)((uint64_t)a->offset - (uint64_t)e[k].offset) +
                       line_at(a, b, e[k].local_time);
        double bound = (double)e[k].error;
        shift = shift > bound ? bound : shift < -bound ? -bound : shift;
        e[k].offset = (int64_t)((uint64_t)e[k].offset + (uint64_t)(int64_t)shift);
        changed++;
    }
    return changed;
}

/* Hands the kept estimates to the recorder, in time order. */
static void hand_over(int rank)
{
    size_t changed = interpolate_imprecise(kept, kept_count);
    if (changed > 0)
        weft_log_verbose("rank %d: %zu of %zu clock offsets were imprecise; they take the values "
                         "interpolated from the precise ones",
                         rank, changed, kept_count);
    for (size_t k = 0; k < kept_count; k++)
        weft_clock_offset_add(kept[k].local_time, kept[k].offset, (double)kept[k].error);
    free(kept);
    kept = NULL;
    kept_count = kept_capacity = 0;
}

/* Keeps an estimate for hand_over; without memory, hands everything over
 * now and the rest as it comes. */
static void keep(const clock_estimate *est, int rank)
{
    if (!keep_failed && kept_count == kept_capacity) {
        size_t capacity = kept_capacity ? 2 * kept_capacity : 64;
        clock_estimate *grown = realloc(kept, capacity * sizeof(*grown));
        if (grown) {
            kept = grown;
            kept_capacity = capacity;
        } else {
            hand_over(rank);
            keep_failed = true;
        }
    }
    if (keep_failed)
        weft_clock_offset_add(est->local_time, est->offset, (double)est->error);
    else
        kept[kept_count++] = *est;
}

/* ---- schedule ---------------------------------------------------------------
 *
 * Intermediate syncs must happen on all ranks at the same point of the
 * program, decided without messages between those points. Every rank counts
 * the collectives on MPI_COMM_WORLD (checkpoints); the counts agree on all
 * ranks. At a few counts, "checks", every rank joins a PMPI_Bcast from rank 0
 * of {sync now?, count of the next check}. Rank 0 decides from its own
 * CLOCK_MONOTONIC: sync when WEFT_CLOCK_SYNC_INTERVAL has passed since the
 * last sync; place the next check where, at the rate of collectives seen
 * since the last sync, the next sync falls due (plus 1/16 of the interval,
 * so that the check mostly lands just after that point, not just before).
 * The step to the next check is at most twice the number of collectives the
 * rate was measured over: after MPI_Init, checks come at the world
 * collectives 1, 3, 9, 27, ... until the rate is known (so a 50 ms interval
 * gets its first intermediate sync after about 50 ms of collectives, however
 * short they are), and a rate seen in a short burst cannot push the next
 * check far away. In the steady state there is one check per sync. Between
 * checks a checkpoint costs one increment and one compare. The first check
 * is broadcast during the sync at MPI_Init; with an interval of 0 (or one
 * rank) there is none. Syncs therefore come at most once per interval, and
 * only while the program calls collectives on MPI_COMM_WORLD. */

/* "No check": counts start at 1. */
#define NO_CHECK UINT64_C(0)
/* Largest step between checks, so the arithmetic stays far from overflow. */
#define MAX_CHECK_STEP (UINT64_C(1) << 40)

/* Every rank: world collectives counted so far, and the count of the next
 * check. Relaxed atomics: checkpoints are ordered by the program (see the
 * shared state above), so these only keep a racy program from undefined
 * behaviour; a read-modify-write is not needed. */
static _Atomic uint64_t world_collectives;
static _Atomic uint64_t next_check = NO_CHECK;

/* Rank 0 only, in the same ordered sections as the shared state. */
static uint64_t interval_ns;     /* WEFT_CLOCK_SYNC_INTERVAL of rank 0 */
static uint64_t last_sync_ns;    /* CLOCK_MONOTONIC at the latest sync */
static uint64_t last_sync_count; /* world collectives counted then */

/* Rank 0, at a check: whether to sync now, and the count of the next check.
 * The rate of collectives is measured since the latest sync (the whole last
 * interval in the steady state, everything since MPI_Init at first), and the
 * step may be at most twice the collectives that rate was measured over. */
static bool decide(uint64_t count, uint64_t *next_check_count)
{
    uint64_t now_ns = monotonic_ns();
    uint64_t window_ns = now_ns - last_sync_ns;
    uint64_t window_count = count - last_sync_count;
    bool sync_now = window_ns >= interval_ns;
    uint64_t until_due_ns = sync_now ? interval_ns : interval_ns - window_ns;
    double per_ns = (double)window_count / (double)(window_ns ? window_ns : 1);
    double wanted = per_ns * ((double)until_due_ns + (double)(interval_ns / 16));
    uint64_t limit = window_count < MAX_CHECK_STEP / 2 ? 2 * window_count : MAX_CHECK_STEP;
    uint64_t step = wanted < 1.0 ? 1 : wanted >= (double)limit ? limit : (uint64_t)wanted;
    if (sync_now) {
        last_sync_ns = now_ns;
        last_sync_count = count;
    }
    *next_check_count = count + step;
    return sync_now;
}

/* At the sync inside MPI_Init: rank 0 tells everyone the first check. */
static bool start_schedule(MPI_Comm comm, int rank, int size)
{
    uint64_t first = NO_CHECK;
    if (rank == 0) {
        const weft_config *cfg = weft_config_current();
        interval_ns = cfg->enable_tracing ? cfg->clock_sync_interval_ns : 0;
        last_sync_ns = monotonic_ns();
        if (interval_ns > 0 && size > 1)
            first = 1;
    }
    if (size > 1 && PMPI_Bcast(&first, 1, MPI_UINT64_T, 0, comm) != MPI_SUCCESS)
        return false;
    atomic_store_explicit(&next_check, first, memory_order_relaxed);
    return true;
}

/* ---- entry points ----------------------------------------------------------- */

/* One sync: measures and keeps the estimate. False when a PMPI call failed. */
static bool sync_once(MPI_Comm comm, int rank, int size)
{
    uint64_t begin_ns = monotonic_ns();
    clock_estimate mine;
    if (!measure(comm, rank, size, &mine)) {
        fail("a clock ping-pong (PMPI_Send/PMPI_Recv)");
        return false;
    }
    keep(&mine, rank);
    sync_count++;
    weft_log_verbose("rank %d: clock offset to rank 0: %lld ticks (+- %llu), sync %u took %.1f us",
                     rank, (long long)mine.offset, (unsigned long long)mine.error, sync_count,
                     (double)(monotonic_ns() - begin_ns) / 1e3);
    return true;
}

/* The first call (inside MPI_Init) starts the schedule; the next one (inside
 * MPI_Finalize) is the last sync and hands all estimates to the recorder,
 * also when syncing failed in between. */
void weft__pmpi_clock_sync(MPI_Comm comm)
{
    int rank = 0, size = 1;
    if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS || PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
        fail("PMPI_Comm_rank/size");
    if (!started) {
        started = true;
        if (failed || !sync_once(comm, rank, size))
            return;
        register_region();
        if (!start_schedule(comm, rank, size))
            fail("PMPI_Bcast of the clock schedule");
        return;
    }
    atomic_store_explicit(&next_check, NO_CHECK, memory_order_relaxed);
    if (!failed)
        sync_once(comm, rank, size);
    hand_over(rank);
}

/* A check (see the schedule above): on every rank at the same count. Only a
 * sync is wrapped in the region, so that its visits count the intermediate
 * syncs; the broadcast before it (a few microseconds, about once per sync)
 * goes unrecorded, as the time between the collective's leave and the next
 * event. */
static void check(uint64_t count)
{
    MPI_Comm comm = weft__pmpi_private_comm();
    int rank = 0, size = 1;
    if (failed || comm == MPI_COMM_NULL || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return;
    uint64_t decision[2] = {0, NO_CHECK}; /* {sync now?, count of the next check} */
    if (rank == 0)
        decision[0] = decide(count, &decision[1]);
    if (PMPI_Bcast(decision, 2, MPI_UINT64_T, 0, comm) != MPI_SUCCESS) {
        fail("PMPI_Bcast of the clock schedule");
    } else if (decision[0]) {
        bool region = sync_region.id != WEFT_INVALID_ID;
        if (region)
            weft_enter(sync_region);
        sync_once(comm, rank, size);
        if (region)
            weft_leave(sync_region);
    }
    atomic_store_explicit(&next_check, failed ? NO_CHECK : decision[1], memory_order_relaxed);
}

void weft__pmpi_clock_checkpoint(void)
{
    uint64_t count = atomic_load_explicit(&world_collectives, memory_order_relaxed) + 1;
    atomic_store_explicit(&world_collectives, count, memory_order_relaxed);
    if (WEFT_UNLIKELY(count == atomic_load_explicit(&next_check, memory_order_relaxed)))
        check(count);
}
