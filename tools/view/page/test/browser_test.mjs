#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
// Opens a page `weft view` (or make_sample.mjs) wrote in headless Chromium
// and checks it as a user sees it:
//   (a) no console errors, exceptions or network requests;
//   (b) timeline pixels have the colour of the region running there: at
//       innermost visits found in the page's own detail data (inside its
//       detail windows) and at the places EXPECT.json names;
//   (c) zoom by wheel, button and shift+drag, pan by key, and hover tooltips
//       for a visit and a message, all through synthetic input events;
//   (d) a screenshot of the whole run, saved as OUT.png.
//
//   node test/browser_test.mjs PAGE.html OUT.png [EXPECT.json]
//
// Ends with "N passed, M failed"; exit status 1 when any check failed.
import fs from 'node:fs';
import { launch, openPage } from './browser.mjs';
import { colorOf, rgbOf } from '../src/colors.js';

const AUTO_CHECKS = 8;
const results = [];

function record(name, ok, detail = '') {
    results.push({ name, ok });
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

// Innermost visits (no visit of the data inside them) lying inside a detail
// window: per location and region the longest, every region before any twice.
async function autoChecks(page) {
    return page.evaluate((limit) => {
        const m = window.weftView.model;
        const v = m.visits;
        const hasChild = new Uint8Array(v.count);
        for (let i = 0; i < v.count; i++) if (v.parent[i] >= 0) hasChild[v.parent[i]] = 1;
        const inWindow = (a, b) => m.detail.windows.some(([s, e]) => a >= s && b <= e) &&
            (m.detail.truncated_at === null || b <= m.detail.truncated_at);
        const best = new Map();
        for (let i = 0; i < v.count; i++) {
            const d = v.end[i] - v.start[i];
            if (hasChild[i] || d <= 0 || !inWindow(v.start[i], v.end[i])) continue;
            const key = `${v.loc[i]}/${v.region[i]}`;
            const cur = best.get(key);
            if (cur === undefined || d > v.end[cur] - v.start[cur]) best.set(key, i);
        }
        // Longest first, but every region once before any region twice.
        const seen = new Map();
        const order = [...best.values()].sort((a, b) => (v.end[b] - v.start[b]) - (v.end[a] - v.start[a]))
            .map((i) => [i, seen.set(v.region[i], (seen.get(v.region[i]) ?? 0) + 1).get(v.region[i])])
            .sort((a, b) => a[1] - b[1]).map(([i]) => i);
        return order.slice(0, limit).map((i) => {
                const d = v.end[i] - v.start[i];
                return { loc: v.loc[i], time: v.start[i] + d / 2, region: m.regions[v.region[i]].name,
                    depth: v.depth[i], zoom: [v.start[i] - d, v.end[i] + d] };
            });
    }, AUTO_CHECKS);
}

// The colour at three points across the middle of a check's lane, after
// showing its zoom range.
async function pixelsAt(page, check) {
    return page.evaluate((c) => {
        const w = window.weftView;
        w.setRange({ t0: c.zoom[0], t1: c.zoom[1] });
        w.showLocation(c.loc);
        w.redrawNow();
        const band = w.laneBand(c.loc, c.depth);
        if (!band) return null;
        const canvas = document.getElementById('timeline-canvas');
        const ctx = canvas.getContext('2d');
        const dpr = w.state.dpr;
        const span = (c.zoom[1] - c.zoom[0]) / 3;
        const y = band.y + band.h / 2;
        return [-0.1, 0, 0.1].map((f) => {
            const x = w.timeToX(c.time + f * span);
            const px = ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data;
            return { x, y, rgb: [px[0], px[1], px[2]] };
        });
    }, check);
}

const near = (a, b) => a.every((v, k) => Math.abs(v - b[k]) <= 2);

async function checkPixels(page, regions, checks, label) {
    for (const c of checks) {
        const region = regions.find((r) => r.name === c.region);
        if (!region) {
            record(`${label}: ${c.region}`, false, 'no such region in the page');
            continue;
        }
        const want = rgbOf(colorOf(region));
        const got = await pixelsAt(page, c);
        const hits = got ? got.filter((p) => near(p.rgb, want)).length : 0;
        record(`${label}: ${c.region} on location ${c.loc} at tick ${Math.round(c.time)}`, hits >= 2,
            `want rgb(${want}), got ${got ? got.map((p) => `rgb(${p.rgb})`).join(' ') : 'no row'}`);
    }
}

async function viewRange(page) {
    return page.evaluate(() => ({ ...window.weftView.state.range }));
}

async function tooltipText(page) {
    await page.waitForSelector('#tooltip:not([hidden])', { timeout: 5000 }).catch(() => {});
    return page.evaluate(() => {
        const t = document.getElementById('tooltip');
        return t.hidden ? '' : t.innerText;
    });
}

async function canvasPoint(page, x, y) {
    const r = await page.evaluate(() => window.weftView.canvasRect());
    return [r.x + x, r.y + y];
}

async function interact(page, target) {
    const all = await page.evaluate(() => ({ t0: 0, t1: window.weftView.model.duration }));
    await page.evaluate(([r, loc]) => {
        window.weftView.setRange(r);
        window.weftView.showLocation(loc);
        window.weftView.redrawNow();
    }, [all, target.loc]);
    // Wheel over the target zooms in around it.
    const x = await page.evaluate((t) => window.weftView.timeToX(t), target.time);
    const band = await page.evaluate((c) => window.weftView.laneBand(c.loc, c.depth), target);
    let [px, py] = await canvasPoint(page, x, band.y + band.h / 2);
    await page.mouse.move(px, py);
    await page.mouse.wheel(0, -400);
    await page.waitForFunction((t1) => window.weftView.state.range.t1 !== t1, all.t1, { timeout: 5000 }).catch(() => {});
    const zoomed = await viewRange(page);
    const anchorAfter = await page.evaluate((t) => window.weftView.timeToX(t), target.time);
    record('wheel zooms in around the pointer', zoomed.t1 - zoomed.t0 < (all.t1 - all.t0) * 0.7 &&
        Math.abs(anchorAfter - x) < 3, `span ${all.t1 - all.t0} -> ${zoomed.t1 - zoomed.t0}, pointer x ${x} -> ${anchorAfter}`);
    // The + button halves the span.
    await page.click('#zoom-in');
    await page.waitForFunction((s) => window.weftView.state.range.t1 - window.weftView.state.range.t0 < s * 0.9,
        zoomed.t1 - zoomed.t0, { timeout: 5000 }).catch(() => {});
    const button = await viewRange(page);
    const ratio = (button.t1 - button.t0) / (zoomed.t1 - zoomed.t0);
    record('the + button halves the visible span', Math.abs(ratio - 0.5) < 0.01 || button.t1 - button.t0 <= 10,
        `ratio ${ratio.toFixed(3)}`);
    // Shift+drag selects a range to zoom to.
    const start = await canvasPoint(page, 400, 200);
    await page.keyboard.down('Shift');
    await page.mouse.move(start[0], start[1]);
    await page.mouse.down();
    await page.mouse.move(start[0] + 100, start[1], { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    const selected = await viewRange(page);
    const width = await page.evaluate(() => window.weftView.state.width - 180);
    const expected = ((button.t1 - button.t0) * 100) / width;
    record('shift+drag zooms to the selected range', Math.abs((selected.t1 - selected.t0) - expected) / expected < 0.05,
        `span ${selected.t1 - selected.t0}, expected ${expected.toFixed(0)}`);
    // The right arrow key pans later.
    await page.mouse.move(5, 5);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(50);
    const panned = await viewRange(page);
    record('the right arrow pans towards later times', panned.t0 > selected.t0 || panned.t1 >= all.t1,
        `t0 ${selected.t0} -> ${panned.t0}`);
    // Hovering the target visit shows its region, source, start, duration, enclosing regions.
    await page.evaluate((c) => {
        window.weftView.setRange({ t0: c.zoom[0], t1: c.zoom[1] });
        window.weftView.showLocation(c.loc);
        window.weftView.redrawNow();
    }, target);
    const tx = await page.evaluate((t) => window.weftView.timeToX(t), target.time);
    const tb = await page.evaluate((c) => window.weftView.laneBand(c.loc, c.depth), target);
    [px, py] = await canvasPoint(page, tx, tb.y + tb.h / 2);
    await page.mouse.move(px - 2, py);
    await page.mouse.move(px, py);
    const text = await tooltipText(page);
    record('hovering a visit shows its tooltip', ['duration', 'start', 'source', 'enclosing'].every((w) => text.includes(w)) &&
        text.includes(target.region), JSON.stringify(text.slice(0, 200)));
    // Hovering a message line (if the page has one in view) names sender, receiver, tag, bytes, transfer time.
    const msg = await page.evaluate(() => {
        const w = window.weftView;
        const m = w.model.messages;
        if (!m.count) return null;
        const i = Math.floor(m.count / 2);
        const pad = Math.max(Math.abs(m.recv[i] - m.send[i]) * 3, 10);
        w.setRange({ t0: Math.min(m.send[i], m.recv[i]) - pad, t1: Math.max(m.send[i], m.recv[i]) + pad });
        w.redrawNow();
        const rowMid = (loc) => { const b = w.laneBand(loc, 0); return b ? b.y : null; };
        return { i, x0: w.timeToX(m.send[i]), x1: w.timeToX(m.recv[i]), s: m.sender[i], r: m.receiver[i], rowMid: [rowMid(m.sender[i]), rowMid(m.receiver[i])] };
    });
    if (msg) {
        const pt = await page.evaluate((mm) => {
            const w = window.weftView;
            const lay = w.state.layout;
            const mid = (loc) => {
                const row = lay.rows[lay.rowOfLocation[loc]];
                return 34 + row.y + row.h / 2 - w.state.scrollY;
            };
            return { x: (mm.x0 + mm.x1) / 2, y: (mid(mm.s) + mid(mm.r)) / 2 };
        }, msg);
        const [mx, my] = await canvasPoint(page, pt.x, pt.y);
        await page.mouse.move(mx - 3, my);
        await page.mouse.move(mx, my);
        const mt = await tooltipText(page);
        record('hovering a message shows sender, receiver, tag, bytes, transfer time',
            ['Message', 'sender', 'receiver', 'tag', 'bytes', 'transfer time'].every((w) => mt.includes(w)),
            JSON.stringify(mt.slice(0, 200)));
    }
}

async function main() {
    const [file, out, expectFile] = process.argv.slice(2);
    if (!file || !out) {
        console.error('usage: node test/browser_test.mjs PAGE.html OUT.png [EXPECT.json]');
        process.exit(2);
    }
    const expect = expectFile ? JSON.parse(fs.readFileSync(expectFile, 'utf8')) : { checks: [] };
    const { context, close } = await launch();
    try {
        const { page, problems } = await openPage(context, file);
        const ready = await page.evaluate(() => window.weftView.ready);
        record('the page decodes its data and paints', ready);
        if (ready) {
            const regions = await page.evaluate(() => window.weftView.model.regions);
            const auto = await autoChecks(page);
            record('the page holds innermost visits to check', auto.length > 0, `${auto.length} found`);
            await checkPixels(page, regions, auto, 'pixel (from the page data)');
            await checkPixels(page, regions, expect.checks ?? [], 'pixel (from the expectations)');
            const target = (expect.checks ?? [])[0] ?? auto[0];
            if (target) await interact(page, target);
            await page.evaluate(() => {
                window.weftView.setRange({ t0: 0, t1: window.weftView.model.duration });
                window.weftView.redrawNow();
            });
            await page.mouse.move(1, 1);
            await page.waitForTimeout(200);
            await page.screenshot({ path: out });
            record(`screenshot saved to ${out}`, fs.existsSync(out));
        }
        record('no console errors, exceptions or network requests', problems.length === 0, problems.slice(0, 5).join('; '));
    } finally {
        await close();
    }
    const failed = results.filter((r) => !r.ok).length;
    console.log(`${results.length - failed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
}

main().catch((e) => {
    console.error(e);
    console.log('0 passed, 1 failed');
    process.exit(1);
});
