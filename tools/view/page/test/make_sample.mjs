#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
// Writes sample pages from synthetic traces (lib/shapes.mjs) through the
// reference producer (lib/producer.mjs), with an expectations file per page
// for browser_test.mjs: places where the synthetic trace says which region
// runs (the middle of each location's longest innermost visits).
//
//   node test/make_sample.mjs --out DIR [--shapes openmp,mpi,hybrid,big] [--max-size BYTES]
//
// "medium" and "big" have 64 locations and about 10 and 100 million events;
// "big" takes half a minute or more.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHAPES, emit, definitions } from './lib/shapes.mjs';
import { produce, DEFAULT_MAX_BYTES } from './lib/producer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const TEMPLATE = path.join(here, '..', 'dist', 'weft-view-template.html');

// Per location the longest visits with nothing inside them, of `perLocation`
// different regions.
export function innermostVisits(shape, perLocation = 3) {
    const stacks = [];
    const best = [];
    let origin = null;
    const sink = {
        enter: (l, t, r) => {
            t = Math.floor(t);
            origin ??= t;
            const s = (stacks[l] ??= []);
            if (s.length) s[s.length - 1].child = true;
            s.push({ t, r, child: false });
        },
        leave: (l, t) => {
            t = Math.floor(t);
            const f = stacks[l].pop();
            if (f.child) return;
            const list = (best[l] ??= []);
            const v = { loc: l, start: f.t, end: t, region: f.r, depth: stacks[l].length };
            const same = list.findIndex((x) => x.region === v.region);
            if (same >= 0 && list[same].end - list[same].start >= t - f.t) return;
            if (same >= 0) list.splice(same, 1);
            list.push(v);
            list.sort((a, b) => (b.end - b.start) - (a.end - a.start));
            list.length = Math.min(list.length, perLocation);
        },
        message() {}, collective() {}, thread() {},
    };
    const range = emit(shape, sink);
    const o = Math.floor(range.start);
    return best.flat().filter(Boolean).map((v) => ({ ...v, start: v.start - o, end: v.end - o }));
}

export function expectations(shape) {
    const defs = definitions(shape);
    const checks = innermostVisits(shape).map((v) => {
        const d = v.end - v.start;
        return { loc: v.loc, location: defs.locations.name[v.loc], time: v.start + d / 2,
            region: defs.regions.name[v.region], depth: v.depth, zoom: [Math.max(0, v.start - 2 * d), v.end + 2 * d] };
    });
    return { shape: shape.name, checks };
}

export function makeSample(name, outDir, { maxBytes = DEFAULT_MAX_BYTES } = {}) {
    const shape = SHAPES[name]();
    const template = fs.readFileSync(TEMPLATE, 'utf8');
    const started = Date.now();
    const { page, header } = produce(shape, { maxBytes, template });
    const file = path.join(outDir, `${name}.html`);
    fs.writeFileSync(file, page);
    // For the big trace, innermost visits come from one more pass: skip it
    // and let the browser test derive its checks from the page alone.
    const expect = shape.locationCount >= 64 ? { shape: name, checks: [] } : expectations(shape);
    fs.writeFileSync(path.join(outDir, `${name}.expect.json`), `${JSON.stringify(expect, null, 1)}\n`);
    return { file, bytes: Buffer.byteLength(page), header, ms: Date.now() - started };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
    const arg = (flag, dflt) => {
        const i = process.argv.indexOf(flag);
        return i > 0 ? process.argv[i + 1] : dflt;
    };
    const out = arg('--out', '/tmp/weft-view-samples');
    const shapes = arg('--shapes', 'openmp,mpi,hybrid').split(',');
    const maxBytes = Number(arg('--max-size', DEFAULT_MAX_BYTES));
    fs.mkdirSync(out, { recursive: true });
    for (const name of shapes) {
        const r = makeSample(name, out, { maxBytes });
        const s = r.header.stats;
        const visits = r.header.tables.visits.count;
        console.log(`${r.file}: ${r.bytes} bytes, ${s.events} events, ${visits} of ${s.visits} visits embedded, ` +
            `${r.header.lod.levels.length} levels (finest ${r.header.lod.levels.at(-1).bins} bins), ${r.ms} ms`);
    }
}
