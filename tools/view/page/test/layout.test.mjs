// SPDX-License-Identifier: BSD-3-Clause
// Row layout: rank headers then their locations, lanes per call depth that
// fit the height, deeper depths folded into the last lane, folded ranks.
import test from 'node:test';
import assert from 'node:assert/strict';
import { computeLayout, chooseLanes, laneRect, laneAt, rowAt, GROUP_HEADER_HEIGHT, MIN_ROW_HEIGHT } from '../src/layout.js';

const model = {
    groups: [{ name: 'MPI Rank 0' }, { name: 'MPI Rank 1' }],
    locations: [0, 0, 1, 1].map((group, index) => ({ index, group, name: `L${index}` })),
    maxDepth: Uint32Array.from([3, 2, 1, 1]),
};

test('each rank has a header row followed by its locations', () => {
    const lay = computeLayout(model, { height: 400 });
    assert.deepEqual(lay.rows.map((r) => r.kind), ['group', 'location', 'location', 'group', 'location', 'location']);
    assert.equal(lay.lanes, 3);
    for (let i = 1; i < lay.rows.length; i++) assert.equal(lay.rows[i].y, lay.rows[i - 1].y + lay.rows[i - 1].h);
    assert.deepEqual(Array.from(lay.rowOfLocation), [1, 2, 4, 5]);
    assert.ok(lay.totalHeight <= 400);
});

test('lanes shrink to fit and depths past the last lane share it', () => {
    assert.deepEqual(chooseLanes(1000, 4, 3, 'stacked'), { lanes: 3, laneHeight: 12 });
    const tight = chooseLanes(64 * 14, 64, 6, 'stacked');
    assert.ok(tight.lanes >= 1 && tight.lanes < 6);
    assert.ok(tight.lanes * tight.laneHeight + 2 >= MIN_ROW_HEIGHT);
    assert.deepEqual(chooseLanes(1000, 4, 3, 'flat').lanes, 1);
    const row = { y: 100, lanes: 2, laneHeight: 8 };
    assert.deepEqual(laneRect(row, 0), { y: 101, h: 7 });
    assert.deepEqual(laneRect(row, 5), laneRect(row, 1));
    assert.equal(laneAt(row, 101), 0);
    assert.equal(laneAt(row, 110), 1);
    assert.equal(laneAt(row, 500), 1);
});

test('a folded rank keeps only its header; rowAt finds rows by y', () => {
    const lay = computeLayout(model, { height: 400, collapsed: new Set([0]) });
    assert.deepEqual(lay.rows.map((r) => r.kind), ['group', 'group', 'location', 'location']);
    assert.equal(lay.rows[0].collapsed, true);
    assert.deepEqual(Array.from(lay.rowOfLocation), [-1, -1, 2, 3]);
    assert.equal(rowAt(lay, 0), 0);
    assert.equal(rowAt(lay, GROUP_HEADER_HEIGHT), 1);
    assert.equal(rowAt(lay, lay.totalHeight + 1), -1);
});
