// SPDX-License-Identifier: BSD-3-Clause
// The profile of a time range, with the numbers `weft summary` prints for a
// whole trace: per region the visits (enters inside the range), inclusive
// time (a region entered again inside itself counts once) and exclusive time
// (inclusive less the regions entered inside it), summed over locations;
// the root time is the sum of exclusive times (one region is on top at any
// moment a location runs anything). Exact from the detail visits where they
// are complete; otherwise from the profile bins, whose edge bins are
// counted by the fraction of them inside the range.
import { detailComplete, forEachVisit } from './lod.js';

// Above this many visits in the range the bins are used even where the
// detail is complete, to keep the panel quick.
export const EXACT_VISIT_LIMIT = 400000;

function newAccumulator(regionCount) {
    return { visits: new Float64Array(regionCount), incl: new Float64Array(regionCount),
        excl: new Float64Array(regionCount) };
}

export function exactProfile(model, t0, t1) {
    const v = model.visits;
    const acc = newAccumulator(model.regions.length);
    for (let loc = 0; loc < model.locations.length; loc++) {
        const perDepth = v.lists[loc];
        if (!perDepth) continue;
        for (let d = 0; d < perDepth.length; d++) {
            forEachVisit(v, loc, d, t0, t1, (i) => {
                const r = v.region[i];
                const s = v.start[i];
                const clipped = Math.min(v.end[i], t1) - Math.max(s, t0);
                if (s >= t0 && s < t1) acc.visits[r] += 1;
                if (!v.recursive[i]) acc.incl[r] += clipped;
                acc.excl[r] += clipped;
                if (v.parent[i] >= 0) acc.excl[v.region[v.parent[i]]] -= clipped;
            });
        }
    }
    return acc;
}

export function binnedProfile(model, t0, t1) {
    const p = model.profile;
    const acc = newAccumulator(model.regions.length);
    if (!p) return acc;
    const first = Math.max(0, Math.floor(t0 / p.width));
    const last = Math.min(p.bins - 1, Math.floor((t1 - 1e-9) / p.width));
    for (let b = first; b <= last; b++) {
        const bs = b * p.width;
        const be = bs + p.width;
        const f = (Math.min(be, t1) - Math.max(bs, t0)) / p.width;
        if (f <= 0) continue;
        for (let k = p.first[b]; k < p.first[b + 1]; k++) {
            const r = p.region[k];
            acc.visits[r] += p.visits[k] * f;
            acc.incl[r] += p.incl[k] * f;
            acc.excl[r] += p.excl[k] * f;
        }
    }
    return acc;
}

function visitsInRange(model, t0, t1, limit) {
    let total = 0;
    const v = model.visits;
    for (let loc = 0; loc < model.locations.length && total <= limit; loc++) {
        const perDepth = v.lists[loc];
        if (!perDepth) continue;
        for (let d = 0; d < perDepth.length; d++) {
            forEachVisit(v, loc, d, t0, t1, () => { total++; });
            if (total > limit) break;
        }
    }
    return total;
}

// Chooses the source; returns {exact, binWidth, rows, paradigms, root}, rows
// sorted by inclusive time (ties by name) and times in ticks.
export function rangeProfile(model, t0, t1) {
    let exact = detailComplete(model.detail, t0, t1) &&
        (!model.profile || visitsInRange(model, t0, t1, EXACT_VISIT_LIMIT) <= EXACT_VISIT_LIMIT);
    const acc = exact ? exactProfile(model, t0, t1) : binnedProfile(model, t0, t1);
    const rows = [];
    let root = 0;
    const byParadigm = new Map();
    model.regions.forEach((region, r) => {
        if (acc.visits[r] === 0 && acc.incl[r] === 0 && acc.excl[r] === 0) return;
        const excl = Math.max(0, acc.excl[r]);
        rows.push({ region: r, visits: acc.visits[r], incl: acc.incl[r], excl });
        root += excl;
        const p = byParadigm.get(region.paradigm) ?? { paradigm: region.paradigm, visits: 0, excl: 0 };
        p.visits += acc.visits[r];
        p.excl += excl;
        byParadigm.set(region.paradigm, p);
    });
    rows.sort((a, b) => b.incl - a.incl ||
        (model.regions[a.region].name < model.regions[b.region].name ? -1 : 1));
    const paradigms = [...byParadigm.values()].sort((a, b) => b.excl - a.excl);
    return { exact, binWidth: exact ? 0 : model.profile?.width ?? 0, rows, paradigms, root };
}
