// SPDX-License-Identifier: BSD-3-Clause
// Names and constants of the embedded data format (docs/dev/VIEW-FORMAT.md).
// Both the page and the test producer import them, so a rename happens once.

export const FORMAT_NAME = 'weft-view';
export const FORMAT_VERSION = 1;

// Element ids and types in the page (the C side writes these elements).
export const HEADER_ID = 'weft-header';
export const TABLE_ID_PREFIX = 'weft-table-';
export const TABLE_TYPE = 'application/x-weft-table';
// Written in two parts so that the bundled page never holds the marker itself.
export const DATA_MARKER = ['<!--WEFT:', 'DATA-->'].join('');

// Column codecs (section "Tables" of the format document).
export const CODECS = ['u', 's', 'd', 'ds'];

// Region value 0 in a level-of-detail bin means "nothing running".
export const IDLE = 0;

// Pyramid levels are this many times coarser than the next finer one.
export const LEVEL_FACTOR = 4;

// The paradigm classes of `weft summary`, in its order, and the waiting kinds.
export const PARADIGMS = ['user', 'openmp', 'mpi', 'measurement', 'other'];
export const WAITS = ['none', 'barrier', 'implicit_barrier', 'lock'];

// OTF2 collective operation codes (OTF2_CollectiveOp) to the lower-case names
// `weft summary` prints.
export const COLLECTIVE_OPS = [
    'barrier', 'bcast', 'gather', 'gatherv', 'scatter', 'scatterv', 'allgather',
    'allgatherv', 'alltoall', 'alltoallv', 'alltoallw', 'allreduce', 'reduce',
    'reduce_scatter', 'scan', 'exscan', 'reduce_scatter_block', 'create_handle',
    'destroy_handle', 'allocate', 'deallocate', 'create_handle_and_allocate',
    'destroy_handle_and_deallocate',
];

// The tables and their columns: [name, codec, array type]. The header repeats
// the column list of each table it holds; the page checks it against this.
export const TABLES = {
    visits: [['end', 'd', 'f64'], ['dur', 'u', 'f64'], ['loc', 'u', 'u32'],
        ['depth', 'u', 'u32'], ['region', 'u', 'u32']],
    messages: [['recv', 'd', 'f64'], ['transfer', 's', 'f64'], ['sender', 'u', 'u32'],
        ['receiver', 'u', 'u32'], ['tag', 'u', 'f64'], ['bytes', 'u', 'f64'],
        ['comm', 'u', 'u32']],
    collectives: [['end', 'd', 'f64'], ['dur', 'u', 'f64'], ['loc', 'u', 'u32'],
        ['op', 'u', 'u32'], ['comm', 'u', 'u32'], ['root', 'u', 'u32'],
        ['sent', 'u', 'f64'], ['received', 'u', 'f64']],
    threads: [['time', 'd', 'f64'], ['loc', 'u', 'u32'], ['kind', 'u', 'u32'],
        ['team', 'u', 'u32']],
    profile: [['bin', 'd', 'u32'], ['region', 'u', 'u32'], ['visits', 'u', 'f64'],
        ['incl', 'u', 'f64'], ['excl', 'u', 'f64']],
    lod: [['region', 'u', 'u32'], ['depth', 'u', 'u32']],
};

// Kinds in the "threads" table.
export const THREAD_FORK = 0;
export const THREAD_JOIN = 1;
