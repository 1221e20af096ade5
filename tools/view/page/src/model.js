// SPDX-License-Identifier: BSD-3-Clause
// The trace as the page uses it, built from the decoded header and tables:
// regions, locations grouped by rank, level-of-detail pyramid, profile bins,
// and the detail visits indexed per location and depth (each such list is
// sorted by start and by end at once, since visits at one depth of one
// location never overlap). Pure data; no DOM.
import { THREAD_FORK } from './format.js';

function columnsToRows(columns, names) {
    const n = columns[names[0]].length;
    const rows = [];
    for (let i = 0; i < n; i++) {
        const row = {};
        for (const key of names) row[key] = columns[key][i];
        rows.push(row);
    }
    return rows;
}

export function buildRegions(header) {
    const r = header.regions;
    return columnsToRows(r, ['name', 'paradigm', 'wait', 'role', 'file', 'line']).map((row, index) => ({
        index,
        name: row.name,
        paradigm: row.paradigm,
        wait: row.wait,
        role: row.role,
        file: row.file >= 0 ? header.files[row.file] : '',
        line: row.line,
    }));
}

export function buildLocations(header) {
    const groups = columnsToRows(header.groups, ['name', 'rank']).map((g, index) => ({ ...g, index }));
    const locations = columnsToRows(header.locations, ['name', 'group', 'type']).map((l, index) => ({
        ...l, index, groupName: groups[l.group] ? groups[l.group].name : '',
    }));
    return { groups, locations };
}

// Detail visits: start times, parent links (nearest enclosing visit present
// in the data, or -1), "recursive" flags (an enclosing visit has the same
// region: such a visit adds no inclusive time, as in `weft summary`), and
// per location and depth the visit indices in time order.
export function indexVisits(table, locationCount) {
    const n = table ? table.count : 0;
    const c = table ? table.columns : { end: new Float64Array(0), dur: new Float64Array(0),
        loc: new Uint32Array(0), depth: new Uint32Array(0), region: new Uint32Array(0) };
    const start = new Float64Array(n);
    for (let i = 0; i < n; i++) start[i] = c.end[i] - c.dur[i];
    const parent = new Int32Array(n).fill(-1);
    const recursive = new Uint8Array(n);
    // Rows arrive in leave order per location (post-order): a visit's
    // children come before it and are still on the pending stack.
    const pending = Array.from({ length: locationCount }, () => []);
    for (let i = 0; i < n; i++) {
        const stack = pending[c.loc[i]];
        while (stack.length && c.depth[stack[stack.length - 1]] > c.depth[i] &&
               start[stack[stack.length - 1]] >= start[i]) {
            parent[stack.pop()] = i;
        }
        stack.push(i);
    }
    const maxDepth = new Uint32Array(locationCount);
    const counts = Array.from({ length: locationCount }, () => []);
    for (let i = 0; i < n; i++) {
        const l = c.loc[i];
        const d = c.depth[i];
        if (d + 1 > maxDepth[l]) maxDepth[l] = d + 1;
        const perDepth = counts[l];
        while (perDepth.length <= d) perDepth.push(0);
        perDepth[d]++;
    }
    const lists = counts.map((perDepth) => perDepth.map((k) => ({ idx: new Uint32Array(k), n: 0 })));
    for (let i = 0; i < n; i++) {
        const list = lists[c.loc[i]][c.depth[i]];
        list.idx[list.n++] = i;
        for (let p = parent[i]; p >= 0; p = parent[p]) {
            if (c.region[p] === c.region[i]) {
                recursive[i] = 1;
                break;
            }
        }
    }
    const plain = lists.map((l) => l.map((x) => x.idx));
    return { count: n, start, end: c.end, loc: c.loc, depth: c.depth, region: c.region,
        parent, recursive, lists: plain, tiers: buildTiers(plain, start, c.end), maxDepth };
}

// Per location and depth, the visits at least TIER_BASE^k ticks long for
// k = 1, 2, ... (while any are), each list in time order: drawing only what
// is wide enough to see then skips the short visits without looking at them.
export const TIER_BASE = 16;

export function buildTiers(lists, start, end) {
    return lists.map((perDepth) => perDepth.map((idx) => {
        const tiers = [];
        let prev = idx;
        for (let min = TIER_BASE; prev.length; min *= TIER_BASE) {
            const next = prev.filter((i) => end[i] - start[i] >= min);
            if (next.length === 0) break;
            tiers.push(next);
            prev = next;
        }
        return tiers;
    }));
}

// The pyramid: levels finest first, each with its bin width and per location
// the dominant region (0 idle, else region index + 1) and its depth per bin.
export function buildLevels(header, tables) {
    const levels = [];
    for (const level of header.lod.levels) {
        const t = tables[level.table];
        if (!t) continue;
        levels.push({ bins: level.bins, width: level.width, region: t.columns.region, depth: t.columns.depth });
    }
    levels.sort((a, b) => a.width - b.width);
    return levels;
}

// Profile bins in compressed-row form: entries of bin b are first[b]..first[b+1).
export function buildProfileBins(header, table) {
    if (!table || !header.profile) return null;
    const { bins, width } = header.profile;
    const c = table.columns;
    const first = new Uint32Array(bins + 1);
    for (let i = 0; i < table.count; i++) first[c.bin[i] + 1]++;
    for (let b = 0; b < bins; b++) first[b + 1] += first[b];
    return { bins, width, first, region: c.region, visits: c.visits, incl: c.incl, excl: c.excl };
}

export function buildMessages(table) {
    if (!table) return { count: 0 };
    const c = table.columns;
    const send = new Float64Array(table.count);
    for (let i = 0; i < table.count; i++) send[i] = c.recv[i] - c.transfer[i];
    return { count: table.count, send, recv: c.recv, sender: c.sender, receiver: c.receiver,
        tag: c.tag, bytes: c.bytes, comm: c.comm };
}

export function buildCollectives(table) {
    if (!table) return { count: 0 };
    const c = table.columns;
    const start = new Float64Array(table.count);
    for (let i = 0; i < table.count; i++) start[i] = c.end[i] - c.dur[i];
    return { count: table.count, start, ...c };
}

export function buildThreadEvents(table) {
    if (!table) return { count: 0 };
    return { count: table.count, ...table.columns, FORK: THREAD_FORK };
}

export function buildModel(header, tables) {
    const { groups, locations } = buildLocations(header);
    const regions = buildRegions(header);
    const visits = indexVisits(tables.visits, locations.length);
    const levels = buildLevels(header, tables);
    const maxDepth = new Uint32Array(locations.length);
    for (let l = 0; l < locations.length; l++) maxDepth[l] = visits.maxDepth[l];
    for (const level of levels) {
        for (let l = 0; l < locations.length; l++) {
            const base = l * level.bins;
            for (let b = 0; b < level.bins; b++) {
                if (level.region[base + b] !== 0 && level.depth[base + b] + 1 > maxDepth[l]) {
                    maxDepth[l] = level.depth[base + b] + 1;
                }
            }
        }
        break; // the finest level has every depth the coarser ones have
    }
    const comms = header.comms ? columnsToRows(header.comms, ['name', 'size']) : [];
    return {
        header,
        resolution: header.timer.resolution,
        duration: header.timer.duration,
        regions, groups, locations, comms,
        maxDepth,
        visits,
        levels,
        profile: buildProfileBins(header, tables.profile),
        messages: buildMessages(tables.messages),
        collectives: buildCollectives(tables.collectives),
        threads: buildThreadEvents(tables.threads),
        detail: header.detail,
    };
}
