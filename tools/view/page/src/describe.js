// SPDX-License-Identifier: BSD-3-Clause
// What the tooltip says about a hit item: a title and label/value lines,
// as plain strings (the page puts them in with textContent, never as HTML).
import { COLLECTIVE_OPS, THREAD_FORK } from './format.js';
import { familyInfo, familyOf } from './colors.js';
import { formatBytes, formatDuration, formatTime } from './timefmt.js';

function seconds(model, ticks) {
    return ticks / model.resolution;
}

function at(model, ticks) {
    return formatTime(seconds(model, ticks), Math.max(1 / model.resolution, 1e-7));
}

export function locationLabel(model, loc) {
    const l = model.locations[loc];
    return l ? `${l.groupName} · ${l.name}` : `location ${loc}`;
}

function source(region) {
    if (!region.file) return 'unknown';
    return region.line ? `${region.file}:${region.line}` : region.file;
}

function enclosing(model, i) {
    const v = model.visits;
    const names = [];
    for (let p = v.parent[i]; p >= 0; p = v.parent[p]) names.push(model.regions[v.region[p]].name);
    return names.length ? names.reverse().join(' › ') : '(none)';
}

export function describe(model, hit) {
    if (!hit) return null;
    switch (hit.kind) {
    case 'visit': {
        const v = model.visits;
        const region = model.regions[v.region[hit.i]];
        return { title: region.name, color: region, lines: [
            ['kind', familyInfo(familyOf(region)).label],
            ['source', source(region)],
            ['location', locationLabel(model, v.loc[hit.i])],
            ['start', at(model, v.start[hit.i])],
            ['duration', formatDuration(seconds(model, v.end[hit.i] - v.start[hit.i]))],
            ['depth', String(v.depth[hit.i])],
            ['enclosing', enclosing(model, hit.i)],
        ] };
    }
    case 'bin': {
        const region = model.regions[hit.region];
        return { title: region.name, color: region, lines: [
            ['kind', `${familyInfo(familyOf(region)).label} (summary)`],
            ['source', source(region)],
            ['location', locationLabel(model, hit.loc)],
            ['interval', `${at(model, hit.start)} + ${formatDuration(seconds(model, hit.end - hit.start))}`],
            ['depth', String(hit.depth)],
            ['note', 'ran most of this interval; zoom in (or into a detail window) for single visits'],
        ] };
    }
    case 'message': {
        const m = model.messages;
        const comm = model.comms[m.comm[hit.i]];
        return { title: 'Message', lines: [
            ['sender', locationLabel(model, m.sender[hit.i])],
            ['receiver', locationLabel(model, m.receiver[hit.i])],
            ['tag', String(m.tag[hit.i])],
            ['bytes', formatBytes(m.bytes[hit.i])],
            ['communicator', comm ? comm.name : String(m.comm[hit.i])],
            ['sent', at(model, m.send[hit.i])],
            ['received', at(model, m.recv[hit.i])],
            ['transfer time', formatDuration(seconds(model, m.recv[hit.i] - m.send[hit.i]))],
        ] };
    }
    case 'collective': {
        const c = model.collectives;
        const comm = model.comms[c.comm[hit.i]];
        return { title: `Collective ${COLLECTIVE_OPS[c.op[hit.i]] ?? `op ${c.op[hit.i]}`}`, lines: [
            ['location', locationLabel(model, c.loc[hit.i])],
            ['communicator', comm ? comm.name : String(c.comm[hit.i])],
            ['root', c.root[hit.i] ? String(c.root[hit.i] - 1) : 'none'],
            ['sent', formatBytes(c.sent[hit.i])],
            ['received', formatBytes(c.received[hit.i])],
            ['start', at(model, c.start[hit.i])],
            ['duration', formatDuration(seconds(model, c.end[hit.i] - c.start[hit.i]))],
        ] };
    }
    case 'thread': {
        const te = model.threads;
        const fork = te.kind[hit.i] === THREAD_FORK;
        return { title: fork ? 'OpenMP fork' : 'OpenMP join', lines: [
            ['location', locationLabel(model, te.loc[hit.i])],
            ['time', at(model, te.time[hit.i])],
            ...(fork ? [['team size', String(te.team[hit.i])]] : []),
        ] };
    }
    default:
        return null;
    }
}
