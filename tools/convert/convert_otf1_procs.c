/* SPDX-License-Identifier: BSD-3-Clause */
/* Which OTF processes of an OTF version 1 trace are threads of which MPI
 * process (docs/dev/LEGACY-FORMATS.md 2.3, 2.4). VampirTrace gives every thread its
 * MPI process as parent. elg2otf gives no process a parent: it names the
 * masters "process r" and the other threads "thread r:t" ("process m:r",
 * "thread m:r:t" with several machines), and lists the master and threads
 * of each process in thread order in two groups, "process r" and
 * "tgroup r". So a parent decides; else such a group, unless the names
 * say otherwise; else the name. A process none of them makes a thread is
 * an MPI process, and so is one that looks like a thread but cannot be
 * placed: one line on stderr per kind of problem says so. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_otf1_internal.h"
#include "escape.h"

/* Thread numbers below this: EPILOG's limit, and teams' sizes are 16 bits. */
#define THREAD_LIMIT 0x10000u

/* One kind of problem: how often, and the first in words. */
typedef struct oddity {
    uint32_t count;
    char first[256];
} oddity;
enum { ODD_GROUP, ODD_MEMBER, ODD_NAME, ODD_MASTER, ODD_TAKEN, ODD_KINDS };

__attribute__((format(printf, 2, 3))) static void note(oddity *o, const char *fmt, ...)
{
    if (o->count++ > 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->first, sizeof(o->first), fmt, ap);
    va_end(ap);
}

/* The number of colon-separated decimal numbers s consists of, or 0. */
static int numbers(const char *s)
{
    int n = 0;
    for (;;) {
        size_t digits = strspn(s, "0123456789");
        if (digits == 0 || digits > 9)
            return 0;
        n++;
        s += digits;
        if (*s == '\0')
            return n;
        if (*s++ != ':')
            return 0;
    }
}

/* elg2otf's name of a master: "process r" or "process m:r". */
static bool master_name(const char *name)
{
    int n = strncmp(name, "process ", 8) == 0 ? numbers(name + 8) : 0;
    return n == 1 || n == 2;
}

/* elg2otf's name of any other thread, "thread [m:]r:t": its master's name
 * into owner, t into *thread. */
static bool thread_name(const char *name, char *owner, size_t size, uint32_t *thread)
{
    int n = strncmp(name, "thread ", 7) == 0 ? numbers(name + 7) : 0;
    if (n != 2 && n != 3)
        return false;
    const char *last = strrchr(name, ':');
    snprintf(owner, size, "process %.*s", (int)(last - (name + 7)), name + 7);
    *thread = (uint32_t)strtoul(last + 1, NULL, 10);
    return true;
}

/* The processes without a parent named as masters, sorted by name. */
typedef struct name_index {
    otf_proc **items;
    uint32_t count;
} name_index;

static int by_name(const void *a, const void *b)
{
    const otf_proc *x = *(otf_proc *const *)a, *y = *(otf_proc *const *)b;
    int order = strcmp(x->name, y->name);
    return order ? order : (x->id > y->id) - (x->id < y->id);
}

/* The first process named name (the lowest id), or NULL. */
static otf_proc *named(const name_index *ix, const char *name)
{
    uint32_t low = 0, high = ix->count;
    while (low < high) {
        uint32_t mid = low + (high - low) / 2;
        if (strcmp(ix->items[mid]->name, name) < 0)
            low = mid + 1;
        else
            high = mid;
    }
    return low < ix->count && strcmp(ix->items[low]->name, name) == 0 ? ix->items[low] : NULL;
}

/* Whether p may be the master of threads placed by a group or a name. */
static bool can_lead(const otf_proc *p)
{
    return p && p->parent == 0 && (!p->master || p->master == p);
}

/* The member of g at position *at whose name places it elsewhere than g
 * does (another thread number, or another existing master), or NULL. */
static const otf_proc *contradiction(const otf_convert *c, const name_index *ix, const otf_group *g,
                                     const otf_proc *m, uint32_t *at)
{
    char owner[64];
    uint32_t thread;
    for (uint32_t i = 0; i < g->count; i++) {
        const otf_proc *q = i ? weft__otf1_table_find(&c->procs, g->members[i]) : m;
        if (!q || q->parent)
            continue;
        const otf_proc *by =
            thread_name(q->name, owner, sizeof(owner), &thread) ? named(ix, owner) : NULL;
        *at = i;
        if (i == 0 ? by != NULL : master_name(q->name) || (by && (by != m || thread != i)))
            return q;
    }
    return NULL;
}

/* A group "process r" or "tgroup r": its first member the master, the
 * others its threads numbered by their position. */
static void use_group(otf_convert *c, const name_index *ix, const otf_group *g, oddity *odd)
{
    otf_proc *m = g->count ? weft__otf1_table_find(&c->procs, g->members[0]) : NULL;
    const otf_proc *q;
    uint32_t at = 0;
    if (!can_lead(m)) {
        note(&odd[ODD_GROUP],
             "group %u (\"%s\") does not begin with a process that can be a master: the "
             "process names decide instead",
             g->id, g->name);
        return;
    }
    if ((q = contradiction(c, ix, g, m, &at)) != NULL) {
        note(&odd[ODD_GROUP],
             "group %u (\"%s\") has process %u (\"%s\") as thread %u, which the names "
             "contradict: the names decide",
             g->id, g->name, q->id, q->name, at);
        return;
    }
    m->master = m;
    for (uint32_t i = 1; i < g->count && i < THREAD_LIMIT; i++) {
        otf_proc *p = weft__otf1_table_find(&c->procs, g->members[i]);
        if (!p) {
            note(&odd[ODD_MEMBER], "group %u (\"%s\") names the undefined process %u: left out",
                 g->id, g->name, g->members[i]);
        } else if (p->parent) {
            continue; /* VampirTrace's parent decides */
        } else if (!p->master) {
            p->master = m;
            p->thread = i;
        } else if (p->master != m || p->thread != i) {
            note(&odd[ODD_GROUP],
                 "group %u (\"%s\") has process %u (\"%s\") as thread %u, which is placed "
                 "already: it stays where it was",
                 g->id, g->name, p->id, p->name, i);
        }
    }
}

/* A process without a parent that no group placed: by its name. */
static void use_name(const name_index *ix, otf_proc *p, oddity *odd)
{
    char owner[64];
    uint32_t thread;
    p->master = p;
    if (strncmp(p->name, "thread ", 7) != 0)
        return; /* an MPI process */
    if (!thread_name(p->name, owner, sizeof(owner), &thread) || thread == 0 ||
        thread >= THREAD_LIMIT) {
        note(&odd[ODD_NAME],
             "process %u is named \"%s\", not a thread name weft can use (\"thread R:T\", T "
             "from 1 to 65535): it becomes an MPI process",
             p->id, p->name);
        return;
    }
    otf_proc *m = named(ix, owner);
    if (!can_lead(m)) {
        note(&odd[ODD_MASTER],
             "process %u (\"%s\") has no master named \"%s\": it becomes an MPI process", p->id,
             p->name, owner);
        return;
    }
    m->master = m;
    p->master = m;
    p->thread = thread;
}

static int by_place(const void *a, const void *b)
{
    const otf_proc *x = *(otf_proc *const *)a, *y = *(otf_proc *const *)b;
    if (x->master->id != y->master->id)
        return x->master->id < y->master->id ? -1 : 1;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if ((x != x->master) != (y != y->master))
        return x != x->master ? 1 : -1; /* the master keeps thread 0 */
    return (x->id > y->id) - (x->id < y->id);
}

/* Two processes placed as one thread: the later becomes an MPI process. */
static void untangle(otf_proc **placed, uint32_t count, oddity *odd)
{
    qsort(placed, count, sizeof(*placed), by_place);
    for (uint32_t i = 1, kept = 0; i < count; i++) {
        otf_proc *p = placed[i], *before = placed[kept];
        if (p->master != before->master || p->thread != before->thread) {
            kept = i;
            continue;
        }
        note(&odd[ODD_TAKEN],
             "process %u (\"%s\") would be thread %u of process %u, like process %u: it "
             "becomes an MPI process",
             p->id, p->name, p->thread, p->master->id, before->id);
        p->master = p;
        p->thread = 0;
    }
}

/* Every process's master, and each thread's number in it. */
static int place(otf_convert *c, otf_proc **list)
{
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) { /* VampirTrace's parents */
        otf_proc *p = &procs[i];
        if (p->parent == 0)
            continue;
        p->master = weft__otf1_table_find(&c->procs, p->parent);
        if (!p->master || p->master->parent != 0) {
            snprintf(c->err, sizeof(c->err),
                     "process %u names the parent %u, which is not a process without a parent",
                     p->id, p->parent);
            return -1;
        }
        p->master->master = p->master;
    }
    name_index ix = {list, 0};
    for (uint32_t i = 0; i < c->procs.count; i++)
        if (procs[i].parent == 0 && master_name(procs[i].name))
            ix.items[ix.count++] = &procs[i];
    qsort(ix.items, ix.count, sizeof(*ix.items), by_name);
    oddity odd[ODD_KINDS] = {{0}};
    const otf_group *groups = c->groups.items;
    for (uint32_t i = 0; i < c->groups.count; i++) { /* elg2otf's groups */
        const char *name = groups[i].name;
        if (master_name(name) || (strncmp(name, "tgroup ", 7) == 0 && numbers(name + 7) == 1))
            use_group(c, &ix, &groups[i], odd);
    }
    for (uint32_t i = 0; i < c->procs.count; i++) /* elg2otf's names */
        if (!procs[i].master)
            use_name(&ix, &procs[i], odd);
    uint32_t count = 0; /* the list's second use: everything placed so far */
    for (uint32_t i = 0; i < c->procs.count; i++)
        if (procs[i].parent == 0)
            list[count++] = &procs[i];
    untangle(list, count, odd);
    for (int k = 0; k < ODD_KINDS; k++) {
        if (odd[k].count > 1)
            weft__cli_line(stderr, "weft convert: '%s': %s (and %u more like it)", c->input,
                           odd[k].first, odd[k].count - 1);
        else if (odd[k].count)
            weft__cli_line(stderr, "weft convert: '%s': %s", c->input, odd[k].first);
    }
    return 0;
}

/* Ranks of MPI processes, thread numbers of threads, masters' tables. */
int weft__otf1_arrange_processes(otf_convert *c)
{
    otf_proc **list = malloc((c->procs.count ? c->procs.count : 1) * sizeof(*list));
    if (!list) {
        snprintf(c->err, sizeof(c->err), "out of memory arranging the processes");
        return -1;
    }
    int status = place(c, list);
    free(list);
    if (status)
        return -1;
    otf_proc *procs = c->procs.items;
    for (uint32_t i = 0; i < c->procs.count; i++) {
        otf_proc *p = &procs[i];
        if (p->master == p)
            p->rank = c->ranks++; /* in id order */
        if (p->parent == 0 && p->thread >= p->master->teams.thread_count)
            p->master->teams.thread_count = p->thread + 1;
    }
    for (uint32_t i = 0; i < c->procs.count; i++) { /* VampirTrace's threads, in id order */
        otf_proc *p = &procs[i];
        p->rank = p->master->rank;
        if (p->parent)
            p->thread = p->master->teams.thread_count++;
    }
    for (uint32_t i = 0; i < c->procs.count; i++) {
        if (procs[i].master == &procs[i] && !weft__convert_teams_alloc(&procs[i].teams)) {
            snprintf(c->err, sizeof(c->err), "out of memory arranging the processes");
            return -1;
        }
    }
    return 0;
}
