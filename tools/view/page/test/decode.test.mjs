// SPDX-License-Identifier: BSD-3-Clause
// Decoding the embedded tables: every column codec, values up to 2^53,
// several blocks, both table codecs, base64 with line breaks, and damaged
// input reported as a FormatError.
import test from 'node:test';
import assert from 'node:assert/strict';
import { TableWriter, packTable, headerElement } from './lib/encode.mjs';
import { decodeBlocks, decodeTable, openData, FormatError } from '../src/decode.js';
import { base64ToBytesPortable } from '../src/base64.js';
import { FORMAT_NAME, FORMAT_VERSION } from '../src/format.js';

const COLUMNS = [['a', 'u', 'f64'], ['b', 's', 'f64'], ['c', 'd', 'f64'], ['e', 'ds', 'f64'], ['f', 'u', 'u32']];

function rows(n) {
    const out = [];
    let c = 0;
    for (let i = 0; i < n; i++) {
        c += i % 7 === 0 ? 2 ** 40 : i;
        out.push([i * 131, (i % 2 ? -1 : 1) * i * 1000003, c, ((i * 37) % 11) - 5, i % 300]);
    }
    out.push([Number.MAX_SAFE_INTEGER, -(2 ** 52), c, 0, 4294967295]);
    return out;
}

function encode(data, blockSize, compress = true) {
    const w = new TableWriter(COLUMNS, blockSize);
    for (const r of data) w.add(...r);
    return packTable(COLUMNS, w.count, w.finish(), { compress });
}

function columnsOf(data) {
    return Object.fromEntries(COLUMNS.map(([name], c) => [name, data.map((r) => r[c])]));
}

test('every codec round-trips, over several blocks, compressed or not', async () => {
    const data = rows(1000);
    for (const [blockSize, compress] of [[65536, true], [7, true], [1, false]]) {
        const { spec, text } = encode(data, blockSize, compress);
        const t = await decodeTable({ ...spec, name: 't' }, text);
        assert.equal(t.count, data.length);
        for (const [name, values] of Object.entries(columnsOf(data))) {
            assert.deepEqual(Array.from(t.columns[name]), values, `column ${name}`);
        }
        assert.ok(t.columns.f instanceof Uint32Array);
    }
});

test('base64 with line breaks and stray spaces decodes', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 255);
    const text = Buffer.from(bytes).toString('base64').replace(/(.{10})/g, '$1\n ');
    assert.deepEqual(base64ToBytesPortable(text), bytes);
});

test('a table cut short or with extra bytes is a FormatError', () => {
    const w = new TableWriter(COLUMNS);
    for (const r of rows(50)) w.add(...r);
    const raw = w.finish();
    const spec = { count: w.count, columns: COLUMNS };
    assert.throws(() => decodeBlocks(raw.subarray(0, raw.length - 3), spec), FormatError);
    assert.throws(() => decodeBlocks(raw, { ...spec, count: w.count + 1 }), FormatError);
    assert.throws(() => decodeBlocks(raw, { ...spec, count: w.count - 1 }), FormatError);
    const extra = new Uint8Array(raw.length + 1);
    extra.set(raw);
    extra[raw.length] = 0; // a block of zero records
    assert.throws(() => decodeBlocks(extra, spec), FormatError);
});

test('openData reads the header and its tables from element texts', async () => {
    const { spec, text } = encode(rows(10), 4);
    const header = { format: FORMAT_NAME, version: FORMAT_VERSION, tables: { visits: spec } };
    const json = headerElement(header).replace(/^<script[^>]*>/, '').replace(/<\/script>\n$/, '');
    const data = openData({ 'weft-header': json, 'weft-table-visits': text });
    assert.equal(data.header.version, FORMAT_VERSION);
    assert.equal((await data.table('visits')).count, 11);
    assert.equal(await data.table('absent'), null);
    assert.throws(() => openData({ 'weft-header': JSON.stringify({ ...header, version: 99 }) }), FormatError);
    assert.throws(() => openData({}), FormatError);
});

test('the header element escapes "<" so no name can close its script', () => {
    const el = headerElement({ name: '</script><b>' });
    assert.ok(!el.slice(0, -10).includes('</script'));
    assert.equal(JSON.parse(el.replace(/^<script[^>]*>/, '').replace(/<\/script>\n$/, '')).name, '</script><b>');
});
