// SPDX-License-Identifier: BSD-3-Clause
// Synthetic traces in the shape of the suite's programs: OpenMP (one
// process, a team of threads), MPI (ranks exchanging halos and reducing) and
// hybrid (both, like examples/hybrid_solver.c). A shape emits, iteration by
// iteration, each location's enters and leaves in time order and the
// messages, collectives and forks/joins, all deterministic (no Math.random).

const NS = 1e9; // timer resolution: nanoseconds

// Deterministic noise in [0, 1) from integers.
function noise(a, b, c) {
    let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x165667b1, 0xc2b2ae35) ^ Math.imul(c + 7, 0x27d4eb2f);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    return (h >>> 0) / 4294967296;
}

export const REGIONS = [
    // name, paradigm, wait, role, file, line
    ['main', 'user', 'none', 'function', 'solver.c', 10],
    ['solve', 'user', 'none', 'function', 'solver.c', 60],
    ['exchange_halo', 'user', 'none', 'function', 'solver.c', 90],
    ['MPI_Irecv', 'mpi', 'none', 'point2point', '', 0],
    ['MPI_Isend', 'mpi', 'none', 'point2point', '', 0],
    ['MPI_Waitall', 'mpi', 'none', 'point2point', '', 0],
    ['!$omp parallel @solver.c:120', 'openmp', 'none', 'parallel', 'solver.c', 120],
    ['!$omp for @solver.c:121', 'openmp', 'none', 'loop', 'solver.c', 121],
    ['jacobi_sweep', 'user', 'none', 'function', 'solver.c', 140],
    ['stencil_rows', 'user', 'none', 'function', 'solver.c', 150],
    ['!$omp implicit barrier @solver.c:128', 'openmp', 'implicit_barrier', 'implicit_barrier', 'solver.c', 128],
    ['MPI_Allreduce', 'mpi', 'none', 'coll_all2all', '', 0],
    ['MPI_Init', 'mpi', 'none', 'function', '', 0],
    ['MPI_Finalize', 'mpi', 'none', 'function', '', 0],
    ['residual', 'user', 'none', 'function', 'solver.c', 170],
];
export const R = Object.fromEntries(REGIONS.map((r, i) => [r[0].split(' ')[0].replace('!$omp', 'omp'), i]));
R.omp_parallel = 6; R.omp_for = 7; R.omp_ibarrier = 10;

const ALLREDUCE = 11; // OTF2_COLLECTIVE_OP_ALLREDUCE

// shape: {name, ranks, threads, iterations, mpi, openmp, rows (inner regions
// per sweep), iterNs (nominal iteration length)}.
export function makeShape(opts) {
    const s = { rows: 2, iterNs: 2e6, ...opts };
    s.locationCount = s.ranks * s.threads;
    s.resolution = NS;
    return s;
}

export const SHAPES = {
    openmp: () => makeShape({ name: 'openmp', ranks: 1, threads: 4, iterations: 40, mpi: false, openmp: true }),
    mpi: () => makeShape({ name: 'mpi', ranks: 4, threads: 1, iterations: 40, mpi: true, openmp: false }),
    hybrid: () => makeShape({ name: 'hybrid', ranks: 2, threads: 2, iterations: 40, mpi: true, openmp: true }),
    // 64 locations, about 10 million events.
    medium: () => makeShape({ name: 'medium', ranks: 16, threads: 4, iterations: 2530, mpi: true,
        openmp: true, rows: 24, iterNs: 2.5e6 }),
    // 64 locations, about 100 million events.
    big: () => makeShape({ name: 'big', ranks: 16, threads: 4, iterations: 25300, mpi: true,
        openmp: true, rows: 24, iterNs: 2.5e6 }),
};

export function definitions(shape) {
    const files = ['solver.c'];
    const regions = { name: [], paradigm: [], wait: [], role: [], file: [], line: [] };
    for (const [name, paradigm, wait, role, file, line] of REGIONS) {
        regions.name.push(name);
        regions.paradigm.push(paradigm);
        regions.wait.push(wait);
        regions.role.push(role);
        regions.file.push(file ? files.indexOf(file) : -1);
        regions.line.push(line);
    }
    const groups = { name: [], rank: [] };
    const locations = { name: [], group: [], type: [] };
    for (let r = 0; r < shape.ranks; r++) {
        groups.name.push(shape.mpi ? `MPI Rank ${r}` : 'Process');
        groups.rank.push(r);
        for (let t = 0; t < shape.threads; t++) {
            locations.name.push(t === 0 ? 'Master thread' : `Thread ${t}`);
            locations.group.push(r);
            locations.type.push('cpu_thread');
        }
    }
    const comms = { name: ['MPI_COMM_WORLD'], size: [shape.ranks] };
    return { files, regions, groups, locations, comms };
}

// Emits the whole trace into `sink`:
//   sink.enter(loc, t, region), sink.leave(loc, t, region) (time order per location)
//   sink.message(sendLoc, sendT, recvLoc, recvT, tag, bytes, comm)
//   sink.collective(loc, begin, end, op, comm, root, sent, received)
//   sink.thread(loc, t, kind, team)       kind 0 fork, 1 join
// Times may be fractional; the producer floors them (which keeps their order).
// Returns {start, end} in ticks.
export function emit(shape, sink) {
    const { ranks, threads, iterations, mpi, openmp, rows, iterNs } = shape;
    const T = threads;
    const loc = (r, t) => r * T + t;
    let now = 1000;
    const start = now;
    for (let r = 0; r < ranks; r++) {
        sink.enter(loc(r, 0), now, R.main);
        sink.enter(loc(r, 0), now, R.solve);
        if (mpi) {
            sink.enter(loc(r, 0), now + 10, R.MPI_Init);
            sink.leave(loc(r, 0), now + 20000, R.MPI_Init);
        }
    }
    now += 30000;
    const halo = ranks > 1 ? [] : null;
    for (let it = 0; it < iterations; it++) {
        const arrive = new Float64Array(ranks);
        const sends = [];
        for (let r = 0; r < ranks; r++) {
            const m = loc(r, 0);
            let t = now + Math.floor(noise(r, it, 1) * iterNs * 0.02);
            if (mpi && ranks > 1) {
                // Halo exchange with both neighbours; rank 1 is late every 7th iteration.
                const late = r === 1 && it % 7 === 3 ? iterNs * 0.15 : 0;
                sink.enter(m, t, R.exchange_halo);
                const peers = [r - 1, r + 1].filter((p) => p >= 0 && p < ranks);
                for (const p of peers) {
                    sink.enter(m, t + 100, R.MPI_Irecv);
                    sink.leave(m, t + 600, R.MPI_Irecv);
                    t += 700;
                }
                t += late;
                for (const p of peers) {
                    sink.enter(m, t, R.MPI_Isend);
                    sends.push({ from: r, to: p, t: t + 200, tag: it % 1000 });
                    sink.leave(m, t + 900, R.MPI_Isend);
                    t += 1000;
                }
                sink.enter(m, t, R.MPI_Waitall);
                halo[r] = { wait: t, m };
            }
            arrive[r] = t;
        }
        // Receives complete when the neighbour's send arrived (plus wire time).
        if (mpi && ranks > 1) {
            const done = new Float64Array(ranks);
            for (let r = 0; r < ranks; r++) done[r] = halo[r].wait + 2000;
            for (const s of sends) {
                const recv = Math.max(s.t + 4000 + 1000 * noise(s.from, s.to, it), halo[s.to].wait + 500);
                done[s.to] = Math.max(done[s.to], recv + 300);
                s.recv = recv;
            }
            sends.sort((a, b) => a.recv - b.recv);
            for (const s of sends) sink.message(loc(s.from, 0), s.t, loc(s.to, 0), s.recv, s.tag, 8192, 0);
            for (let r = 0; r < ranks; r++) {
                sink.leave(halo[r].m, done[r], R.MPI_Waitall);
                sink.leave(halo[r].m, done[r] + 200, R.exchange_halo);
                arrive[r] = done[r] + 300;
            }
        }
        // The OpenMP loop: a fork, per thread a sweep of `rows` inner regions
        // with imbalance, the implicit barrier until the slowest, the join.
        for (let r = 0; r < ranks; r++) {
            const m = loc(r, 0);
            let t = arrive[r];
            const work = iterNs * 0.6;
            if (openmp) {
                sink.enter(m, t, R.omp_parallel);
                sink.thread(m, t + 50, 0, T);
                const begin = t + 400;
                const ends = [];
                for (let th = 0; th < T; th++) {
                    const imbalance = th === T - 1 ? 0.25 : 0.1 * noise(r, it, th + 3);
                    ends.push(begin + 600 + work * (1 + imbalance) / T * 2);
                }
                const barrierEnd = Math.max(...ends) + 300;
                for (let th = 0; th < T; th++) {
                    const l = loc(r, th);
                    if (th > 0) sink.enter(l, begin - 200, R.omp_parallel);
                    sink.enter(l, begin, R.omp_for);
                    sink.enter(l, begin + 100, R.jacobi_sweep);
                    const span = ends[th] - 200 - (begin + 200);
                    for (let k = 0; k < rows; k++) {
                        const a = begin + 200 + (span * k) / rows;
                        sink.enter(l, Math.floor(a), R.stencil_rows);
                        sink.leave(l, Math.floor(a + span / rows * 0.9), R.stencil_rows);
                    }
                    sink.leave(l, ends[th] - 100, R.jacobi_sweep);
                    sink.leave(l, ends[th], R.omp_for);
                    sink.enter(l, ends[th] + 10, R.omp_ibarrier);
                    sink.leave(l, barrierEnd, R.omp_ibarrier);
                    if (th > 0) sink.leave(l, barrierEnd + 100, R.omp_parallel);
                }
                sink.thread(m, barrierEnd + 150, 1, 0);
                sink.leave(m, barrierEnd + 200, R.omp_parallel);
                t = barrierEnd + 300;
            } else {
                const w = work * (1 + 0.2 * noise(r, it, 9));
                sink.enter(m, t, R.jacobi_sweep);
                for (let k = 0; k < rows; k++) {
                    const a = t + 100 + (w * k) / rows;
                    sink.enter(m, Math.floor(a), R.stencil_rows);
                    sink.leave(m, Math.floor(a + (w / rows) * 0.9), R.stencil_rows);
                }
                sink.leave(m, t + w + 200, R.jacobi_sweep);
                t += w + 300;
            }
            sink.enter(m, t, R.residual);
            sink.leave(m, t + iterNs * 0.03, R.residual);
            arrive[r] = t + iterNs * 0.03 + 100;
        }
        // The reduction ends for everyone after the last rank arrived.
        let next = Math.max(...arrive) + 1000;
        if (mpi) {
            const end = Math.max(...arrive) + 3000;
            for (let r = 0; r < ranks; r++) {
                const m = loc(r, 0);
                sink.enter(m, arrive[r], R.MPI_Allreduce);
                sink.collective(m, arrive[r] + 100, end - 100 - r * 10, ALLREDUCE, 0, 0, 8, 8);
                sink.leave(m, end - r * 10, R.MPI_Allreduce);
            }
            next = end + 1000;
        }
        now = next;
    }
    for (let r = 0; r < ranks; r++) {
        if (mpi) {
            sink.enter(loc(r, 0), now, R.MPI_Finalize);
            sink.leave(loc(r, 0), now + 10000, R.MPI_Finalize);
        }
        sink.leave(loc(r, 0), now + 11000, R.solve);
        sink.leave(loc(r, 0), now + 12000, R.main);
    }
    return { start, end: now + 12000 + 1000 };
}
