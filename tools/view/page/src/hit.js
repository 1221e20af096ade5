// SPDX-License-Identifier: BSD-3-Clause
// What is under a point of the canvas: a message line, a collective's
// bracket, a fork or join, a detail visit, or a level-of-detail bin; or the
// header of a rank. Mirrors what render.js draws where.
import { GUTTER, RULER, timelineWidth, timeToX, xToTime, yToRow, rowMiddle, laneBand } from './geometry.js';
import { laneAt, laneOf, rowAt } from './layout.js';
import { binAt, chooseLevel, deepestVisitAt, visitAt } from './lod.js';
import { ticksPerPixel } from './viewport.js';

const NEAR_PX = 4;

function distanceToSegment(px, py, x0, y0, x1, y1) {
    const dx = x1 - x0;
    const dy = y1 - y0;
    const len2 = dx * dx + dy * dy;
    const f = len2 ? Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2)) : 0;
    return Math.hypot(px - (x0 + f * dx), py - (y0 + f * dy));
}

export function messageAt(st, x, y) {
    const m = st.model.messages;
    let best = -1;
    let bestDist = NEAR_PX;
    const { t0, t1 } = st.range;
    for (let i = 0; i < m.count; i++) {
        const a = Math.min(m.send[i], m.recv[i]);
        const b = Math.max(m.send[i], m.recv[i]);
        if (b < t0 || a > t1) continue;
        const dist = distanceToSegment(x, y, timeToX(st, m.send[i]), rowMiddle(st, m.sender[i]),
            timeToX(st, m.recv[i]), rowMiddle(st, m.receiver[i]));
        if (dist <= bestDist) {
            best = i;
            bestDist = dist;
        }
    }
    return best;
}

function markerAt(st, loc, x, y) {
    const c = st.model.collectives;
    const band = laneBand(st, loc, 0);
    if (!band || y > band.y + 3) return null;
    for (let i = 0; i < c.count; i++) {
        if (c.loc[i] !== loc) continue;
        if (x >= timeToX(st, c.start[i]) - 2 && x <= timeToX(st, c.end[i]) + 2) return { kind: 'collective', i };
    }
    const te = st.model.threads;
    for (let i = 0; i < te.count; i++) {
        if (te.loc[i] === loc && Math.abs(timeToX(st, te.time[i]) - x) <= NEAR_PX) return { kind: 'thread', i };
    }
    return null;
}

// A visit under the point: in the hovered lane (the last lane holds every
// deeper depth, its deepest visit on top), allowing a pixel either side.
function visitUnder(st, row, lane, t) {
    const v = st.model.visits;
    const tpp = ticksPerPixel(st.range, timelineWidth(st));
    for (const dt of [0, -tpp, tpp]) {
        const i = lane === row.lanes - 1 ? deepestVisitAt(v, row.loc, t + dt) : visitAt(v, row.loc, lane, t + dt);
        if (i >= 0 && laneOf(row, v.depth[i]) === lane) return i;
    }
    return -1;
}

export function hitTest(st, x, y) {
    if (x < 0 || y < RULER || y > st.height) return null;
    if (x >= GUTTER) {
        const m = messageAt(st, x, y);
        if (m >= 0) return { kind: 'message', i: m };
    }
    const r = rowAt(st.layout, yToRow(st, y));
    if (r < 0) return null;
    const row = st.layout.rows[r];
    if (row.kind === 'group') return { kind: 'group', group: row.group };
    if (x < GUTTER) return { kind: 'label', loc: row.loc };
    const marker = markerAt(st, row.loc, x, y);
    if (marker) return marker;
    const t = xToTime(st, x);
    const lane = laneAt(row, yToRow(st, y));
    const i = visitUnder(st, row, lane, t);
    if (i >= 0) return { kind: 'visit', i, loc: row.loc };
    const levels = st.model.levels;
    const level = levels[chooseLevel(levels, ticksPerPixel(st.range, timelineWidth(st)))];
    if (level) {
        const bin = binAt(level, row.loc, t);
        if (bin.region >= 0 && laneOf(row, bin.depth) === lane) return { kind: 'bin', loc: row.loc, ...bin };
    }
    return null;
}

// The outline of a hit item in canvas pixels, or null.
export function boxOf(st, hit) {
    if (!hit) return null;
    if (hit.kind === 'visit') {
        const v = st.model.visits;
        const band = laneBand(st, hit.loc, v.depth[hit.i]);
        if (!band) return null;
        const x0 = Math.max(GUTTER, timeToX(st, v.start[hit.i]));
        const x1 = Math.min(st.width, timeToX(st, v.end[hit.i]));
        return { x: x0, y: band.y, w: Math.max(1, x1 - x0), h: band.h };
    }
    if (hit.kind === 'bin') {
        const band = laneBand(st, hit.loc, hit.depth);
        if (!band) return null;
        const x0 = Math.max(GUTTER, timeToX(st, hit.start));
        const x1 = Math.min(st.width, timeToX(st, hit.end));
        return { x: x0, y: band.y, w: Math.max(1, x1 - x0), h: band.h };
    }
    return null;
}
