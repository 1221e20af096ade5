// SPDX-License-Identifier: BSD-3-Clause
// The column codecs of the format: unsigned LEB128 ('u'), zigzag LEB128
// ('s'), and their running sums ('d' for non-decreasing columns, 'ds' for
// any). Values may reach 2^53, so bytes past the fourth are added with
// multiplication instead of 32-bit shifts.

export class FormatError extends Error {}

// Decodes `count` values of `codec` from bytes[pos..end) into out[at..];
// `state.prev` carries the running sum of delta codecs from block to block.
// Returns the position after the last byte read.
export function decodeColumn(bytes, pos, end, count, codec, out, at, state) {
    const signed = codec === 's' || codec === 'ds';
    const delta = codec === 'd' || codec === 'ds';
    let prev = state.prev;
    for (let i = 0; i < count; i++) {
        if (pos >= end) throw new FormatError(`column ends after ${i} of ${count} values`);
        let b = bytes[pos++];
        let v = b & 0x7f;
        if (b & 0x80) {
            b = bytes[pos++];
            v |= (b & 0x7f) << 7;
            if (b & 0x80) {
                b = bytes[pos++];
                v |= (b & 0x7f) << 14;
                if (b & 0x80) {
                    b = bytes[pos++];
                    v |= (b & 0x7f) << 21;
                    if (b & 0x80) {
                        let scale = 268435456; // 2^28
                        do {
                            if (pos >= end) throw new FormatError('varint runs past its column');
                            b = bytes[pos++];
                            v += (b & 0x7f) * scale;
                            scale *= 128;
                        } while (b & 0x80);
                    }
                }
            }
        }
        if (pos > end) throw new FormatError('varint runs past its column');
        if (signed) v = v % 2 === 1 ? -(v + 1) / 2 : v / 2;
        if (delta) {
            prev += v;
            v = prev;
        }
        out[at + i] = v;
    }
    state.prev = prev;
    return pos;
}

// One unsigned varint at bytes[pos]: [value, next position].
export function readUvar(bytes, pos, end) {
    let v = 0;
    let scale = 1;
    for (;;) {
        if (pos >= end) throw new FormatError('varint runs past the end of the table');
        const b = bytes[pos++];
        v += (b & 0x7f) * scale;
        if (!(b & 0x80)) return [v, pos];
        scale *= 128;
    }
}
