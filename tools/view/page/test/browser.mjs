// SPDX-License-Identifier: BSD-3-Clause
// Headless Chromium for the page tests and the benchmark: Debian's
// chromium (or WEFT_CHROMIUM) driven through playwright-core, with a fresh
// profile and nothing that reaches the network.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.WEFT_CHROMIUM || '/usr/bin/chromium';

export async function launch({ width = 1400, height = 800 } = {}) {
    if (!fs.existsSync(CHROMIUM)) {
        throw new Error(`no browser at ${CHROMIUM}: scripts/install-deps installs Debian's chromium (or set WEFT_CHROMIUM)`);
    }
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-view-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width, height },
        deviceScaleFactor: 1,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const close = async () => {
        await context.close();
        fs.rmSync(profile, { recursive: true, force: true });
    };
    return { context, close };
}

// Opens a page file and records every console error, uncaught exception
// and request that leaves the file itself.
export async function openPage(context, file) {
    const page = context.pages()[0] ?? await context.newPage();
    const url = `file://${path.resolve(file)}`;
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
    page.on('request', (r) => {
        const u = r.url();
        if (u !== url && !u.startsWith('data:') && !u.startsWith('blob:')) problems.push(`request to ${u}`);
    });
    await page.goto(url, { waitUntil: 'load', timeout: 120000 });
    await page.waitForFunction(() => window.weftView && (window.weftView.ready || window.weftView.error),
        null, { timeout: 120000, polling: 50 });
    const error = await page.evaluate(() => window.weftView.error);
    if (error) problems.push(`page: ${error}`);
    return { page, problems };
}
