// SPDX-License-Identifier: BSD-3-Clause
// Small hand-made models for the unit tests.
import { indexVisits } from '../src/model.js';

// visits: [start, end, loc, depth, region]; written in leave order per
// location (sorted by end, deeper first on equal ends), as the format says.
export function visitTable(visits) {
    const sorted = [...visits].sort((a, b) => a[1] - b[1] || b[3] - a[3]);
    const col = (k, Type) => Type.from(sorted.map((v) => v[k]));
    return { count: sorted.length, columns: { end: col(1, Float64Array),
        dur: Float64Array.from(sorted.map((v) => v[1] - v[0])), loc: col(2, Uint32Array),
        depth: col(3, Uint32Array), region: col(4, Uint32Array) } };
}

export function smallModel({ visits, regions = ['A', 'B', 'C'], locations = 1, windows = [[0, 1000]], profile = null }) {
    return {
        regions: regions.map((name, index) => ({ index, name, paradigm: 'user', wait: 'none' })),
        locations: Array.from({ length: locations }, (_, index) => ({ index, group: 0, name: `L${index}` })),
        visits: indexVisits(visitTable(visits), locations),
        detail: { windows, min_duration: 0, truncated_at: null },
        profile,
    };
}
