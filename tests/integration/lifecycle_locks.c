/* SPDX-License-Identifier: BSD-3-Clause */
/* The "late-release" case of the lifecycle program (lifecycle.c): a lock
 * whose release is timed, as the OMPT adapter times it, only after the
 * lock was let go and taken again more often than the recorder keeps
 * acquisitions (eight). The main thread acquires the lock (order 1),
 * records a region "held" inside it, lets the lock go, and waits while a
 * second thread acquires and releases it ten times (orders 2-11); only
 * then does it time and record its release. That release must come after
 * the main thread's region and before acquisition 2, which weft check
 * (a lock acquired while held) and the test read back. */
#include <pthread.h>

#include "weft/recorder.h"
#include "weft/user.h"

enum { LATER_ACQUISITIONS = 10 };

static pthread_mutex_t the_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t the_id;

static uint32_t acquire(void)
{
    pthread_mutex_lock(&the_lock);
    uint32_t order = weft_lock_next_order(the_id);
    weft_lock_acquire_at(WEFT_PARADIGM_PTHREAD, the_id, order,
                         weft_lock_acquired_time(the_id, order));
    return order;
}

static void record_release(uint32_t order)
{
    weft_lock_release_at(WEFT_PARADIGM_PTHREAD, the_id, order,
                         weft_lock_release_time(the_id, order));
}

static void *take_it_often(void *arg)
{
    (void)arg;
    for (int i = 0; i < LATER_ACQUISITIONS; i++) {
        uint32_t order = acquire();
        pthread_mutex_unlock(&the_lock);
        record_release(order);
    }
    return NULL;
}

void lifecycle_late_release(void);

void lifecycle_late_release(void)
{
    static char lock_object;
    the_id = weft_lock_id(&lock_object);
    uint32_t handle = WEFT_USER_HANDLE_UNSET;
    weft_region held = {weft_user_region_register(&handle, "held", __FILE__, __LINE__, 1)};

    uint32_t order = acquire();
    weft_enter(held);
    weft_leave(held);
    pthread_mutex_unlock(&the_lock);
    pthread_t other;
    pthread_create(&other, NULL, take_it_often, NULL);
    pthread_join(other, NULL);
    record_release(order);
}
