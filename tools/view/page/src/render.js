// SPDX-License-Identifier: BSD-3-Clause
// Draws the timeline on one canvas: rank headers and location labels in
// the gutter, the time ruler, per location row the regions (detail visits
// where they are complete and dense enough to read, else the pyramid bins
// with the long visits above them), messages, collectives, forks and joins,
// the drag selection and the hovered item's outline. Coordinates are CSS
// pixels, rounded to device pixels so region colours stay unblended.
import { COLLECTIVE_COLOR, MESSAGE_COLOR, THREAD_EVENT_COLOR } from './colors.js';
import { GUTTER, RULER, timelineHeight, timelineWidth, timeToX, rowToY, rowMiddle, laneBand } from './geometry.js';
import { laneRect } from './layout.js';
import { chooseLevel, countVisits, forEachRun, forEachVisit, windowsIn } from './lod.js';
import { axisTicks, formatTime } from './timefmt.js';
import { ticksPerPixel } from './viewport.js';
import { THREAD_FORK } from './format.js';

// Detail is drawn where a segment has at most this many visits per pixel.
export const DETAIL_VISITS_PER_PIXEL = 4;
// More visible messages than this are thinned out (every k-th is drawn):
// stroking thousands of lines costs tens of milliseconds in a software canvas.
export const MAX_MESSAGES_DRAWN = 1000;
const MAX_ARROWHEADS = 300;

// The time range split into window parts (detail available) and the rest.
export function segments(detail, t0, t1) {
    const inside = windowsIn(detail, t0, t1).sort((p, q) => p[0] - q[0]);
    const out = [];
    let t = t0;
    for (const [a, b] of inside) {
        if (a > t) out.push({ a: t, b: a, window: false });
        out.push({ a: Math.max(a, t), b, window: true });
        t = Math.max(t, b);
    }
    if (t < t1) out.push({ a: t, b: t1, window: false });
    return out;
}

class Painter {
    constructor(ctx, st) {
        this.ctx = ctx;
        this.st = st;
        this.dpr = st.dpr;
        this.xmin = GUTTER;
        this.xmax = st.width;
        this.paths = new Map();
    }

    clipX(x0, x1) {
        this.xmin = Math.max(GUTTER, x0);
        this.xmax = Math.min(this.st.width, x1);
    }

    // A rectangle of CSS pixels, snapped to device pixels; nothing when it
    // covers no device pixel centre. Rectangles are collected per colour
    // and filled at flush(): call it between layers that may overlap.
    band(x0, x1, y, h, color, alpha = 1) {
        const d = this.dpr;
        const X0 = Math.round(Math.max(x0, this.xmin) * d);
        const X1 = Math.round(Math.min(x1, this.xmax) * d);
        if (X1 <= X0) return;
        const Y0 = Math.round(y * d);
        const Y1 = Math.round((y + h) * d);
        if (Y1 <= Y0) return;
        const key = alpha === 1 ? color : `${color}/${alpha}`;
        let path = this.paths.get(key);
        if (!path) {
            path = new Path2D();
            this.paths.set(key, path);
        }
        path.rect(X0, Y0, X1 - X0, Y1 - Y0);
    }

    flush() {
        for (const [key, path] of this.paths) {
            const [color, alpha] = key.split('/');
            this.ctx.globalAlpha = alpha === undefined ? 1 : Number(alpha);
            this.ctx.fillStyle = color;
            this.ctx.fill(path);
        }
        this.paths.clear();
        this.ctx.globalAlpha = 1;
    }
}

function regionAlpha(st, r) {
    return st.highlight && !st.highlight.has(r) ? 0.15 : 1;
}

function drawVisits(p, st, row, a, b, minWidthPx) {
    const v = st.model.visits;
    const perDepth = v.lists[row.loc];
    if (!perDepth) return;
    const top = rowToY(st, 0);
    const minTicks = minWidthPx * ticksPerPixel(st.range, timelineWidth(st));
    for (let d = 0; d < perDepth.length; d++) {
        const band = laneRect(row, d);
        forEachVisit(v, row.loc, d, a, b, (i) => {
            const x0 = timeToX(st, v.start[i]);
            const x1 = timeToX(st, v.end[i]);
            if (x1 - x0 < minWidthPx) return;
            const r = v.region[i];
            p.band(x0, x1, top + band.y, band.h, st.colors[r], regionAlpha(st, r));
        }, minTicks);
        p.flush();
    }
}

function drawBins(p, st, row, a, b) {
    const levels = st.model.levels;
    const level = levels[chooseLevel(levels, ticksPerPixel(st.range, timelineWidth(st)))];
    if (!level) return;
    const top = rowToY(st, 0);
    forEachRun(level, row.loc, a, b, (s, e, r, depth) => {
        const band = laneRect(row, depth);
        p.band(timeToX(st, s), timeToX(st, e), top + band.y, band.h, st.colors[r], regionAlpha(st, r));
    });
    p.flush();
}

export function drawLocationRow(p, st, row, segs) {
    const width = timelineWidth(st);
    const span = st.range.t1 - st.range.t0;
    for (const seg of segs) {
        const px = ((seg.b - seg.a) / span) * width;
        p.clipX(timeToX(st, seg.a), timeToX(st, seg.b));
        const dense = seg.window &&
            countVisits(st.model.visits, row.loc, seg.a, seg.b) > DETAIL_VISITS_PER_PIXEL * Math.max(1, px);
        if (seg.window && !dense) {
            drawVisits(p, st, row, seg.a, seg.b, 0);
        } else {
            drawVisits(p, st, row, seg.a, seg.b, 2);
            drawBins(p, st, row, seg.a, seg.b);
        }
    }
    p.clipX(GUTTER, st.width);
}

function drawRowsBackground(ctx, st) {
    const { rows } = st.layout;
    const h = timelineHeight(st);
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (const row of rows) {
        const y = rowToY(st, row.y);
        if (y + row.h < RULER || y > RULER + h) continue;
        if (row.kind === 'group') {
            ctx.fillStyle = '#e8ecf2';
            ctx.fillRect(0, y, st.width, row.h);
            ctx.fillStyle = '#1f2937';
            ctx.font = 'bold 12px system-ui, sans-serif';
            ctx.fillText(`${row.collapsed ? '▸' : '▾'} ${row.name}`, 6, y + row.h / 2);
            ctx.font = '12px system-ui, sans-serif';
        } else {
            ctx.fillStyle = row.loc % 2 ? '#fafafa' : '#ffffff';
            ctx.fillRect(0, y, st.width, row.h);
            ctx.fillStyle = '#374151';
            ctx.fillText(row.name, 18, y + row.h / 2, GUTTER - 24);
        }
    }
}

function drawMessages(ctx, st) {
    const m = st.model.messages;
    if (!m.count) return;
    const { t0, t1 } = st.range;
    const visible = [];
    for (let i = 0; i < m.count; i++) {
        const a = Math.min(m.send[i], m.recv[i]);
        const b = Math.max(m.send[i], m.recv[i]);
        if (b >= t0 && a <= t1) visible.push(i);
    }
    const stride = Math.max(1, Math.ceil(visible.length / MAX_MESSAGES_DRAWN));
    ctx.strokeStyle = MESSAGE_COLOR;
    ctx.fillStyle = MESSAGE_COLOR;
    ctx.lineWidth = 1;
    // Many lines fade so the regions under them stay readable.
    ctx.globalAlpha = Math.max(0.1, Math.min(0.8, 150 / Math.max(1, visible.length / stride)));
    // One path for all lines and one for all arrowheads: two draw calls.
    const lines = new Path2D();
    const heads = new Path2D();
    for (let k = 0; k < visible.length; k += stride) {
        const i = visible[k];
        const x0 = timeToX(st, m.send[i]);
        const x1 = timeToX(st, m.recv[i]);
        const y0 = rowMiddle(st, m.sender[i]);
        const y1 = rowMiddle(st, m.receiver[i]);
        lines.moveTo(x0, y0);
        lines.lineTo(x1, y1);
        const angle = Math.atan2(y1 - y0, x1 - x0);
        if (visible.length / stride > MAX_ARROWHEADS) continue;
        heads.moveTo(x1, y1);
        heads.lineTo(x1 - 6 * Math.cos(angle - 0.4), y1 - 6 * Math.sin(angle - 0.4));
        heads.lineTo(x1 - 6 * Math.cos(angle + 0.4), y1 - 6 * Math.sin(angle + 0.4));
        heads.closePath();
    }
    ctx.stroke(lines);
    ctx.fill(heads);
    ctx.globalAlpha = 1;
}

// Markers are left out where more than one per few pixels would be visible.
function tooDense(times, t0, t1, st, perPixel) {
    let n = 0;
    const limit = (timelineWidth(st) / perPixel) * Math.max(1, st.model.locations.length / 4);
    for (let i = 0; i < times.length; i++) if (times[i] >= t0 && times[i] <= t1 && ++n > limit) return true;
    return false;
}

function drawCollectives(ctx, st) {
    const c = st.model.collectives;
    const { t0, t1 } = st.range;
    if (c.count && tooDense(c.end, t0, t1, st, 6)) return;
    ctx.fillStyle = COLLECTIVE_COLOR;
    for (let i = 0; i < c.count; i++) {
        if (c.end[i] < t0 || c.start[i] > t1) continue;
        const band = laneBand(st, c.loc[i], 0);
        if (!band) continue;
        const x0 = Math.max(GUTTER, timeToX(st, c.start[i]));
        const x1 = Math.min(st.width, timeToX(st, c.end[i]));
        ctx.fillRect(x0, band.y - 1, Math.max(1, x1 - x0), 2);
        ctx.fillRect(x0, band.y - 1, 1, 5);
        ctx.fillRect(Math.max(x0, x1 - 1), band.y - 1, 1, 5);
    }
}

function drawThreadEvents(ctx, st) {
    const te = st.model.threads;
    const { t0, t1 } = st.range;
    if (te.count && tooDense(te.time, t0, t1, st, 6)) return;
    ctx.fillStyle = THREAD_EVENT_COLOR;
    ctx.strokeStyle = THREAD_EVENT_COLOR;
    for (let i = 0; i < te.count; i++) {
        const t = te.time[i];
        if (t < t0 || t > t1) continue;
        const loc = te.loc[i];
        const band = laneBand(st, loc, 0);
        if (!band) continue;
        const x = timeToX(st, t);
        // A line down the rank's rows (the team), a triangle on the master row.
        const locs = st.model.locations;
        let last = loc;
        while (last + 1 < locs.length && locs[last + 1].group === locs[loc].group) last++;
        const bottom = laneBand(st, last, 0);
        ctx.globalAlpha = 0.5;
        ctx.beginPath();
        ctx.moveTo(x + 0.5, band.y);
        ctx.lineTo(x + 0.5, bottom ? bottom.y + st.layout.rows[st.layout.rowOfLocation[last]].h - 2 : band.y + band.h);
        ctx.stroke();
        ctx.globalAlpha = 1;
        const fork = te.kind[i] === THREAD_FORK;
        ctx.beginPath();
        ctx.moveTo(x, band.y);
        ctx.lineTo(x + (fork ? 5 : -5), band.y + 3);
        ctx.lineTo(x, band.y + 6);
        ctx.fill();
    }
}

function drawRuler(ctx, st) {
    const w = timelineWidth(st);
    ctx.fillStyle = '#f3f4f6';
    ctx.fillRect(0, 0, st.width, RULER);
    ctx.fillStyle = '#d1d5db';
    ctx.fillRect(0, RULER - 1, st.width, 1);
    const res = st.model.resolution;
    const { ticks, step, base } = axisTicks(st.range.t0 / res, st.range.t1 / res, w);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    ctx.fillStyle = '#374151';
    for (const s of ticks) {
        const x = timeToX(st, s * res);
        ctx.fillRect(Math.round(x), RULER - 9, 1, 8);
        const label = base ? `+${formatTime(s - base, step, step)}` : formatTime(s, step, ticks[ticks.length - 1]);
        ctx.fillText(label, x + 3, 5);
    }
    ctx.fillStyle = '#6b7280';
    ctx.fillText(base ? `from ${formatTime(base, step)}` : 'time', 6, 5);
    // Where the full detail is: a green line under the ruler.
    ctx.fillStyle = '#16a34a';
    for (const [a, b] of windowsIn(st.model.detail, st.range.t0, st.range.t1)) {
        const x0 = timeToX(st, a);
        ctx.fillRect(x0, RULER - 3, Math.max(1, timeToX(st, b) - x0), 2);
    }
}

function drawOverlay(ctx, st) {
    if (st.selection) {
        const x0 = Math.max(GUTTER, Math.min(st.selection.x0, st.selection.x1));
        const x1 = Math.min(st.width, Math.max(st.selection.x0, st.selection.x1));
        ctx.fillStyle = 'rgba(37, 99, 235, 0.15)';
        ctx.fillRect(x0, RULER, x1 - x0, st.height - RULER);
        ctx.strokeStyle = 'rgba(37, 99, 235, 0.8)';
        ctx.strokeRect(x0 + 0.5, RULER + 0.5, x1 - x0 - 1, st.height - RULER - 1);
    }
    const box = st.hoverBox;
    if (box) {
        ctx.strokeStyle = '#000000';
        ctx.lineWidth = 1.5;
        ctx.strokeRect(box.x + 0.5, box.y + 0.5, Math.max(1, box.w - 1), Math.max(1, box.h - 1));
        ctx.lineWidth = 1;
    }
}

export function render(ctx, st) {
    const d = st.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, st.width * d, st.height * d);
    ctx.setTransform(d, 0, 0, d, 0, 0);
    drawRowsBackground(ctx, st);
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, RULER, st.width - GUTTER, st.height - RULER);
    ctx.clip();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    const p = new Painter(ctx, st);
    const segs = segments(st.model.detail, st.range.t0, st.range.t1);
    const h = timelineHeight(st);
    for (const row of st.layout.rows) {
        if (row.kind !== 'location') continue;
        const y = rowToY(st, row.y);
        if (y + row.h < RULER || y > RULER + h) continue;
        drawLocationRow(p, st, row, segs);
    }
    ctx.globalAlpha = 1;
    ctx.setTransform(d, 0, 0, d, 0, 0);
    drawCollectives(ctx, st);
    drawThreadEvents(ctx, st);
    drawMessages(ctx, st);
    ctx.restore();
    ctx.setTransform(d, 0, 0, d, 0, 0);
    ctx.fillStyle = '#e5e7eb';
    ctx.fillRect(GUTTER - 1, RULER, 1, st.height - RULER);
    drawRuler(ctx, st);
    drawOverlay(ctx, st);
}
