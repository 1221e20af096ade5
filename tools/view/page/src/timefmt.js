// SPDX-License-Identifier: BSD-3-Clause
// Times and durations for people: ticks to seconds with the unit that reads
// best (s, ms, µs, ns), axis tick spacing on a 1-2-5 ladder, and byte counts.

const UNITS = [
    { name: 's', scale: 1 },
    { name: 'ms', scale: 1e-3 },
    { name: 'µs', scale: 1e-6 },
    { name: 'ns', scale: 1e-9 },
];

// The largest unit in which `seconds` is at least 1 (ns at the least).
export function unitFor(seconds) {
    const a = Math.abs(seconds);
    for (const u of UNITS) if (a >= u.scale) return u;
    return UNITS[UNITS.length - 1];
}

function trim(text) {
    return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

// A duration with about 4 significant digits: "1.234 s", "56.7 µs", "0 s".
export function formatDuration(seconds) {
    if (seconds === 0) return '0 s';
    const u = unitFor(seconds);
    const v = seconds / u.scale;
    const digits = Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 10 ? 2 : 3;
    return `${trim(v.toFixed(digits))} ${u.name}`;
}

// A point in time (seconds since the trace start), precise to `step`
// seconds, in the unit of `magnitude` (default: the larger of the time and
// the step), so labels along one axis share their unit.
export function formatTime(seconds, step, magnitude = Math.max(Math.abs(seconds), step)) {
    const u = unitFor(Math.max(Math.abs(magnitude), 1e-9));
    const decimals = Math.max(0, Math.min(9, Math.ceil(-Math.log10(step / u.scale) - 1e-9)));
    return `${(seconds / u.scale).toFixed(decimals)} ${u.name}`;
}

// A point in time shown to a thousandth of `span`, in the unit of the span:
// "12.35 ms" within a view of 65 ms.
export function formatTimeInSpan(seconds, span) {
    const u = unitFor(Math.max(span, 1e-9));
    const decimals = Math.max(0, Math.min(9, Math.ceil(-Math.log10(span / 1000 / u.scale) - 1e-9)));
    return `${(seconds / u.scale).toFixed(decimals)} ${u.name}`;
}

// The axis step: 1, 2 or 5 times a power of ten, at least `minSeconds`.
export function niceStep(minSeconds) {
    if (!(minSeconds > 0)) return 1e-9;
    const p = Math.pow(10, Math.floor(Math.log10(minSeconds)));
    for (const m of [1, 2, 5, 10]) {
        if (m * p >= minSeconds * (1 - 1e-12)) return m * p;
    }
    return 10 * p;
}

// Tick positions (seconds) for [t0, t1] seconds over `widthPx` pixels with
// at least `minSpacingPx` between labels; also the label base: when the
// ticks are far from zero relative to their spacing, labels count from
// `base` (a round time shown once, a multiple of ten steps at or before
// t0) so they stay short: "+500 µs", not "+300000 µs".
export function axisTicks(t0, t1, widthPx, minSpacingPx = 90) {
    const span = Math.max(t1 - t0, 1e-12);
    const step = niceStep((span * minSpacingPx) / Math.max(widthPx, 1));
    const first = Math.ceil(t0 / step - 1e-9) * step;
    const ticks = [];
    for (let k = 0; ; k++) {
        const t = first + k * step;
        if (t > t1 + step * 1e-9 || k > 1000) break;
        ticks.push(t);
    }
    let base = 0;
    if (first / step > 1000) {
        const coarse = step * 10;
        base = Math.floor(t0 / coarse + 1e-9) * coarse;
    }
    return { step, ticks, base };
}

export function formatBytes(n) {
    if (n < 1024) return `${n} B`;
    const units = ['KiB', 'MiB', 'GiB', 'TiB'];
    let v = n / 1024;
    let i = 0;
    while (v >= 1024 && i < units.length - 1) {
        v /= 1024;
        i++;
    }
    return `${trim(v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2))} ${units[i]}`;
}

export function formatCount(n) {
    return Math.round(n).toLocaleString('en-US');
}
