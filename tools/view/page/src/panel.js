// SPDX-License-Identifier: BSD-3-Clause
// The side panel: what the trace is, the region search (highlights the
// matching regions' visits), the legend of colour families, and the profile
// of the visible time range (the numbers `weft summary` prints).
import { FAMILIES, familyInfo, familyOf } from './colors.js';
import { rangeProfile } from './profile.js';
import { formatCount, formatDuration, formatTimeInSpan } from './timefmt.js';

export const PROFILE_ROWS = 40;

function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
        if (k === 'style') node.style.cssText = v;
        else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
        else node[k] = v;
    }
    for (const c of children) node.append(c);
    return node;
}

function swatch(color) {
    return el('span', { className: 'swatch', style: `background:${color}` });
}

// Region indices whose name contains the query (case-insensitive); null for
// an empty query.
export function matchRegions(regions, query) {
    const q = query.trim().toLowerCase();
    if (!q) return null;
    const out = new Set();
    regions.forEach((r, i) => { if (r.name.toLowerCase().includes(q)) out.add(i); });
    return out;
}

export function fillInfo(node, model) {
    const h = model.header;
    const s = h.stats ?? {};
    const d = model.detail;
    const full = d && d.windows.length === 1 && d.windows[0][0] <= 0 && d.windows[0][1] >= model.duration &&
        d.truncated_at === null;
    const lines = [
        ['trace', h.trace ?? ''],
        ['duration', formatDuration(model.duration / model.resolution)],
        ['locations', `${model.locations.length} in ${model.groups.length} group${model.groups.length === 1 ? '' : 's'}`],
        ['events', formatCount(s.events ?? 0)],
        ['detail', full ? 'every visit' : `${formatCount(model.visits.count)} of ${formatCount(s.visits ?? 0)} visits` +
            (d && d.min_duration !== null ? `: all ≥ ${formatDuration(d.min_duration / model.resolution)}` : '') +
            (d && d.windows.length ? ', all in the green window' : '')],
    ];
    node.replaceChildren(...lines.map(([k, v]) => el('div', { className: 'kv' },
        el('span', { className: 'k', textContent: k }), el('span', { className: 'v', textContent: v, title: v }))));
}

export function fillLegend(node) {
    node.replaceChildren(...FAMILIES.map((f) => el('div', { className: 'legend-row' },
        ...f.palette.slice(0, 4).map(swatch), el('span', { textContent: f.label }))));
}

// The profile table for the visible range; a click on a row searches its region.
export function fillProfile(node, st, onPick) {
    const model = st.model;
    const { t0, t1 } = st.range;
    const p = rangeProfile(model, t0, t1);
    const res = model.resolution;
    const span = (t1 - t0) / res;
    const title = el('div', { className: 'profile-title' },
        `${formatTimeInSpan(t0 / res, span)} – ${formatTimeInSpan(t1 / res, span)} `,
        el('span', { className: p.exact ? 'exact' : 'approx',
            textContent: p.exact ? '(exact)' : `(≈ bins of ${formatDuration(p.binWidth / res)})` }));
    const head = el('tr', {}, ...['region', 'visits', 'incl.', 'excl.', '%'].map((t) => el('th', { textContent: t })));
    const rows = p.rows.slice(0, st.profileAll ? p.rows.length : PROFILE_ROWS).map((row) => {
        const region = model.regions[row.region];
        const pct = p.root > 0 ? (100 * row.incl) / p.root : 0;
        return el('tr', { className: st.highlight?.has(row.region) ? 'hl' : '', onclick: () => onPick(region.name) },
            el('td', { className: 'name', title: region.name }, swatch(st.colors[row.region]), region.name),
            el('td', { textContent: formatCount(row.visits) }),
            el('td', { textContent: formatDuration(row.incl / res) }),
            el('td', { textContent: formatDuration(row.excl / res) }),
            el('td', { textContent: pct.toFixed(1) }));
    });
    const more = p.rows.length > PROFILE_ROWS
        ? el('button', { className: 'more', textContent: st.profileAll ? 'fewer regions' : `all ${p.rows.length} regions`,
            onclick: () => { st.profileAll = !st.profileAll; fillProfile(node, st, onPick); } })
        : '';
    const paradigms = el('div', { className: 'paradigms' }, ...p.paradigms.map((x) => el('span', { className: 'paradigm' },
        swatch(familyInfo(familyOf({ paradigm: x.paradigm, wait: 'none' })).palette[0]),
        `${x.paradigm} ${p.root > 0 ? ((100 * x.excl) / p.root).toFixed(1) : '0.0'} %`)));
    node.replaceChildren(title, paradigms, el('table', { className: 'profile' }, el('thead', {}, head),
        el('tbody', {}, ...rows)), more);
    return p;
}
