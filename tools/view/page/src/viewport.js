// SPDX-License-Identifier: BSD-3-Clause
// The visible time range and its mapping to pixels; zoom and pan keep it
// inside the run and no narrower than a few ticks. Pure: every operation
// returns a new range.

export const MIN_SPAN_TICKS = 10;

export function clampRange(t0, t1, duration) {
    const full = Math.max(duration, MIN_SPAN_TICKS);
    let span = Math.min(Math.max(t1 - t0, MIN_SPAN_TICKS), full);
    let a = Math.max(0, Math.min(t0, full - span));
    return { t0: a, t1: a + span };
}

// Zoom by `factor` (< 1 zooms in) keeping time `anchor` at the same pixel.
export function zoomAt(range, factor, anchor, duration) {
    const f = (anchor - range.t0) / (range.t1 - range.t0);
    const span = (range.t1 - range.t0) * factor;
    const t0 = anchor - f * span;
    return clampRange(t0, t0 + span, duration);
}

export function panBy(range, dt, duration) {
    return clampRange(range.t0 + dt, range.t1 + dt, duration);
}

export function tickToX(range, widthPx, t) {
    return ((t - range.t0) / (range.t1 - range.t0)) * widthPx;
}

export function xToTick(range, widthPx, x) {
    return range.t0 + (x / widthPx) * (range.t1 - range.t0);
}

export function ticksPerPixel(range, widthPx) {
    return (range.t1 - range.t0) / Math.max(1, widthPx);
}
