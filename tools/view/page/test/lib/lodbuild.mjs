// SPDX-License-Identifier: BSD-3-Clause
// Pass A of the producer, per location in time order, as VIEW-FORMAT.md
// section "Computing it" describes for the C side: the level-of-detail
// pyramid (dominant region and depth per bin, every level), the profile
// bins (visits, inclusive and exclusive ticks per region), and the
// histograms that plan the detail (visit durations, visits per finest bin).
// Memory: per location a stack and one small map per level; the outputs are
// sized by bin counts, never by event counts.
import { LEVEL_FACTOR } from '../../src/format.js';
import { uvarLength } from './encode.mjs';

export const MIN_LEVEL_BINS = 64;
export const MAX_FINEST_BINS = 65536;
const DEPTH_SPAN = 65536;

// Duration histogram buckets: [0, 1), then 4 per power of two; edge(k) is
// the smallest duration in bucket k.
export const DURATION_EDGES = (() => {
    const edges = [0];
    for (let k = 0; k < 4 * 54; k++) edges.push(Math.ceil(Math.pow(2, k / 4)));
    return edges;
})();

export function durationBucket(d) {
    let lo = 0;
    let hi = DURATION_EDGES.length - 1;
    while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (DURATION_EDGES[mid] <= d) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// Finest bin count: a power of 4, at most MAX_FINEST_BINS, at least 1 and
// keeping the bins at least one tick wide.
export function finestBins(duration, locationCount) {
    let n = 1;
    while (n * LEVEL_FACTOR <= MAX_FINEST_BINS && n * LEVEL_FACTOR <= duration &&
           n * LEVEL_FACTOR * locationCount <= (1 << 24)) n *= LEVEL_FACTOR;
    return n;
}

export class LodBuilder {
    constructor({ duration, locationCount, regionCount, profileBins = 4096, minLevelBins = MIN_LEVEL_BINS }) {
        this.duration = duration;
        this.locationCount = locationCount;
        this.regionCount = regionCount;
        const n0 = finestBins(duration, locationCount);
        this.width0 = Math.max(1, Math.ceil((duration + 1) / n0));
        this.levels = [];
        for (let bins = n0, width = this.width0; ; bins /= LEVEL_FACTOR, width *= LEVEL_FACTOR) {
            this.levels.push({ bins, width, region: new Uint32Array(bins * locationCount),
                depth: new Uint32Array(bins * locationCount) });
            if (bins / LEVEL_FACTOR < minLevelBins || bins < LEVEL_FACTOR) break;
        }
        this.profileBins = Math.min(profileBins, n0);
        this.profileWidth = this.width0 * (n0 / this.profileBins);
        const cells = this.profileBins * regionCount;
        this.profile = { visits: new Float64Array(cells), incl: new Float64Array(cells),
            excl: new Float64Array(cells) };
        this.overlapDiff = new Float64Array(n0 + 1);
        this.durations = new Float64Array(DURATION_EDGES.length);
        this.visitCount = 0;
        this.visitBytes = 0; // uncompressed bytes of all visits in the detail table
        this.locations = Array.from({ length: locationCount }, (_, loc) => this.newLocation(loc));
    }

    newLocation(loc) {
        return { loc, stack: [], open: new Uint32Array(this.regionCount), t: 0, lastEnd: 0,
            bin: this.levels.map(() => 0), maps: this.levels.map(() => new Map()) };
    }

    // Exclusive time [a, b) of `key` ((region + 1) * DEPTH_SPAN + depth, 0 idle).
    attribute(s, a, b, key, region) {
        if (b <= a) return;
        if (region >= 0) this.addSplit(this.profile.excl, a, b, region);
        const w = this.width0;
        while (a < b) {
            const binEnd = (s.bin[0] + 1) * w;
            const e = Math.min(b, binEnd);
            const m = s.maps[0];
            m.set(key, (m.get(key) ?? 0) + (e - a));
            a = e;
            if (a === binEnd) this.closeBin(s, 0);
        }
    }

    // Adds [a, b) of `region` to a profile quantity, split over profile bins.
    addSplit(arr, a, b, region) {
        const w = this.profileWidth;
        const R = this.regionCount;
        let bin = Math.floor(a / w);
        while (a < b) {
            const e = Math.min(b, (bin + 1) * w);
            arr[bin * R + region] += e - a;
            a = e;
            bin++;
        }
    }

    closeBin(s, j) {
        const level = this.levels[j];
        const m = s.maps[j];
        let best = 0;
        let bestTime = -1;
        for (const [key, time] of m) {
            // More time wins; on a tie running beats idle, then lower region, lower depth.
            if (time > bestTime || (time === bestTime && (best === 0 || (key !== 0 && key < best)))) {
                best = key;
                bestTime = time;
            }
        }
        const at = s.loc * level.bins + s.bin[j];
        if (at < (s.loc + 1) * level.bins) {
            level.region[at] = Math.floor(best / DEPTH_SPAN);
            level.depth[at] = best % DEPTH_SPAN;
        }
        const up = j + 1 < this.levels.length ? s.maps[j + 1] : null;
        if (up) for (const [key, time] of m) up.set(key, (up.get(key) ?? 0) + time);
        m.clear();
        s.bin[j]++;
        if (up && s.bin[j] % LEVEL_FACTOR === 0) this.closeBin(s, j + 1);
    }

    topKey(s) {
        const n = s.stack.length;
        if (n === 0) return [0, -1];
        const top = s.stack[n - 1];
        return [(top.region + 1) * DEPTH_SPAN + (n - 1), top.region];
    }

    advance(s, t) {
        const [key, region] = this.topKey(s);
        this.attribute(s, s.t, t, key, region);
        s.t = t;
    }

    enter(loc, t, region) {
        const s = this.locations[loc];
        this.advance(s, t);
        s.stack.push({ region, start: t, outer: s.open[region] === 0 });
        s.open[region]++;
        this.profile.visits[Math.floor(t / this.profileWidth) * this.regionCount + region] += 1;
    }

    leave(loc, t, region) {
        const s = this.locations[loc];
        this.advance(s, t);
        const v = s.stack.pop();
        if (!v || v.region !== region) throw new Error(`unbalanced leave on location ${loc}`);
        s.open[region]--;
        if (v.outer) this.addSplit(this.profile.incl, v.start, t, region);
        const depth = s.stack.length;
        const dur = t - v.start;
        this.durations[durationBucket(dur)]++;
        const b0 = Math.floor(v.start / this.width0);
        const b1 = Math.floor(Math.max(v.start, t - 1) / this.width0);
        this.overlapDiff[b0]++;
        this.overlapDiff[b1 + 1]--;
        this.visitCount++;
        this.visitBytes += uvarLength(t - s.lastEnd) + uvarLength(dur) + uvarLength(loc) +
            uvarLength(depth) + uvarLength(region);
        s.lastEnd = t;
    }

    // Closes every location: idle to the end of the finest level.
    finish() {
        const end = this.levels[0].bins * this.width0;
        for (const s of this.locations) {
            if (s.stack.length) throw new Error(`location ${s.loc} ends with open regions`);
            this.advance(s, end);
        }
    }

    // Visits overlapping each finest bin (from the difference array).
    overlapCounts() {
        const n = this.levels[0].bins;
        const out = new Float64Array(n);
        let run = 0;
        for (let b = 0; b < n; b++) {
            run += this.overlapDiff[b];
            out[b] = run;
        }
        return out;
    }
}
