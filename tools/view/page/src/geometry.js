// SPDX-License-Identifier: BSD-3-Clause
// Where things are on the canvas: the label gutter on the left, the time
// ruler on top, the timeline area in between; conversions from a location
// row and depth or a time to CSS pixels of the canvas. Shared by drawing,
// hit testing and the browser tests.
import { laneRect } from './layout.js';
import { tickToX, xToTick } from './viewport.js';

export const GUTTER = 180;
export const RULER = 34;

export function timelineWidth(st) {
    return Math.max(1, st.width - GUTTER);
}

export function timelineHeight(st) {
    return Math.max(1, st.height - RULER);
}

export function timeToX(st, t) {
    return GUTTER + tickToX(st.range, timelineWidth(st), t);
}

export function xToTime(st, x) {
    return xToTick(st.range, timelineWidth(st), x - GUTTER);
}

// Canvas y of a layout y (rows scroll under the ruler).
export function rowToY(st, y) {
    return RULER + y - st.scrollY;
}

export function yToRow(st, y) {
    return y - RULER + st.scrollY;
}

// The lane band {y, h} of `depth` in the row of `loc`, canvas pixels; null
// when the location's rank is collapsed.
export function laneBand(st, loc, depth) {
    const r = st.layout.rowOfLocation[loc];
    if (r < 0) return null;
    const band = laneRect(st.layout.rows[r], depth);
    return { y: rowToY(st, band.y), h: band.h };
}

// The vertical middle of a location's row (or of its rank's header when collapsed).
export function rowMiddle(st, loc) {
    const r = st.layout.rowOfLocation[loc];
    if (r >= 0) {
        const row = st.layout.rows[r];
        return rowToY(st, row.y + row.h / 2);
    }
    const g = st.model.locations[loc].group;
    const header = st.layout.rows.find((row) => row.kind === 'group' && row.group === g);
    return header ? rowToY(st, header.y + header.h / 2) : -1;
}
