// SPDX-License-Identifier: BSD-3-Clause
// Level-of-detail choices: which pyramid level to draw at a zoom, the runs of
// equal bins in a time range, where the detail visits are complete, and the
// binary searches into the per-depth visit lists.
import { TIER_BASE } from './model.js';

// The coarsest level whose bins are at most `ticksPerPixel` wide (so each
// pixel sees one bin or more); the finest level when zoomed in further.
export function chooseLevel(levels, ticksPerPixel) {
    if (levels.length === 0) return -1;
    let chosen = 0;
    for (let i = 0; i < levels.length; i++) {
        if (levels[i].width <= ticksPerPixel) chosen = i;
    }
    return chosen;
}

// Calls fn(startTick, endTick, region, depth) for each run of equal bins of
// location `loc` overlapping [t0, t1), idle bins left out.
export function forEachRun(level, loc, t0, t1, fn) {
    const { bins, width } = level;
    const base = loc * bins;
    let b = Math.max(0, Math.floor(t0 / width));
    const last = Math.min(bins - 1, Math.floor(Math.max(t0, t1 - 1) / width));
    while (b <= last) {
        const region = level.region[base + b];
        const depth = level.depth[base + b];
        let e = b + 1;
        while (e <= last && level.region[base + e] === region && level.depth[base + e] === depth) e++;
        if (region !== 0) fn(b * width, e * width, region - 1, depth);
        b = e;
    }
}

// The bin of `loc` at time t in a level: {region (index or -1), depth, start, end}.
export function binAt(level, loc, t) {
    const b = Math.min(level.bins - 1, Math.max(0, Math.floor(t / level.width)));
    const v = level.region[loc * level.bins + b];
    return { region: v - 1, depth: level.depth[loc * level.bins + b], start: b * level.width,
        end: (b + 1) * level.width };
}

// Whether every visit (message, marker) overlapping [t0, t1) is in the data.
export function detailComplete(detail, t0, t1) {
    if (!detail) return false;
    const limit = detail.truncated_at ?? Infinity;
    if (t1 > limit) return false;
    for (const [a, b] of detail.windows) {
        if (t0 >= a && t1 <= b) return true;
    }
    return false;
}

// The windows overlapping [t0, t1), clipped to it.
export function windowsIn(detail, t0, t1) {
    const out = [];
    if (!detail) return out;
    const limit = detail.truncated_at ?? Infinity;
    for (const [a, b] of detail.windows) {
        const s = Math.max(a, t0);
        const e = Math.min(b, t1, limit);
        if (s < e) out.push([s, e]);
    }
    return out;
}

// First position in a time-ordered index list whose visit ends after t.
export function firstEndingAfter(idx, end, t) {
    let lo = 0;
    let hi = idx.length;
    while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (end[idx[mid]] > t) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

// Calls fn(visitIndex) for each visit of one location and depth overlapping
// [t0, t1); with `minDuration`, it may skip visits shorter than that.
export function forEachVisit(visits, loc, depth, t0, t1, fn, minDuration = 0) {
    const perDepth = visits.lists[loc];
    if (!perDepth || depth >= perDepth.length) return;
    let idx = perDepth[depth];
    if (minDuration >= TIER_BASE && visits.tiers) {
        const tiers = visits.tiers[loc][depth];
        let k = 0;
        for (let min = TIER_BASE; min <= minDuration; min *= TIER_BASE) k++;
        if (k > tiers.length) return;
        idx = tiers[k - 1];
    }
    for (let k = firstEndingAfter(idx, visits.end, t0); k < idx.length; k++) {
        const i = idx[k];
        if (visits.start[i] >= t1) break;
        fn(i);
    }
}

// Number of visits of a location overlapping [t0, t1), over all depths.
export function countVisits(visits, loc, t0, t1) {
    const perDepth = visits.lists[loc];
    if (!perDepth) return 0;
    let total = 0;
    for (const idx of perDepth) {
        const first = firstEndingAfter(idx, visits.end, t0);
        let lo = first;
        let hi = idx.length;
        while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (visits.start[idx[mid]] >= t1) hi = mid;
            else lo = mid + 1;
        }
        total += lo - first;
    }
    return total;
}

// The visit of `loc` at depth exactly `depth` containing t, or -1.
export function visitAt(visits, loc, depth, t) {
    const perDepth = visits.lists[loc];
    if (!perDepth || depth >= perDepth.length) return -1;
    const idx = perDepth[depth];
    const k = firstEndingAfter(idx, visits.end, t);
    if (k < idx.length && visits.start[idx[k]] <= t) return idx[k];
    return -1;
}

// The deepest visit of `loc` containing t (optionally at most `maxDepth`), or -1.
export function deepestVisitAt(visits, loc, t, maxDepth = Infinity) {
    const perDepth = visits.lists[loc];
    if (!perDepth) return -1;
    for (let d = Math.min(perDepth.length - 1, maxDepth); d >= 0; d--) {
        const i = visitAt(visits, loc, d, t);
        if (i >= 0) return i;
    }
    return -1;
}
