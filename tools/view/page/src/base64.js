// SPDX-License-Identifier: BSD-3-Clause
// Base64 text (standard alphabet, '=' padding, whitespace anywhere) to bytes.
// Uses the engine's Uint8Array.fromBase64 where it exists; otherwise a table
// decoder that skips every byte outside the alphabet (line breaks, spaces).

const LOOKUP = (() => {
    const table = new Int16Array(256).fill(-1);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
    return table;
})();

export function base64ToBytesPortable(text) {
    const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
    let n = 0;
    let acc = 0;
    let bits = 0;
    for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        const v = code < 256 ? LOOKUP[code] : -1;
        if (v < 0) {
            if (code === 61) break; // '=': padding, the end
            continue;
        }
        acc = ((acc << 6) | v) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (acc >> bits) & 0xff;
        }
    }
    return out.subarray(0, n);
}

export function base64ToBytes(text) {
    if (typeof Uint8Array.fromBase64 === 'function') {
        try {
            return Uint8Array.fromBase64(text);
        } catch (_) {
            // Stray characters: the portable decoder skips them.
        }
    }
    return base64ToBytesPortable(text);
}
