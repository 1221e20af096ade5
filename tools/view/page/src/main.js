// SPDX-License-Identifier: BSD-3-Clause
// The page's entry: decodes the embedded trace data, builds the model and
// wires the canvas, toolbar and side panel to the user's input (wheel,
// drag, keys, buttons). window.weftView exposes the state and geometry to
// the browser tests.
import { openData } from './decode.js';
import { buildModel } from './model.js';
import { computeLayout } from './layout.js';
import { regionColors } from './colors.js';
import { render } from './render.js';
import { boxOf, hitTest } from './hit.js';
import { describe } from './describe.js';
import { fillInfo, fillLegend, fillProfile, matchRegions } from './panel.js';
import { clampRange, panBy, zoomAt, ticksPerPixel } from './viewport.js';
import { GUTTER, RULER, laneBand, timeToX, timelineHeight, timelineWidth, xToTime } from './geometry.js';
import { formatDuration } from './timefmt.js';

const api = { ready: false, error: null };
window.weftView = api;

const $ = (id) => document.getElementById(id);

function setStatus(text) {
    $('status').textContent = text;
}

async function decode() {
    const data = openData(document);
    const names = Object.keys(data.header.tables);
    const decoded = await Promise.all(names.map((n) => data.table(n)));
    const tables = Object.fromEntries(names.map((n, i) => [n, decoded[i]]));
    return buildModel(data.header, tables);
}

function createState(model) {
    return {
        model, colors: regionColors(model.regions),
        range: clampRange(0, model.duration, model.duration),
        width: 1, height: 1, dpr: 1, scrollY: 0,
        mode: 'stacked', collapsed: new Set(), layout: null,
        highlight: null, selection: null, hover: null, pinned: null, hoverBox: null, profileAll: false,
    };
}

function main(model) {
    const st = createState(model);
    const canvas = $('timeline-canvas');
    const ctx = canvas.getContext('2d', { alpha: false });
    const tooltip = $('tooltip');
    let frame = 0;
    let profileTimer = 0;

    const relayout = () => {
        const box = $('timeline').getBoundingClientRect();
        st.width = Math.max(GUTTER + 50, Math.floor(box.width));
        st.height = Math.max(RULER + 40, Math.floor(box.height));
        st.dpr = window.devicePixelRatio || 1;
        canvas.width = Math.round(st.width * st.dpr);
        canvas.height = Math.round(st.height * st.dpr);
        canvas.style.width = `${st.width}px`;
        canvas.style.height = `${st.height}px`;
        st.layout = computeLayout(model, { height: timelineHeight(st), mode: st.mode, collapsed: st.collapsed });
        clampScroll();
    };
    const clampScroll = () => {
        st.scrollY = Math.max(0, Math.min(st.scrollY, st.layout.totalHeight - timelineHeight(st)));
    };
    const draw = () => {
        frame = 0;
        st.hoverBox = boxOf(st, st.pinned ?? st.hover);
        render(ctx, st);
        if (!api.firstPaintMs) {
            api.firstPaintMs = performance.now();
            performance.mark('weft-first-paint');
        }
        const tpp = ticksPerPixel(st.range, timelineWidth(st)) / model.resolution;
        setStatus(`view ${formatDuration((st.range.t1 - st.range.t0) / model.resolution)} · ${formatDuration(tpp)} per pixel`);
        api.drawCount = (api.drawCount ?? 0) + 1;
    };
    const invalidate = () => { if (!frame) frame = requestAnimationFrame(draw); };
    const updateProfile = () => {
        profileTimer = 0;
        api.profile = fillProfile($('profile'), st, (name) => { $('search').value = name; search(); });
    };
    const rangeChanged = () => {
        invalidate();
        if (profileTimer) clearTimeout(profileTimer);
        profileTimer = setTimeout(updateProfile, 120);
    };
    const setRange = (r) => { st.range = clampRange(r.t0, r.t1, model.duration); rangeChanged(); };
    const zoom = (factor, x) => {
        const anchor = x === undefined ? (st.range.t0 + st.range.t1) / 2 : xToTime(st, x);
        setRange(zoomAt(st.range, factor, anchor, model.duration));
    };
    const pan = (fraction) => setRange(panBy(st.range, fraction * (st.range.t1 - st.range.t0), model.duration));
    const search = () => {
        st.highlight = matchRegions(model.regions, $('search').value);
        $('search-count').textContent = st.highlight ? `${st.highlight.size} region${st.highlight.size === 1 ? '' : 's'}` : '';
        invalidate();
        updateProfile();
    };

    const showTooltip = (hit, x, y) => {
        const info = describe(model, hit);
        if (!info) {
            tooltip.hidden = true;
            return;
        }
        const title = document.createElement('div');
        title.className = 'tt-title';
        if (info.color) {
            const sw = document.createElement('span');
            sw.className = 'swatch';
            sw.style.background = st.colors[info.color.index];
            title.append(sw);
        }
        title.append(info.title);
        const rows = info.lines.map(([k, v]) => {
            const row = document.createElement('div');
            row.className = 'kv';
            const a = document.createElement('span');
            a.className = 'k';
            a.textContent = k;
            const b = document.createElement('span');
            b.className = 'v';
            b.textContent = v;
            row.append(a, b);
            return row;
        });
        tooltip.replaceChildren(title, ...rows);
        tooltip.hidden = false;
        const w = tooltip.offsetWidth;
        const h = tooltip.offsetHeight;
        tooltip.style.left = `${Math.min(x + 14, st.width - w - 4)}px`;
        tooltip.style.top = `${y + 16 + h > st.height ? Math.max(0, y - h - 8) : y + 16}px`;
    };

    // Pointer: drag pans (both axes); shift+drag, or a drag on the ruler, selects a range to zoom to.
    let drag = null;
    const local = (e) => {
        const r = canvas.getBoundingClientRect();
        return [e.clientX - r.left, e.clientY - r.top];
    };
    canvas.addEventListener('mousedown', (e) => {
        const [x, y] = local(e);
        const select = e.shiftKey || y < RULER;
        drag = { x, y, select, moved: false, range: st.range, scrollY: st.scrollY };
        if (select) st.selection = { x0: x, x1: x };
        e.preventDefault();
    });
    window.addEventListener('mousemove', (e) => {
        const [x, y] = local(e);
        if (drag) {
            drag.moved ||= Math.abs(x - drag.x) > 3 || Math.abs(y - drag.y) > 3;
            if (drag.select) {
                st.selection.x1 = x;
                invalidate();
            } else if (drag.moved) {
                const tpp = ticksPerPixel(drag.range, timelineWidth(st));
                st.range = panBy(drag.range, -(x - drag.x) * tpp, model.duration);
                st.scrollY = drag.scrollY - (y - drag.y);
                clampScroll();
                rangeChanged();
            }
            return;
        }
        if (e.target !== canvas) return;
        st.hover = hitTest(st, x, y);
        if (!st.pinned) showTooltip(st.hover, x, y);
        invalidate();
    });
    window.addEventListener('mouseup', (e) => {
        if (!drag) return;
        const [x, y] = local(e);
        const d = drag;
        drag = null;
        if (d.select) {
            st.selection = null;
            if (Math.abs(x - d.x) > 3) {
                const a = xToTime(st, Math.max(GUTTER, Math.min(x, d.x)));
                const b = xToTime(st, Math.min(st.width, Math.max(x, d.x)));
                setRange({ t0: a, t1: b });
            } else invalidate();
            return;
        }
        if (d.moved) return;
        const hit = hitTest(st, x, y);
        if (hit && hit.kind === 'group') {
            if (st.collapsed.has(hit.group)) st.collapsed.delete(hit.group);
            else st.collapsed.add(hit.group);
            relayout();
            invalidate();
            return;
        }
        st.pinned = hit && hit.kind !== 'label' ? hit : null;
        showTooltip(st.pinned ?? hit, x, y);
        invalidate();
    });
    canvas.addEventListener('mouseleave', () => {
        st.hover = null;
        if (!st.pinned) tooltip.hidden = true;
        invalidate();
    });
    canvas.addEventListener('wheel', (e) => {
        e.preventDefault();
        const [x] = local(e);
        const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
        if (e.shiftKey) {
            st.scrollY += (e.deltaY || e.deltaX) * unit;
            clampScroll();
            invalidate();
        } else if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
            pan((e.deltaX * unit) / timelineWidth(st));
        } else {
            zoom(Math.exp(e.deltaY * unit * 0.002), Math.max(GUTTER, x));
        }
    }, { passive: false });
    window.addEventListener('keydown', (e) => {
        if (e.target instanceof HTMLInputElement) {
            if (e.key === 'Escape') { e.target.value = ''; search(); e.target.blur(); }
            return;
        }
        const keys = {
            ArrowLeft: () => pan(-0.15), ArrowRight: () => pan(0.15),
            ArrowUp: () => { st.scrollY -= 40; clampScroll(); invalidate(); },
            ArrowDown: () => { st.scrollY += 40; clampScroll(); invalidate(); },
            '+': () => zoom(0.5), '=': () => zoom(0.5), '-': () => zoom(2), _: () => zoom(2),
            0: () => setRange({ t0: 0, t1: model.duration }), Home: () => setRange({ t0: 0, t1: model.duration }),
            Escape: () => { st.pinned = null; tooltip.hidden = true; invalidate(); },
            '/': () => $('search').focus(),
        };
        const fn = keys[e.key];
        if (fn) {
            e.preventDefault();
            fn();
        }
    });
    $('zoom-in').addEventListener('click', () => zoom(0.5));
    $('zoom-out').addEventListener('click', () => zoom(2));
    $('zoom-all').addEventListener('click', () => setRange({ t0: 0, t1: model.duration }));
    $('zoom-window').addEventListener('click', () => {
        const w = model.detail?.windows?.[0];
        if (w) setRange({ t0: w[0], t1: w[1] });
    });
    $('zoom-window').disabled = !model.detail?.windows?.length;
    $('lanes').addEventListener('click', () => {
        st.mode = st.mode === 'stacked' ? 'flat' : 'stacked';
        $('lanes').textContent = st.mode === 'stacked' ? 'Flat' : 'Stacked';
        relayout();
        invalidate();
    });
    $('search').addEventListener('input', search);
    window.addEventListener('resize', () => { relayout(); invalidate(); });

    fillInfo($('info'), model);
    fillLegend($('legend'));
    relayout();
    draw();
    updateProfile();

    Object.assign(api, {
        model, state: st, setRange, zoom, pan,
        timeToX: (t) => timeToX(st, t),
        laneBand: (loc, depth) => laneBand(st, loc, depth),
        regionColor: (r) => st.colors[r],
        canvasRect: () => canvas.getBoundingClientRect().toJSON(),
        redrawNow: draw,
        // Scrolls the rows so that the location's row is in view.
        showLocation: (loc) => {
            const r = st.layout.rowOfLocation[loc];
            if (r < 0) return;
            const row = st.layout.rows[r];
            const h = timelineHeight(st);
            if (row.y < st.scrollY || row.y + row.h > st.scrollY + h) st.scrollY = row.y - (h - row.h) / 2;
            clampScroll();
        },
    });
    api.ready = true;
}

(async () => {
    try {
        setStatus('reading the trace data…');
        const started = performance.now();
        const model = await decode();
        api.decodeMs = performance.now() - started;
        main(model);
    } catch (e) {
        api.error = String(e && e.message ? e.message : e);
        setStatus(`cannot show this trace: ${api.error}`);
        console.error(e);
    }
})();
