// SPDX-License-Identifier: BSD-3-Clause
// Vertical layout of the timeline: a header row per location group (rank),
// then a row per location of that group; inside a row, one lane per call
// depth ("stacked") or a single lane ("flat"). Depths beyond the last lane
// are drawn into it, deepest on top, so the bottom lane always shows the
// innermost region. Pure functions of counts and sizes.

export const GROUP_HEADER_HEIGHT = 18;
export const MIN_LANE_HEIGHT = 4;
export const MAX_LANE_HEIGHT = 12;
export const MIN_ROW_HEIGHT = 12;
export const FLAT_ROW_HEIGHT = 24;

// Lane count and height for `locationCount` rows sharing `available` pixels.
export function chooseLanes(available, locationCount, depthCount, mode) {
    const rows = Math.max(1, locationCount);
    if (mode === 'flat' || depthCount <= 1) {
        const h = Math.max(MIN_ROW_HEIGHT, Math.min(FLAT_ROW_HEIGHT, Math.floor(available / rows)));
        return { lanes: 1, laneHeight: h - 2 };
    }
    const fit = Math.floor(available / (rows * depthCount));
    if (fit >= MIN_LANE_HEIGHT) {
        return { lanes: depthCount, laneHeight: Math.min(MAX_LANE_HEIGHT, fit) };
    }
    // Not every depth fits: give each row at least MIN_ROW_HEIGHT and as
    // many lanes of MIN_LANE_HEIGHT as that holds.
    const rowHeight = Math.max(MIN_ROW_HEIGHT, Math.floor(available / rows));
    const lanes = Math.max(1, Math.min(depthCount, Math.floor((rowHeight - 2) / MIN_LANE_HEIGHT)));
    return { lanes, laneHeight: Math.floor((rowHeight - 2) / lanes) };
}

// Rows in display order, each {kind, y, h, ...}; y from 0 at the first row.
// `collapsed` is a Set of group indices whose location rows are hidden.
export function computeLayout(model, { height, mode = 'stacked', collapsed = new Set() }) {
    const { groups, locations } = model;
    let depthCount = 1;
    for (let l = 0; l < locations.length; l++) depthCount = Math.max(depthCount, model.maxDepth[l]);
    const visibleGroups = new Set(locations.map((l) => l.group));
    const shown = locations.filter((l) => !collapsed.has(l.group));
    const available = Math.max(0, height - visibleGroups.size * GROUP_HEADER_HEIGHT);
    const { lanes, laneHeight } = chooseLanes(available, shown.length, depthCount, mode);
    const rowHeight = lanes * laneHeight + 2;
    const rows = [];
    let y = 0;
    let lastGroup = -1;
    for (const loc of locations) {
        if (loc.group !== lastGroup) {
            lastGroup = loc.group;
            rows.push({ kind: 'group', group: loc.group, name: groups[loc.group]?.name ?? '',
                collapsed: collapsed.has(loc.group), y, h: GROUP_HEADER_HEIGHT });
            y += GROUP_HEADER_HEIGHT;
        }
        if (collapsed.has(loc.group)) continue;
        rows.push({ kind: 'location', loc: loc.index, name: loc.name, group: loc.group,
            y, h: rowHeight, lanes, laneHeight });
        y += rowHeight;
    }
    const rowOfLocation = new Int32Array(locations.length).fill(-1);
    rows.forEach((r, i) => { if (r.kind === 'location') rowOfLocation[r.loc] = i; });
    return { rows, totalHeight: y, lanes, laneHeight, depthCount, rowOfLocation };
}

export function laneOf(row, depth) {
    return Math.min(depth, row.lanes - 1);
}

// The pixel band {y, h} (relative to the first row) of `depth` in a location row.
export function laneRect(row, depth) {
    const lane = laneOf(row, depth);
    const gap = row.laneHeight >= 6 ? 1 : 0;
    return { y: row.y + 1 + lane * row.laneHeight, h: row.laneHeight - gap };
}

// The row at y (relative to the first row), or -1.
export function rowAt(layout, y) {
    const rows = layout.rows;
    let lo = 0;
    let hi = rows.length - 1;
    while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const r = rows[mid];
        if (y < r.y) hi = mid - 1;
        else if (y >= r.y + r.h) lo = mid + 1;
        else return mid;
    }
    return -1;
}

// The lane under y in a location row (0 = outermost).
export function laneAt(row, y) {
    const lane = Math.floor((y - row.y - 1) / row.laneHeight);
    return Math.max(0, Math.min(row.lanes - 1, lane));
}
