/* The recorder's side of a multi-process job; see weft/job.h. */
#include "weft/job.h"

#include "clock.h"
#include "weft/recorder.h"

static weft_job_ops job;
static bool attached;

void weft_job_expect(void)
{
}

weft_status weft_job_attach(const weft_job_ops *ops)
{
    job = *ops;
    attached = true;
    return WEFT_OK;
}

uint32_t weft_job_rank(void)
{
    return attached ? job.rank : 0;
}

void weft_job_finalize(void)
{
    weft_finalize();
}

uint64_t weft_clock_ticks(void)
{
    return weft_clock_now();
}

void weft_clock_offset_add(uint64_t local_time, int64_t offset, double stddev)
{
    (void)local_time, (void)offset, (void)stddev;
}
