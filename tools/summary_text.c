/* The text format of `weft summary`: a few header lines, then one row per
 * region with the region's name last, so long names never break the
 * columns. Times are printed in seconds with microsecond digits. Other
 * formats (CSV, JSON) sit beside this file and take the same weft_summary. */
#include "summary.h"

#include <inttypes.h>

static double seconds(const weft_summary *s, uint64_t ticks)
{
    return (double)ticks / (double)s->timer_resolution;
}

void weft__summary_print_text(FILE *out, const weft_summary *s, size_t top)
{
    fprintf(out, "trace:            %s\n", s->trace_path);
    fprintf(out, "duration:         %.6f s\n", seconds(s, s->duration_ticks));
    fprintf(out, "location groups:  %" PRIu64 "\n", s->location_group_count);
    fprintf(out, "locations:        %" PRIu64 "\n", s->location_count);
    fprintf(out, "events:           %" PRIu64 "\n", s->event_count);

    size_t shown = top == 0 || top > s->region_count ? s->region_count : top;
    fprintf(out, "regions:          %zu", s->region_count);
    if (shown < s->region_count)
        fprintf(out, " (the %zu heaviest shown; --top 0 shows all)", shown);
    fprintf(out, "\n\n");
    if (s->region_count == 0)
        return;

    fprintf(out, "%10s %12s %12s %7s %12s %12s %12s  %s\n", "visits", "incl [s]", "excl [s]",
            "incl %", "min [s]", "mean [s]", "max [s]", "region");
    for (size_t i = 0; i < shown; i++) {
        const weft_summary_region *r = &s->regions[i];
        double share =
            s->root_incl_ticks ? 100.0 * (double)r->incl_ticks / (double)s->root_incl_ticks : 0.0;
        double mean =
            r->location_count ? seconds(s, r->incl_ticks) / (double)r->location_count : 0.0;
        fprintf(out, "%10" PRIu64 " %12.6f %12.6f %7.1f %12.6f %12.6f %12.6f  %s\n", r->visits,
                seconds(s, r->incl_ticks), seconds(s, r->excl_ticks), share,
                seconds(s, r->min_incl_ticks), mean, seconds(s, r->max_incl_ticks), r->name);
    }
    fprintf(out, "\nincl %%: share of the summed inclusive time of root-level regions; "
                 "min/mean/max:\ninclusive time per location, over the locations that "
                 "entered the region.\n");
}
