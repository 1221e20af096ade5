// SPDX-License-Identifier: BSD-3-Clause
// Reads the data `weft view` embedded in the page: the JSON header and the
// tables (base64 text of a zlib stream, or of raw bytes), each table a
// sequence of column blocks (docs/dev/VIEW-FORMAT.md, "Tables"). Decoding
// gives plain typed arrays per column; nothing here knows what they mean.
import { base64ToBytes } from './base64.js';
import { decodeColumn, readUvar, FormatError } from './varint.js';
import { FORMAT_NAME, FORMAT_VERSION, HEADER_ID, TABLE_ID_PREFIX } from './format.js';

export { FormatError };

const ARRAY_TYPES = { u32: Uint32Array, i32: Int32Array, f64: Float64Array };

// zlib stream (RFC 1950) to bytes, with the browser's (or Node's) native
// DecompressionStream: no library needed.
export async function inflate(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function parseHeader(text) {
    const header = JSON.parse(text);
    if (header.format !== FORMAT_NAME) throw new FormatError('not a weft view page');
    if (header.version !== FORMAT_VERSION) {
        throw new FormatError(`format version ${header.version}; this page reads ${FORMAT_VERSION}`);
    }
    return header;
}

// Splits an uncompressed table into its blocks and decodes every column.
export function decodeBlocks(raw, spec) {
    const count = spec.count;
    const columns = {};
    const states = [];
    for (const [name, , type] of spec.columns) {
        const Type = ARRAY_TYPES[type];
        if (!Type) throw new FormatError(`column ${name}: unknown array type ${type}`);
        columns[name] = new Type(count);
        states.push({ prev: 0 });
    }
    let pos = 0;
    let done = 0;
    while (pos < raw.length) {
        let n;
        [n, pos] = readUvar(raw, pos, raw.length);
        if (n === 0 || done + n > count) throw new FormatError(`block of ${n} records after ${done} of ${count}`);
        spec.columns.forEach(([name, codec], c) => {
            let length;
            [length, pos] = readUvar(raw, pos, raw.length);
            const end = pos + length;
            if (end > raw.length) throw new FormatError(`column ${name} runs past the end`);
            const after = decodeColumn(raw, pos, end, n, codec, columns[name], done, states[c]);
            if (after !== end) throw new FormatError(`column ${name}: ${end - after} bytes left over`);
            pos = end;
        });
        done += n;
    }
    if (done !== count) throw new FormatError(`${done} records, the header says ${count}`);
    return { count, columns };
}

export async function decodeTable(spec, text) {
    let bytes = base64ToBytes(text);
    if (spec.codec === 'deflate') bytes = await inflate(bytes);
    else if (spec.codec !== 'none') throw new FormatError(`unknown table codec ${spec.codec}`);
    if (spec.raw_bytes !== undefined && bytes.length !== spec.raw_bytes) {
        throw new FormatError(`table ${spec.name}: ${bytes.length} bytes, the header says ${spec.raw_bytes}`);
    }
    try {
        return decodeBlocks(bytes, spec);
    } catch (e) {
        throw new FormatError(`table ${spec.name}: ${e.message}`);
    }
}

// The header and a function that decodes one named table on demand, from a
// DOM document (the page) or from a map of element id to text (tests).
export function openData(source) {
    const textOf = (id) => {
        if (typeof source.getElementById === 'function') {
            const el = source.getElementById(id);
            return el ? el.textContent : null;
        }
        return source[id] ?? null;
    };
    const headerText = textOf(HEADER_ID);
    if (headerText === null) throw new FormatError('this page holds no trace data (no header element)');
    const header = parseHeader(headerText);
    const table = async (name) => {
        const spec = header.tables[name];
        if (!spec) return null;
        const text = textOf(TABLE_ID_PREFIX + name);
        if (text === null) throw new FormatError(`table ${name} is missing from the page`);
        return decodeTable({ ...spec, name }, text);
    };
    return { header, table };
}
