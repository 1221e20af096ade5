// SPDX-License-Identifier: BSD-3-Clause
// The profile of a range: exact from the detail (a region entered inside
// itself counts once in inclusive time, exclusive time is inclusive less the
// regions inside), and from the profile bins, which match it on whole bins.
import test from 'node:test';
import assert from 'node:assert/strict';
import { exactProfile, binnedProfile, rangeProfile } from '../src/profile.js';
import { buildProfileBins } from '../src/model.js';
import { LodBuilder } from './lib/lodbuild.mjs';
import { smallModel } from './helpers.mjs';

// A [0,10) holds A [2,6) (recursion) which holds B [3,5); C [20,30) after.
const VISITS = [[0, 10, 0, 0, 0], [2, 6, 0, 1, 0], [3, 5, 0, 2, 1], [20, 30, 0, 0, 2]];

function profileBinsOf(visits, duration, bins) {
    const b = new LodBuilder({ duration, locationCount: 1, regionCount: 3, profileBins: bins });
    const events = [];
    for (const [s, e, , , r] of visits) { events.push([s, 1, r, -e]); events.push([e, 0, r, -s]); }
    // Time order; leaves before enters at one time; inner leaves first, outer enters first.
    events.sort((p, q) => p[0] - q[0] || p[1] - q[1] || (p[1] ? q[3] - p[3] : p[3] - q[3]));
    for (const [t, enter, r] of events) (enter ? b.enter : b.leave).call(b, 0, t, r);
    b.finish();
    const n = b.profileBins;
    const rows = { bin: [], region: [], visits: [], incl: [], excl: [] };
    for (let bin = 0; bin < n; bin++) {
        for (let r = 0; r < 3; r++) {
            const k = bin * 3 + r;
            if (!b.profile.visits[k] && !b.profile.incl[k] && !b.profile.excl[k]) continue;
            rows.bin.push(bin); rows.region.push(r); rows.visits.push(b.profile.visits[k]);
            rows.incl.push(b.profile.incl[k]); rows.excl.push(b.profile.excl[k]);
        }
    }
    const columns = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, Float64Array.from(v)]));
    return buildProfileBins({ profile: { bins: n, width: b.profileWidth } }, { count: rows.bin.length, columns });
}

test('exact profile: recursion counts once in inclusive time', () => {
    const m = smallModel({ visits: VISITS });
    const p = exactProfile(m, 0, 100);
    assert.deepEqual(Array.from(p.visits), [2, 1, 1]);
    assert.deepEqual(Array.from(p.incl), [10, 2, 10]);
    assert.deepEqual(Array.from(p.excl), [8, 2, 10]);
});

test('exact profile of part of the run clips visits to it', () => {
    const m = smallModel({ visits: VISITS });
    const p = exactProfile(m, 1, 4);
    assert.deepEqual(Array.from(p.visits), [1, 1, 0]);
    assert.deepEqual(Array.from(p.incl), [3, 1, 0]);
    assert.deepEqual(Array.from(p.excl), [2, 1, 0]);
});

test('binned profile equals the exact one over whole bins and pro-rates partial bins', () => {
    const profile = profileBinsOf(VISITS, 31, 8);
    const m = smallModel({ visits: VISITS, profile });
    const whole = binnedProfile(m, 0, profile.bins * profile.width);
    const exact = exactProfile(m, 0, 100);
    assert.deepEqual(Array.from(whole.incl), Array.from(exact.incl));
    assert.deepEqual(Array.from(whole.excl), Array.from(exact.excl));
    assert.deepEqual(Array.from(whole.visits), Array.from(exact.visits));
    // C runs [20,30); half of a bin that C fills counts half.
    const w = profile.width;
    const bin = Math.floor(24 / w);
    const half = binnedProfile(m, bin * w, bin * w + w / 2);
    assert.equal(half.excl[2], Math.min(w, 30 - bin * w, (bin + 1) * w - 20) / 2);
});

test('rangeProfile uses the detail inside a window, the bins outside, and sorts by inclusive time', () => {
    const profile = profileBinsOf(VISITS, 31, 8);
    const m = smallModel({ visits: VISITS, profile, windows: [[0, 12]] });
    const inside = rangeProfile(m, 0, 12);
    assert.equal(inside.exact, true);
    assert.deepEqual(inside.rows.map((r) => r.region), [0, 1]);
    assert.equal(inside.root, 10);
    const outside = rangeProfile(m, 0, 32);
    assert.equal(outside.exact, false);
    assert.equal(outside.binWidth, profile.width);
    assert.deepEqual(outside.rows.map((r) => [r.region, r.incl]), [[0, 10], [2, 10], [1, 2]]);
    assert.deepEqual(outside.paradigms, [{ paradigm: 'user', visits: 4, excl: 20 }]);
});
