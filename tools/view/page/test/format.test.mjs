// SPDX-License-Identifier: BSD-3-Clause
// Time units and axis ticks, region colours (stable, by family), viewport
// arithmetic.
import test from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, formatTime, niceStep, axisTicks, formatBytes, formatTimeInSpan } from '../src/timefmt.js';
import { hashName, colorOf, familyOf, FAMILIES } from '../src/colors.js';
import { zoomAt, panBy, clampRange, tickToX, xToTick } from '../src/viewport.js';

test('durations read in the best unit', () => {
    assert.equal(formatDuration(1.5), '1.5 s');
    assert.equal(formatDuration(0.0123), '12.3 ms');
    assert.equal(formatDuration(56.78e-6), '56.78 µs');
    assert.equal(formatDuration(3e-9), '3 ns');
    assert.equal(formatDuration(0), '0 s');
    assert.equal(formatBytes(8192), '8 KiB');
    assert.equal(formatBytes(100), '100 B');
});

test('axis ticks step by 1, 2 or 5 and count from a base when far from zero', () => {
    assert.equal(niceStep(0.013), 0.02);
    assert.equal(niceStep(0.3), 0.5);
    assert.equal(niceStep(7), 10);
    const a = axisTicks(0, 1, 1000, 100);
    assert.equal(a.step, 0.1);
    assert.equal(a.ticks.length, 11);
    assert.equal(a.base, 0);
    assert.equal(formatTime(0.3, 0.1), '300 ms');
    assert.equal(formatTime(2, 0.5), '2.0 s');
    assert.equal(formatTime(0.02, 0.01), '20 ms');
    const far = axisTicks(12.3, 12.3 + 1e-5, 1000, 100);
    assert.ok(far.base > 0 && far.base <= 12.3);
    // Labels counted from the base stay within a few dozen steps of it.
    const zoomed = axisTicks(0.8, 0.8025, 860, 90); // the README screenshot's view
    assert.ok(zoomed.base > 0.79 && zoomed.base <= 0.8);
    for (const t of zoomed.ticks) assert.ok(t - zoomed.base < 40 * zoomed.step, `tick ${t}`);
    assert.equal(formatTimeInSpan(0.0657, 0.0657), '65.70 ms');
});

test('region colours are stable and follow the paradigm family', () => {
    assert.equal(hashName(''), 0x811c9dc5);
    assert.equal(hashName('a'), 0xe40c292c);
    const mpi = { name: 'MPI_Allreduce', paradigm: 'mpi', wait: 'none' };
    assert.equal(colorOf(mpi), colorOf({ ...mpi }));
    assert.ok(FAMILIES.find((f) => f.key === 'mpi').palette.includes(colorOf(mpi)));
    assert.equal(familyOf({ paradigm: 'openmp', wait: 'implicit_barrier' }), 'openmp_wait');
    assert.equal(familyOf({ paradigm: 'openmp', wait: 'none' }), 'openmp');
    assert.equal(familyOf({ paradigm: 'measurement', wait: 'none' }), 'other');
    const omp = FAMILIES.find((f) => f.key === 'openmp_wait').palette;
    assert.ok(omp.includes(colorOf({ name: '!$omp barrier @a.c:3', paradigm: 'openmp', wait: 'barrier' })));
});

test('zoom keeps the anchor in place and the range inside the run', () => {
    const r = zoomAt({ t0: 0, t1: 1000 }, 0.5, 250, 1000);
    assert.deepEqual(r, { t0: 125, t1: 625 });
    assert.deepEqual(zoomAt(r, 100, 300, 1000), { t0: 0, t1: 1000 });
    assert.deepEqual(panBy({ t0: 100, t1: 200 }, 1000, 1000), { t0: 900, t1: 1000 });
    assert.deepEqual(clampRange(5, 6, 1000), { t0: 5, t1: 15 });
    assert.equal(xToTick({ t0: 100, t1: 200 }, 50, tickToX({ t0: 100, t1: 200 }, 50, 160)), 160);
});
