// SPDX-License-Identifier: BSD-3-Clause
// Region colours: a family per kind of region (MPI, OpenMP constructs,
// OpenMP barriers and waits, user code, measurement and other), each a
// palette of shades; a region's shade comes from a hash of its name, so the
// same region has the same colour in every page and every trace.

export const FAMILIES = [
    { key: 'user', label: 'User code',
        palette: ['#43a047', '#00897b', '#7cb342', '#26a69a', '#558b2f', '#2e7d32', '#00796b', '#9ccc65'] },
    { key: 'mpi', label: 'MPI',
        palette: ['#e53935', '#c62828', '#ef5350', '#d84315', '#b71c1c', '#f4511e', '#e57373', '#ad1457'] },
    { key: 'openmp', label: 'OpenMP constructs',
        palette: ['#fb8c00', '#ffb300', '#f57c00', '#ffa726', '#ef6c00', '#fdd835', '#e6a23c', '#c77c02'] },
    { key: 'openmp_wait', label: 'OpenMP barriers and waits',
        palette: ['#7e57c2', '#5e35b1', '#9575cd', '#8e24aa', '#6a1b9a', '#b39ddb', '#673ab7', '#ab47bc'] },
    { key: 'other', label: 'Measurement and other',
        palette: ['#9e9e9e', '#757575', '#bdbdbd', '#8d8d8d', '#616161', '#a1887f', '#90a4ae', '#78909c'] },
];

export const MESSAGE_COLOR = '#111111';
export const COLLECTIVE_COLOR = '#1e3a8a';
export const THREAD_EVENT_COLOR = '#333333';
export const IDLE_COLOR = '#ffffff';

// 32-bit FNV-1a over the UTF-16 code units of the name.
export function hashName(name) {
    let h = 0x811c9dc5;
    for (let i = 0; i < name.length; i++) {
        h ^= name.charCodeAt(i);
        h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
}

// The family key of a region {paradigm, wait} as `weft summary` classes it.
export function familyOf(region) {
    switch (region.paradigm) {
    case 'mpi': return 'mpi';
    case 'openmp': return region.wait && region.wait !== 'none' ? 'openmp_wait' : 'openmp';
    case 'user': return 'user';
    default: return 'other';
    }
}

export function familyInfo(key) {
    return FAMILIES.find((f) => f.key === key) ?? FAMILIES[FAMILIES.length - 1];
}

export function colorOf(region) {
    const palette = familyInfo(familyOf(region)).palette;
    return palette[hashName(region.name) % palette.length];
}

// '#rrggbb' to [r, g, b].
export function rgbOf(hex) {
    const v = parseInt(hex.slice(1), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

// Colours for every region of a model, index for index.
export function regionColors(regions) {
    return regions.map(colorOf);
}
