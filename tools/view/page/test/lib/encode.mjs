// SPDX-License-Identifier: BSD-3-Clause
// The producer's side of the format's tables (docs/dev/VIEW-FORMAT.md):
// LEB128 columns, blocks of records, zlib compression and base64 text,
// written the way the C side is to write them. Used by the sample generator
// and by the decoder's tests.
import zlib from 'node:zlib';

export class ByteWriter {
    constructor(capacity = 1024) {
        this.bytes = new Uint8Array(capacity);
        this.length = 0;
    }

    ensure(extra) {
        if (this.length + extra <= this.bytes.length) return;
        let cap = this.bytes.length * 2;
        while (cap < this.length + extra) cap *= 2;
        const grown = new Uint8Array(cap);
        grown.set(this.bytes.subarray(0, this.length));
        this.bytes = grown;
    }

    uvar(value) {
        if (!(value >= 0) || !Number.isInteger(value) || value > Number.MAX_SAFE_INTEGER) {
            throw new RangeError(`not an unsigned integer below 2^53: ${value}`);
        }
        this.ensure(8);
        let v = value;
        while (v >= 128) {
            this.bytes[this.length++] = (v % 128) | 0x80;
            v = Math.floor(v / 128);
        }
        this.bytes[this.length++] = v;
    }

    svar(value) {
        this.uvar(value < 0 ? -2 * value - 1 : 2 * value);
    }

    append(bytes) {
        this.ensure(bytes.length);
        this.bytes.set(bytes, this.length);
        this.length += bytes.length;
    }

    result() {
        return this.bytes.slice(0, this.length);
    }
}

export function uvarLength(value) {
    let n = 1;
    while (value >= 128) {
        value = Math.floor(value / 128);
        n++;
    }
    return n;
}

// A table: `columns` is [[name, codec, type], ...]; add() takes one value
// per column in that order; blocks of up to `blockSize` records.
export class TableWriter {
    constructor(columns, blockSize = 65536) {
        this.columns = columns;
        this.blockSize = blockSize;
        this.out = new ByteWriter(1 << 16);
        this.block = columns.map(() => new ByteWriter(1 << 12));
        this.prev = columns.map(() => 0);
        this.inBlock = 0;
        this.count = 0;
    }

    add(...values) {
        this.columns.forEach(([name, codec], c) => {
            let v = values[c];
            if (codec === 'd' || codec === 'ds') {
                const diff = v - this.prev[c];
                this.prev[c] = v;
                v = diff;
                if (codec === 'd' && v < 0) throw new RangeError(`column ${name} decreases`);
            }
            if (codec === 's' || codec === 'ds') this.block[c].svar(v);
            else this.block[c].uvar(v);
        });
        this.count++;
        if (++this.inBlock === this.blockSize) this.flush();
    }

    flush() {
        if (this.inBlock === 0) return;
        this.out.uvar(this.inBlock);
        for (const w of this.block) {
            this.out.uvar(w.length);
            this.out.append(w.bytes.subarray(0, w.length));
            w.length = 0;
        }
        this.inBlock = 0;
    }

    finish() {
        this.flush();
        return this.out.result();
    }
}

// The header entry and the element text of a finished table.
export function packTable(columns, count, raw, { compress = true, lineLength = 76 } = {}) {
    const payload = compress ? zlib.deflateSync(raw, { level: 6 }) : raw;
    const b64 = Buffer.from(payload).toString('base64');
    let text = b64;
    if (lineLength > 0) {
        const lines = [];
        for (let i = 0; i < b64.length; i += lineLength) lines.push(b64.slice(i, i + lineLength));
        text = lines.join('\n');
    }
    return {
        spec: { count, codec: compress ? 'deflate' : 'none', raw_bytes: raw.length,
            bytes: payload.length, columns },
        text,
    };
}

// Bytes one table takes in the page: its element and the text inside.
export function tableElementBytes(name, text) {
    return Buffer.byteLength(tableElement(name, text));
}

export function tableElement(name, text) {
    return `<script type="application/x-weft-table" id="weft-table-${name}">\n${text}\n</script>\n`;
}

// JSON for a <script> element: '<' escaped so no text can close it.
export function headerElement(header) {
    const json = JSON.stringify(header).replace(/</g, '\\u003c');
    return `<script type="application/json" id="weft-header">${json}</script>\n`;
}
