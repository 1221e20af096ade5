/* SPDX-License-Identifier: BSD-3-Clause */
/* Terminating signals; see signals.h for the design. Everything the
 * handler calls is async-signal-safe: atomics, the clock (rdtsc or
 * clock_gettime), write, poll, sigaction, raise. */
#include "signals.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "journal.h"
#include "lifecycle.h"
#include "main_exit.h"
#include "weft/alloc.h"
#include "weft/log.h"

/* The handler gives up waiting when the rescue has made no progress for
 * this long (it moves with every chunk OTF2 writes). */
#define RESCUE_PATIENCE_MS 5000
#define POLL_MS 100

/* The signals handled by default: those whose default action ends the
 * process and that end real runs (a batch system's SIGTERM at the time
 * limit, Ctrl-C, a crash, abort() and failed asserts, a broken pipe,
 * exceeded CPU or file size limits). */
static const int default_signals[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGTRAP, SIGABRT,
                                      SIGBUS,  SIGFPE,  SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE,
                                      SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGSYS};

static const struct {
    const char *name;
    int number;
} names[] = {{"HUP", SIGHUP},       {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ILL", SIGILL},
             {"TRAP", SIGTRAP},     {"ABRT", SIGABRT}, {"BUS", SIGBUS},   {"FPE", SIGFPE},
             {"USR1", SIGUSR1},     {"SEGV", SIGSEGV}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE},
             {"ALRM", SIGALRM},     {"TERM", SIGTERM}, {"XCPU", SIGXCPU}, {"XFSZ", SIGXFSZ},
             {"SYS", SIGSYS},       {"IOT", SIGABRT},  {"PROF", SIGPROF}, {"VTALRM", SIGVTALRM},
             {"STKFLT", SIGSTKFLT}, {"PWR", SIGPWR}};

#define MAX_SIGNAL 65
/* The action each handled signal had before weft's: what the handler
 * chains to. Written before the handler is installed, read-only after. */
static struct sigaction previous[MAX_SIGNAL];
static bool handled[MAX_SIGNAL];

/* The rescue: one connected pair of sockets, two descriptors whatever the
 * threads (a program near its file limit needs its own). A handler writes
 * a byte into HANDLER_END to wake the thread, which reads it at
 * RESCUE_END; the thread writes a byte back when it has finished, which is
 * never read, so HANDLER_END stays readable for every waiting handler. */
enum { HANDLER_END, RESCUE_END };
static int rescue_fds[2] = {-1, -1};
static atomic_bool rescue_ready;
static atomic_int claimed_signal; /* 0: no rescue asked for */
static _Atomic uint64_t claimed_time;

/* ---- the handler -------------------------------------------------------- */

static bool is_handler(const struct sigaction *sa)
{
    if (sa->sa_flags & SA_SIGINFO)
        return sa->sa_sigaction != NULL;
    return sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

/* Waits for the rescue to finish, as long as it makes progress. */
static void wait_for_rescue(void)
{
    uint64_t seen = weft__journal_progress();
    int idle_ms = 0;
    while (idle_ms < RESCUE_PATIENCE_MS) {
        struct pollfd p = {.fd = rescue_fds[HANDLER_END], .events = POLLIN};
        int n = poll(&p, 1, POLL_MS);
        if (n > 0)
            return;
        if (n < 0 && errno != EINTR)
            return;
        uint64_t now = weft__journal_progress();
        idle_ms = now == seen ? idle_ms + POLL_MS : 0;
        seen = now;
    }
}

/* A fault the hardware raised on an instruction: returning from the
 * handler runs it again, which raises the signal again with the default
 * action in place, so the core dump shows the real fault. */
static bool refaults(int signo, const siginfo_t *info)
{
    return info && info->si_code > 0 &&
           (signo == SIGSEGV || signo == SIGBUS || signo == SIGFPE || signo == SIGILL);
}

static void handler(int signo, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    const struct sigaction *prev = &previous[signo];
    if (is_handler(prev)) {
        /* The program's own handler decides what the signal does. */
        if (prev->sa_flags & SA_SIGINFO)
            prev->sa_sigaction(signo, info, context);
        else
            prev->sa_handler(signo);
        errno = saved_errno;
        return;
    }
    if (atomic_load(&rescue_ready) && weft__lifecycle_rescuable()) {
        uint64_t now = weft_clock_now();
        int none = 0;
        if (atomic_compare_exchange_strong(&claimed_signal, &none, signo)) {
            atomic_store(&claimed_time, now);
            char byte = 1;
            while (write(rescue_fds[HANDLER_END], &byte, 1) < 0 && errno == EINTR)
                continue;
        }
        wait_for_rescue();
    } else if (atomic_load(&rescue_ready) && atomic_load(&claimed_signal) != 0) {
        /* A second signal (`timeout` signals the child, then its group;
         * mpirun sends another) while the rescue of the first writes the
         * trace: taking the default action now would end the process in
         * the middle of it. */
        wait_for_rescue();
    }
    /* The default action, as if weft had not been there. The signal is
     * blocked while this handler runs: raised now, it is delivered when the
     * handler returns. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signo, &dfl, NULL);
    if (!refaults(signo, info))
        raise(signo);
    errno = saved_errno;
}

/* ---- descriptors ---------------------------------------------------------- */

int weft__fd_out_of_the_way(int fd)
{
    struct rlimit limit;
    int floor = FD_FLOOR;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        limit.rlim_cur < (rlim_t)FD_FLOOR + 16)
        floor = limit.rlim_cur > 16 ? (int)limit.rlim_cur - 8 : 3;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, floor);
    if (moved < 0 && floor > 3)
        moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (moved < 0)
        return fd;
    close(fd);
    return moved;
}

/* ---- the rescue thread -------------------------------------------------- */

static void *rescue_main(void *arg)
{
    (void)arg;
    char byte;
    ssize_t n;
    /* Only a handler's byte, after its claim, starts the rescue: bytes the
     * program wrote to a descriptor it believed closed are not requests. */
    do {
        while ((n = read(rescue_fds[RESCUE_END], &byte, 1)) < 0 && errno == EINTR)
            continue;
    } while (n == 1 && (byte != 1 || atomic_load(&claimed_signal) == 0));
    if (n != 1)
        return NULL;
    int signo = atomic_load(&claimed_signal);
    weft__finalize_on_signal(signo, atomic_load(&claimed_time));
    byte = 1;
    while (write(rescue_fds[RESCUE_END], &byte, 1) < 0 && errno == EINTR)
        continue;
    return NULL;
}

static bool start_rescue(void)
{
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, rescue_fds) != 0) {
        rescue_fds[0] = rescue_fds[1] = -1;
        return false;
    }
    rescue_fds[HANDLER_END] = weft__fd_out_of_the_way(rescue_fds[HANDLER_END]);
    rescue_fds[RESCUE_END] = weft__fd_out_of_the_way(rescue_fds[RESCUE_END]);
    if (!weft__main_exit_start_detached(rescue_main)) {
        weft__signals_forget();
        return false;
    }
    weft__main_exit_own_thread();
    return true;
}

/* ---- installing --------------------------------------------------------- */

static int parse_one(const char *text, size_t len)
{
    char word[16];
    if (len == 0 || len >= sizeof(word))
        return 0;
    memcpy(word, text, len);
    word[len] = '\0';
    if (isdigit((unsigned char)word[0])) {
        char *end = NULL;
        long n = strtol(word, &end, 10);
        return *end == '\0' && n > 0 && n < MAX_SIGNAL && n != SIGKILL && n != SIGSTOP ? (int)n : 0;
    }
    const char *name = strncasecmp(word, "SIG", 3) == 0 ? word + 3 : word;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcasecmp(name, names[i].name) == 0)
            return names[i].number;
    }
    return 0;
}

/* The signals SPEC asks for, as flags by number; false: none at all. */
static bool wanted(const char *spec, bool *out)
{
    if (!spec || strcasecmp(spec, "default") == 0) {
        for (size_t i = 0; i < sizeof(default_signals) / sizeof(default_signals[0]); i++)
            out[default_signals[i]] = true;
        return true;
    }
    if (strcasecmp(spec, "none") == 0 || strcasecmp(spec, "off") == 0 ||
        strcasecmp(spec, "false") == 0 || strcmp(spec, "0") == 0)
        return false;
    bool any = false;
    for (const char *p = spec; *p;) {
        size_t skip = strspn(p, " ,\t");
        p += skip;
        size_t len = strcspn(p, " ,\t");
        if (len == 0)
            break;
        int signo = parse_one(p, len);
        if (signo) {
            out[signo] = any = true;
        } else {
            weft_log_error("WEFT_SIGNALS: '%.*s' is not a signal weft can handle "
                           "(names such as TERM or SIGINT, or numbers); left out",
                           (int)len, p);
        }
        p += len;
    }
    return any;
}

void weft__signals_install(const char *spec)
{
    bool installed = false;
    for (int signo = 1; signo < MAX_SIGNAL; signo++)
        installed = installed || handled[signo];
    if (installed) {
        /* A fork()ed child: the handlers are in place (inherited), only
         * its own rescue thread is missing. */
        if (start_rescue())
            atomic_store(&rescue_ready, true);
        return;
    }
    bool want[MAX_SIGNAL] = {false};
    if (!wanted(spec, want))
        return;
    if (!start_rescue()) {
        weft_log_verbose("cannot start the thread that writes the trace on a signal; "
                         "terminating signals are not handled");
        return;
    }
    atomic_store(&rescue_ready, true);
    for (int signo = 1; signo < MAX_SIGNAL; signo++) {
        struct sigaction old;
        if (!want[signo] || sigaction(signo, NULL, &old) != 0)
            continue;
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN)
            continue; /* ignored: it ends nothing */
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = handler;
        /* Chaining keeps the program's mask and restart behaviour. */
        sa.sa_mask = old.sa_mask;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK |
                      (is_handler(&old) ? old.sa_flags & (SA_RESTART | SA_NODEFER) : SA_RESTART);
        previous[signo] = old;
        handled[signo] = true;
        if (sigaction(signo, &sa, NULL) != 0)
            handled[signo] = false;
    }
}

void weft__signals_hold(weft_signals_held *held)
{
    /* Without the rescue thread no handler of weft's runs: two system calls
     * per chunk saved. */
    held->blocked = atomic_load_explicit(&rescue_ready, memory_order_relaxed);
    if (!held->blocked)
        return;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &held->before);
}

void weft__signals_release(const weft_signals_held *held)
{
    if (held->blocked)
        pthread_sigmask(SIG_SETMASK, &held->before, NULL);
}

/* ---- alternate stacks --------------------------------------------------- */

#define ALT_STACK_BYTES (64 * 1024)
static __thread void *alt_stack;

void weft__signals_thread_start(void)
{
    if (!atomic_load(&rescue_ready) || alt_stack)
        return;
    stack_t current;
    if (sigaltstack(NULL, &current) != 0 || !(current.ss_flags & SS_DISABLE))
        return; /* the thread has one of its own */
    long minimum = sysconf(_SC_MINSIGSTKSZ);
    size_t size = ALT_STACK_BYTES;
    if (minimum > 0 && (size_t)minimum * 4 > size)
        size = (size_t)minimum * 4;
    void *memory = weft_alloc(size);
    if (!memory)
        return;
    stack_t stack = {.ss_sp = memory, .ss_size = size, .ss_flags = 0};
    if (sigaltstack(&stack, NULL) != 0) {
        weft_free(memory);
        return;
    }
    alt_stack = memory;
}

void weft__signals_thread_end(void)
{
    if (!alt_stack)
        return;
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && current.ss_sp == alt_stack &&
        !(current.ss_flags & SS_ONSTACK)) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
        weft_free(alt_stack);
    }
    alt_stack = NULL;
}

void weft__signals_forget(void)
{
    atomic_store(&rescue_ready, false);
    atomic_store(&claimed_signal, 0);
    for (int i = 0; i < 2; i++) {
        if (rescue_fds[i] >= 0)
            close(rescue_fds[i]);
        rescue_fds[i] = -1;
    }
}
