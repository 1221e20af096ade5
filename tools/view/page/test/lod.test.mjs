// SPDX-License-Identifier: BSD-3-Clause
// Level of detail: the pyramid pass (dominant region and depth per bin,
// coarser levels from summed times), choosing a level for a zoom, runs of
// bins, where the detail is complete, and the per-depth visit searches.
import test from 'node:test';
import assert from 'node:assert/strict';
import { LodBuilder, finestBins, durationBucket, DURATION_EDGES } from './lib/lodbuild.mjs';
import { chooseLevel, forEachRun, binAt, detailComplete, windowsIn, forEachVisit, visitAt,
    deepestVisitAt, countVisits } from '../src/lod.js';
import { smallModel } from './helpers.mjs';

function pyramid() {
    // duration 63: 16 finest bins of 4 ticks, then 4 of 16, then 1 of 64.
    const b = new LodBuilder({ duration: 63, locationCount: 1, regionCount: 3, minLevelBins: 1 });
    b.enter(0, 0, 0);
    b.enter(0, 2, 1);
    b.leave(0, 6, 1);
    b.leave(0, 12, 0);
    b.enter(0, 20, 2);
    b.leave(0, 23, 2);
    b.finish();
    return b;
}

test('the pyramid keeps the dominant region and depth per bin, summing times upwards', () => {
    const b = pyramid();
    assert.deepEqual(b.levels.map((l) => [l.bins, l.width]), [[16, 4], [4, 16], [1, 64]]);
    const [fine, mid, top] = b.levels;
    // bin 0: A and B 2 ticks each: a tie goes to the lower region. bin 1: B 2, A 2.
    assert.deepEqual(Array.from(fine.region.slice(0, 7)), [1, 1, 1, 0, 0, 3, 0]);
    assert.deepEqual(Array.from(fine.depth.slice(0, 7)), [0, 0, 0, 0, 0, 0, 0]);
    // [0,16): A 8, B 4, idle 4. [16,32): C 3 but idle 13: idle wins there.
    assert.deepEqual(Array.from(mid.region), [1, 0, 0, 0]);
    assert.deepEqual(Array.from(top.region), [0]);
});

test('profile bins hold visits, inclusive and exclusive ticks', () => {
    const b = pyramid();
    const sum = (arr, r) => { let s = 0; for (let k = r; k < arr.length; k += 3) s += arr[k]; return s; };
    assert.deepEqual([0, 1, 2].map((r) => sum(b.profile.visits, r)), [1, 1, 1]);
    assert.deepEqual([0, 1, 2].map((r) => sum(b.profile.incl, r)), [12, 4, 3]);
    assert.deepEqual([0, 1, 2].map((r) => sum(b.profile.excl, r)), [8, 4, 3]);
    assert.equal(b.visitCount, 3);
});

test('finest bins: a power of 4, bounded, at least a tick wide', () => {
    assert.equal(finestBins(63, 1), 16);
    assert.equal(finestBins(1e12, 1), 65536);
    assert.equal(finestBins(1e12, 1024), 16384);
    assert.equal(finestBins(0, 1), 1);
    assert.equal(DURATION_EDGES[durationBucket(1000)] <= 1000, true);
    assert.equal(DURATION_EDGES[durationBucket(1000) + 1] > 1000, true);
});

test('chooseLevel takes the coarsest level with bins no wider than a pixel', () => {
    const levels = [{ width: 4 }, { width: 16 }, { width: 64 }];
    assert.equal(chooseLevel(levels, 100), 2);
    assert.equal(chooseLevel(levels, 20), 1);
    assert.equal(chooseLevel(levels, 4), 0);
    assert.equal(chooseLevel(levels, 1), 0);
    assert.equal(chooseLevel([], 1), -1);
});

test('forEachRun merges equal bins, skips idle ones and clips to the range', () => {
    const level = { bins: 8, width: 10, region: Uint32Array.from([1, 1, 2, 0, 0, 2, 2, 1]),
        depth: Uint32Array.from([0, 0, 1, 0, 0, 1, 1, 0]) };
    const runs = [];
    forEachRun(level, 0, 0, 80, (...r) => runs.push(r));
    assert.deepEqual(runs, [[0, 20, 0, 0], [20, 30, 1, 1], [50, 70, 1, 1], [70, 80, 0, 0]]);
    runs.length = 0;
    forEachRun(level, 0, 25, 55, (...r) => runs.push(r));
    assert.deepEqual(runs, [[20, 30, 1, 1], [50, 60, 1, 1]]);
    assert.deepEqual(binAt(level, 0, 55), { region: 1, depth: 1, start: 50, end: 60 });
});

test('detail is complete only inside a window and before a truncation', () => {
    const detail = { windows: [[100, 200], [500, 600]], truncated_at: null };
    assert.equal(detailComplete(detail, 120, 180), true);
    assert.equal(detailComplete(detail, 90, 180), false);
    assert.equal(detailComplete(detail, 150, 550), false);
    assert.equal(detailComplete({ ...detail, truncated_at: 550 }, 500, 560), false);
    assert.deepEqual(windowsIn(detail, 150, 550), [[150, 200], [500, 550]]);
});

test('visit searches per location and depth', () => {
    const m = smallModel({ visits: [[0, 100, 0, 0, 0], [10, 20, 0, 1, 1], [30, 60, 0, 1, 2],
        [40, 50, 0, 2, 1], [0, 50, 1, 0, 2]], locations: 2 });
    const v = m.visits;
    const at = (loc, d, t0, t1) => { const out = []; forEachVisit(v, loc, d, t0, t1, (i) => out.push(v.start[i])); return out; };
    assert.deepEqual(at(0, 1, 0, 100), [10, 30]);
    assert.deepEqual(at(0, 1, 20, 30), []);
    assert.deepEqual(at(0, 1, 19, 31), [10, 30]);
    assert.equal(v.start[visitAt(v, 0, 1, 35)], 30);
    assert.equal(visitAt(v, 0, 1, 25), -1);
    assert.equal(v.depth[deepestVisitAt(v, 0, 45)], 2);
    assert.equal(v.depth[deepestVisitAt(v, 0, 25)], 0);
    assert.equal(countVisits(v, 0, 0, 100), 4);
    assert.equal(countVisits(v, 0, 35, 36), 2);
    assert.equal(countVisits(v, 1, 60, 70), 0);
    // Parents: the nearest enclosing visit of the same location.
    const parentStart = (d, t) => v.start[v.parent[visitAt(v, 0, d, t)]];
    assert.equal(parentStart(2, 45), 30);
    assert.equal(parentStart(1, 15), 0);
    assert.equal(v.parent[visitAt(v, 1, 0, 10)], -1);
});

test('with a minimum duration, visit searches may skip shorter visits but keep every longer one', () => {
    const visits = [];
    for (let k = 0; k < 200; k++) visits.push([k * 1000, k * 1000 + (k % 10 === 0 ? 900 : 10), 0, 0, 0]);
    const v = smallModel({ visits }).visits;
    const seen = (min) => { const out = []; forEachVisit(v, 0, 0, 0, 1e6, (i) => out.push(v.start[i]), min); return out; };
    assert.equal(seen(0).length, 200);
    assert.deepEqual(seen(300), seen(0).filter((s) => s % 10000 === 0));
    assert.ok(seen(17).length >= 20);
    assert.deepEqual(seen(1e9), []);
});
