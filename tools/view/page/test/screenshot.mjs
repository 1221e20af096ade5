#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
// A screenshot of a page for documentation, by the same headless Chromium
// as the tests: optionally zoomed to [FROM, TO] seconds and with the
// tooltip of the region under the middle of the first location's row.
//
//   node test/screenshot.mjs PAGE.html OUT.png [FROM_S TO_S] [--width W --height H]
import { launch, openPage } from './browser.mjs';

const args = process.argv.slice(2);
const opt = (flag, dflt) => { const i = args.indexOf(flag); return i >= 0 ? Number(args.splice(i, 2)[1]) : dflt; };
const width = opt('--width', 1400);
const height = opt('--height', 640);
const [file, out, from, to] = args;
if (!file || !out) {
    console.error('usage: node test/screenshot.mjs PAGE.html OUT.png [FROM_S TO_S] [--width W --height H]');
    process.exit(2);
}
const { context, close } = await launch({ width, height });
try {
    const { page, problems } = await openPage(context, file);
    if (problems.length) throw new Error(problems.join('; '));
    const point = await page.evaluate(([a, b]) => {
        const w = window.weftView;
        const res = w.model.resolution;
        if (a !== undefined) w.setRange({ t0: Number(a) * res, t1: Number(b) * res });
        w.redrawNow();
        const band = w.laneBand(0, Math.max(0, w.state.layout.lanes - 1));
        const r = w.canvasRect();
        return { x: r.x + 180 + (w.state.width - 180) * 0.42, y: r.y + band.y + band.h / 2 };
    }, [from, to]);
    await page.mouse.move(point.x - 2, point.y);
    await page.mouse.move(point.x, point.y);
    await page.waitForTimeout(300);
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
} finally {
    await close();
}
