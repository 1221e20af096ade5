// SPDX-License-Identifier: BSD-3-Clause
// A reference producer of the page data, in JavaScript, for the tests and
// benchmarks: reads a synthetic trace (shapes.mjs) in the passes
// VIEW-FORMAT.md prescribes for `weft view` (time range; pass A: pyramid,
// profile, histograms; plan; pass B: the detail) and writes a page from the
// built template. The C side implements the same steps on OTF2 traces.
import fs from 'node:fs';
import { DATA_MARKER, FORMAT_NAME, FORMAT_VERSION, TABLES } from '../../src/format.js';
import { LodBuilder, DURATION_EDGES, durationBucket } from './lodbuild.mjs';
import { TableWriter, packTable, tableElement, headerElement, uvarLength } from './encode.mjs';
import { definitions, emit } from './shapes.mjs';

export const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
export const MARGIN_BYTES = 64 * 1024;
export const SHARE = { pyramid: 0.35, profile: 0.10, markers: 0.15 };

const floorSink = (sink) => ({
    enter: (l, t, r) => sink.enter(l, Math.floor(t), r),
    leave: (l, t, r) => sink.leave(l, Math.floor(t), r),
    message: (a, ta, b, tb, tag, bytes, comm) => sink.message(a, Math.floor(ta), b, Math.floor(tb), tag, bytes, comm),
    collective: (l, b, e, op, comm, root, s, r) => sink.collective(l, Math.floor(b), Math.floor(e), op, comm, root, s, r),
    thread: (l, t, k, team) => sink.thread(l, Math.floor(t), k, team),
});

const noop = () => {};

// Output bytes of `raw` uncompressed bytes as base64 lines of 76, a bound
// on what its compressed form takes.
export function encodedBound(raw) {
    const b64 = 4 * Math.ceil((raw + 16) / 3);
    return b64 + Math.ceil(b64 / 76) + 120;
}

function encodeLevel(level, locationCount) {
    const w = new TableWriter(TABLES.lod);
    const n = level.bins * locationCount;
    for (let i = 0; i < n; i++) w.add(level.region[i], level.depth[i]);
    return packTable(TABLES.lod, n, w.finish());
}

function encodeProfile(lod, merge) {
    const R = lod.regionCount;
    const bins = lod.profileBins / merge;
    const w = new TableWriter(TABLES.profile);
    const p = lod.profile;
    for (let b = 0; b < bins; b++) {
        for (let r = 0; r < R; r++) {
            let visits = 0;
            let incl = 0;
            let excl = 0;
            for (let k = b * merge; k < (b + 1) * merge; k++) {
                visits += p.visits[k * R + r];
                incl += p.incl[k * R + r];
                excl += p.excl[k * R + r];
            }
            if (visits || incl || excl) w.add(b, r, visits, Math.round(incl), Math.round(excl));
        }
    }
    return { bins, width: lod.profileWidth * merge, table: packTable(TABLES.profile, w.count, w.finish()) };
}

// The smallest histogram edge above which at most `budget` items lie.
export function thresholdFor(histogram, budget) {
    let above = 0;
    let k = histogram.length;
    while (k > 0 && above + histogram[k - 1] <= budget) {
        above += histogram[k - 1];
        k--;
    }
    return { min: k < histogram.length ? DURATION_EDGES[k] : Infinity, count: above };
}

// The window around the middle of the run holding at most `budget` visit
// overlaps, grown one finest bin at a time on alternate sides.
export function chooseWindow(overlap, width, duration, budget) {
    const n = overlap.length;
    let lo = Math.floor(n / 2);
    let hi = lo;
    let sum = 0;
    let grew = true;
    while (grew) {
        grew = false;
        if (hi < n && sum + overlap[hi] <= budget) { sum += overlap[hi++]; grew = true; }
        if (lo > 0 && sum + overlap[lo - 1] <= budget) { sum += overlap[--lo]; grew = true; }
    }
    if (hi === lo) return null;
    return [lo * width, Math.min(hi * width, duration + 1)];
}

const overlaps = (a, b, windows) => windows.some(([s, e]) => a < e && b > s);

export function produce(shape, { maxBytes = DEFAULT_MAX_BYTES, template, generator = 'weft-view sample generator',
    profileBins = 4096 } = {}) {
    const defs = definitions(shape);
    const regionCount = defs.regions.name.length;
    const locationCount = defs.locations.name.length;
    // Pass 0: the time range (the C side takes it from ClockProperties).
    const range = emit(shape, floorSink({ enter: noop, leave: noop, message: noop, collective: noop, thread: noop }));
    const origin = Math.floor(range.start);
    const duration = Math.floor(range.end) - origin;
    const rel = (t) => t - origin;

    // Pass A.
    const lod = new LodBuilder({ duration, locationCount, regionCount, profileBins });
    const stats = { events: 0, visits: 0, messages: 0, collectives: 0, thread_events: 0 };
    const transfers = new Float64Array(DURATION_EDGES.length);
    let messageBytes = 0;
    let collectiveBytes = 0;
    let threadBytes = 0;
    emit(shape, floorSink({
        enter: (l, t, r) => { stats.events++; lod.enter(l, rel(t), r); },
        leave: (l, t, r) => { stats.events++; stats.visits++; lod.leave(l, rel(t), r); },
        message: (a, ta, b, tb, tag, bytes) => {
            stats.events += 2; stats.messages++;
            transfers[durationBucket(Math.abs(tb - ta))]++;
            messageBytes += 3 + uvarLength(Math.abs(tb - ta) * 2) + uvarLength(tag) + uvarLength(bytes) + 3;
        },
        collective: (l, b, e, op, comm, root, s, r) => {
            stats.events += 2; stats.collectives++;
            collectiveBytes += uvarLength(e - b) + 4 + uvarLength(s) + uvarLength(r) + 3;
        },
        thread: () => { stats.events++; stats.thread_events++; threadBytes += 6; },
    }));
    lod.finish();

    // Plan (section "Size budget").
    const header = {
        format: FORMAT_NAME, version: FORMAT_VERSION, generator,
        trace: `synthetic:${shape.name}`, created: new Date(0).toISOString(),
        timer: { resolution: shape.resolution, origin: String(origin), duration },
        stats: { ...stats, locations: locationCount },
        budget: { max_bytes: maxBytes },
        files: defs.files, regions: defs.regions, groups: defs.groups, locations: defs.locations,
        comms: defs.comms,
        lod: { levels: [] }, profile: null, detail: null, tables: {},
    };
    const templateBytes = Buffer.byteLength(template);
    const fixed = templateBytes + Buffer.byteLength(headerElement(header)) + 16 * 1024 + MARGIN_BYTES;
    const rest = maxBytes - fixed;
    if (rest <= 0) throw new Error(`--max-size ${maxBytes} leaves no room for data`);
    const elements = [];
    let used = fixed;
    const addTable = (name, packed) => {
        const el = tableElement(name, packed.text);
        elements.push(el);
        header.tables[name] = packed.spec;
        used += Buffer.byteLength(el);
        return Buffer.byteLength(el);
    };

    // Pyramid: coarsest level first, finer ones while they fit.
    let pyramidLeft = SHARE.pyramid * rest;
    const levels = [...lod.levels].reverse();
    for (let i = 0; i < levels.length; i++) {
        const packed = encodeLevel(levels[i], locationCount);
        const size = Buffer.byteLength(tableElement('lod', packed.text)) + 8;
        if (size > pyramidLeft && i > 0) break;
        if (size > pyramidLeft) throw new Error('too many locations for this --max-size: raise it');
        const name = `lod${lod.levels.indexOf(levels[i])}`;
        pyramidLeft -= addTable(name, packed);
        header.lod.levels.push({ bins: levels[i].bins, width: levels[i].width, table: name });
    }

    // Profile: merge bin pairs until it fits.
    for (let merge = 1; ; merge *= 2) {
        const p = encodeProfile(lod, merge);
        const size = Buffer.byteLength(tableElement('profile', p.table.text));
        if (size <= SHARE.profile * rest || p.bins === 1) {
            addTable('profile', p.table);
            header.profile = { bins: p.bins, width: p.width, table: 'profile' };
            break;
        }
    }

    // Detail: everything if it fits, else long visits and a window.
    const markersAll = encodedBound(messageBytes + collectiveBytes + threadBytes) <= SHARE.markers * rest;
    const markerBudget = markersAll ? encodedBound(messageBytes + collectiveBytes + threadBytes) : SHARE.markers * rest;
    const detailBudget = maxBytes - used - markerBudget;
    const perVisit = lod.visitCount ? lod.visitBytes / lod.visitCount : 8;
    let windows;
    let minDuration;
    if (encodedBound(lod.visitBytes) <= detailBudget) {
        windows = [[0, duration + 1]];
        minDuration = 0;
    } else {
        const k = Math.floor(detailBudget / (encodedBound(perVisit * 1000) / 1000) / 1.25);
        const long = thresholdFor(lod.durations, Math.floor(0.4 * k));
        minDuration = long.min === Infinity ? null : long.min;
        const w = chooseWindow(lod.overlapCounts(), lod.width0, duration, k - long.count);
        windows = w ? [w] : [];
    }
    let minTransfer = null;
    if (!markersAll) {
        const perMessage = stats.messages ? messageBytes / stats.messages : 12;
        minTransfer = thresholdFor(transfers, Math.floor(0.3 * markerBudget / (encodedBound(perMessage * 1000) / 1000))).min;
        if (minTransfer === Infinity) minTransfer = null;
    }

    // Pass B: the selected visits and markers.
    const sel = { visits: [], messages: [], collectives: [], threads: [] };
    const stacks = Array.from({ length: locationCount }, () => []);
    const markerIn = (a, b) => markersAll || overlaps(a, b + 1, windows);
    emit(shape, floorSink({
        enter: (l, t) => { stacks[l].push(rel(t)); },
        leave: (l, t, r) => {
            const start = stacks[l].pop();
            const end = rel(t);
            const depth = stacks[l].length;
            if ((minDuration !== null && end - start >= minDuration) || overlaps(start, end + 1, windows)) {
                sel.visits.push([end, end - start, l, depth, r]);
            }
        },
        message: (a, ta, b, tb, tag, bytes, comm) => {
            const s = rel(ta);
            const e = rel(tb);
            if (markerIn(Math.min(s, e), Math.max(s, e)) || (minTransfer !== null && Math.abs(e - s) >= minTransfer)) {
                sel.messages.push([e, e - s, a, b, tag, bytes, comm]);
            }
        },
        collective: (l, b, e, op, comm, root, sent, recvd) => {
            if (markerIn(rel(b), rel(e))) sel.collectives.push([rel(e), e - b, l, op, comm, root + 1, sent, recvd]);
        },
        thread: (l, t, kind, team) => { if (markerIn(rel(t), rel(t))) sel.threads.push([rel(t), l, kind, team]); },
    }));
    const byFirst = (a, b) => a[0] - b[0];
    for (const key of ['visits', 'messages', 'collectives', 'threads']) sel[key].sort(byFirst);
    for (const key of ['messages', 'collectives', 'threads']) {
        const w = new TableWriter(TABLES[key]);
        for (const row of sel[key]) w.add(...row);
        addTable(key, packTable(TABLES[key], w.count, w.finish()));
    }
    // The hard stop: keep the longest prefix (by end time) that fits.
    let keep = sel.visits.length;
    let truncatedAt = null;
    for (;;) {
        const w = new TableWriter(TABLES.visits);
        for (let i = 0; i < keep; i++) w.add(...sel.visits[i]);
        const packed = packTable(TABLES.visits, w.count, w.finish());
        const size = Buffer.byteLength(tableElement('visits', packed.text));
        if (used + size <= maxBytes - MARGIN_BYTES || keep === 0) {
            addTable('visits', packed);
            if (keep < sel.visits.length) truncatedAt = sel.visits[keep][0];
            break;
        }
        keep = Math.floor(keep * 0.9);
    }
    header.detail = { windows, min_duration: minDuration, min_transfer: minTransfer,
        markers: markersAll ? 'all' : 'windows', truncated_at: truncatedAt };
    header.budget.planned = { pyramid: SHARE.pyramid * rest, profile: SHARE.profile * rest,
        markers: markerBudget, detail: detailBudget };
    const data = headerElement(header) + elements.join('');
    const page = template.replace(DATA_MARKER, () => data);
    if (Buffer.byteLength(page) > maxBytes) throw new Error(`page of ${Buffer.byteLength(page)} bytes > ${maxBytes}`);
    return { page, header, selected: sel };
}

export function writePage(path, shape, opts) {
    const out = produce(shape, opts);
    fs.writeFileSync(path, out.page);
    return out;
}
