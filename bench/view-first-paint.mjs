#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
// Time to first paint of `weft view` pages in headless Chromium, and the
// time to draw one frame at a few zoom levels (whole run, a tenth, the
// detail window, a single iteration), from a fresh browser profile per run.
// Figures only, never pass/fail.
//
//   node bench/view-first-paint.mjs [PAGE.html ...] [--runs N]
//
// Without pages it writes the synthetic 10 M- and 100 M-event samples
// (tools/view/page/test/make_sample.mjs --shapes medium,big) into a
// temporary folder first. Needs `npm ci` in tools/view/page and Debian's
// chromium (scripts/install-deps).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, openPage } from '../tools/view/page/test/browser.mjs';
import { makeSample } from '../tools/view/page/test/make_sample.mjs';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
let pages = args.filter((a, i) => a.endsWith('.html') && i !== runsAt + 1);
if (pages.length === 0) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-view-bench-'));
    for (const name of ['medium', 'big']) {
        const r = makeSample(name, dir);
        console.log(`wrote ${r.file}: ${r.header.stats.events} events, ${(r.bytes / 1e6).toFixed(1)} MB in ${(r.ms / 1000).toFixed(1)} s`);
        pages.push(r.file);
    }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(file) {
    const { context, close } = await launch();
    try {
        const { page, problems } = await openPage(context, file);
        if (problems.length) throw new Error(problems.join('; '));
        return await page.evaluate(() => {
            const w = window.weftView;
            const d = w.model.duration;
            const win = w.model.detail.windows[0] ?? [0, d];
            const frame = (t0, t1) => {
                w.setRange({ t0, t1 });
                const a = performance.now();
                w.redrawNow();
                return performance.now() - a;
            };
            const mid = (win[0] + win[1]) / 2;
            const frames = {
                whole: frame(0, d),
                tenth: frame(d * 0.45, d * 0.55),
                window: frame(win[0], win[1]),
                iteration: frame(mid, mid + Math.min(3e6, (win[1] - win[0]) / 50)),
            };
            return { firstPaint: w.firstPaintMs, decode: w.decodeMs, events: w.model.header.stats.events, frames };
        });
    } finally {
        await close();
    }
}

for (const file of pages) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measure(file));
    const mb = fs.statSync(file).size / 1e6;
    const f = (key) => median(results.map((r) => r.frames[key])).toFixed(1);
    console.log(`${path.basename(file)}: ${results[0].events.toLocaleString('en-US')} events, ${mb.toFixed(1)} MB; ` +
        `first paint median ${median(results.map((r) => r.firstPaint)).toFixed(0)} ms ` +
        `(min ${Math.min(...results.map((r) => r.firstPaint)).toFixed(0)}, max ${Math.max(...results.map((r) => r.firstPaint)).toFixed(0)}, ${runs} runs), ` +
        `decoding ${median(results.map((r) => r.decode)).toFixed(0)} ms; ` +
        `one frame: whole run ${f('whole')} ms, a tenth ${f('tenth')} ms, detail window ${f('window')} ms, one iteration ${f('iteration')} ms`);
}
