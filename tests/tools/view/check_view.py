#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of `weft view`: makes or records a trace, checks it with `weft
check`, writes its page with `weft view`, decodes the page here (header,
base64, zlib, LEB128 column blocks: docs/dev/VIEW-FORMAT.md) and checks
what it holds, then opens it in headless Chromium (browser_test.mjs: no
console errors, region colours at known places, zoom, pan, tooltips, a
screenshot kept as the test's artefact in --work).

    check_view.py SCENARIO --weft WEFT --work DIR --page-dir DIR [options]

Every page is checked for: its size within the bound; the header's tables
all present with the counts, sizes and columns it gives; pyramid levels of
bins x locations records; visits in end order, each location's children
before their parents and one depth never overlapping; the profile summed
over bins equal to `weft summary --format json` (visits, inclusive and
exclusive ticks of every region), and the event, message and collective
counts equal to the summary's. Scenarios add exact contents (known,
other_writer, program), the detail chosen under a small bound (bounded), a
trace without a length (no_length), a converted EPILOG trace (converted),
big generated traces (big) and real recordings (omp, mpi, hybrid).
Exit status 77 (skipped) when node is not installed."""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import zlib

SKIP = 77


class Checker:
    def __init__(self):
        self.problems = []

    def expect(self, ok, what):
        if not ok:
            self.problems.append(what)
        return ok

    def equal(self, got, want, what):
        return self.expect(got == want, f"{what}: got {got!r}, expected {want!r}")


def run(cmd, env=None, what=None, cwd=None):
    proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"{what or cmd[0]} failed (exit status {proc.returncode}): {' '.join(cmd)}\n"
                 f"--- stdout:\n{proc.stdout}--- stderr:\n{proc.stderr}")
    return proc


# --- Reading a page ---------------------------------------------------------------------

def uvar(data, pos):
    value, shift = 0, 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7f) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def unzigzag(v):
    return -((v + 1) >> 1) if v & 1 else v >> 1


def decode_table(spec, text):
    """The columns of one table as lists, checking the header's numbers."""
    payload = base64.b64decode(re.sub(r"\s", "", text))
    if spec["bytes"] != len(payload):
        raise ValueError(f"payload {len(payload)} bytes, header says {spec['bytes']}")
    raw = zlib.decompress(payload) if spec["codec"] == "deflate" else payload
    if spec["raw_bytes"] != len(raw):
        raise ValueError(f"{len(raw)} raw bytes, header says {spec['raw_bytes']}")
    columns = {name: [] for name, _, _ in spec["columns"]}
    prev = {name: 0 for name in columns}
    pos = 0
    while pos < len(raw):
        n, pos = uvar(raw, pos)
        for name, codec, _ in spec["columns"]:
            length, pos = uvar(raw, pos)
            end = pos + length
            for _ in range(n):
                v, pos = uvar(raw, pos)
                if codec in ("s", "ds"):
                    v = unzigzag(v)
                if codec in ("d", "ds"):
                    v += prev[name]
                    prev[name] = v
                columns[name].append(v)
            if pos != end:
                raise ValueError(f"column {name}: {end - pos} bytes left over")
    count = len(next(iter(columns.values()))) if columns else 0
    if count != spec["count"]:
        raise ValueError(f"{count} records, header says {spec['count']}")
    return columns


def read_page(path):
    with open(path, encoding="utf-8") as f:
        html = f.read()
    header_match = re.search(r'<script type="application/json" id="weft-header">(.*?)</script>',
                             html, re.S)
    header = json.loads(header_match.group(1))
    tables = {}
    for name, spec in header["tables"].items():
        m = re.search(r'<script type="application/x-weft-table" id="weft-table-%s">(.*?)</script>'
                      % re.escape(name), html, re.S)
        tables[name] = decode_table(spec, m.group(1))
    return html, header, tables


def rows(table, names):
    return list(zip(*(table[n] for n in names))) if table else []


# --- Checks every page gets ----------------------------------------------------------

VISIT = ["end", "dur", "loc", "depth", "region"]


def check_page(c, page, summary, max_bytes):
    html, header, tables = read_page(page)
    size = os.path.getsize(page)
    c.expect(size <= max_bytes, f"page of {size} bytes > bound {max_bytes}")
    c.equal(html.count("<!--WEFT:DATA-->"), 0, "markers left in the page")
    c.expect("http://" not in html.split("<script>")[0] and 'src="' not in html,
             "the page refers to something outside itself")
    c.equal((header["format"], header["version"]), ("weft-view", 1), "format and version")
    c.equal(header["budget"]["max_bytes"], max_bytes, "budget.max_bytes")
    nloc = len(header["locations"]["name"])
    c.equal(header["stats"]["locations"], nloc, "stats.locations")
    for level in header["lod"]["levels"]:
        t = tables[level["table"]]
        c.equal(len(t["region"]), level["bins"] * nloc, f"records of {level['table']}")
        c.expect(level["bins"] >= 64 or len(header["lod"]["levels"]) == 1,
                 f"{level['table']} has {level['bins']} bins")
        c.expect(all(r <= len(header["regions"]["name"]) for r in t["region"]),
                 f"{level['table']} names a region that does not exist")
    widths = [lv["width"] for lv in header["lod"]["levels"]]
    c.equal(widths, sorted(widths, reverse=True), "levels coarsest first")
    visits = rows(tables.get("visits"), VISIT)
    ends = [v[0] for v in visits]
    c.equal(ends, sorted(ends), "visits in end order")
    per_loc = {}
    for end, dur, loc, depth, region in visits:
        per_loc.setdefault(loc, []).append((end - dur, end, depth, region))
    for loc, vs in per_loc.items():
        last_end = {}
        for start, end, depth, region in vs:
            c.expect(start >= last_end.get(depth, 0),
                     f"location {loc}: visits of depth {depth} overlap at {start}")
            last_end[depth] = end
    check_profile(c, header, tables, summary)
    return header, tables


def check_profile(c, header, tables, summary):
    res = header["timer"]["resolution"]
    names = header["regions"]["name"]
    p = rows(tables["profile"], ["bin", "region", "visits", "incl", "excl"])
    c.expect(all(b < header["profile"]["bins"] for b, *_ in p), "profile bin out of range")
    sums = {}
    for _, r, visits, incl, excl in p:
        s = sums.setdefault(names[r], [0, 0, 0])
        s[0] += visits
        s[1] += incl
        s[2] += excl
    want = {r["name"]: r for r in summary["regions"]}
    c.equal(sorted(sums), sorted(want), "regions in the profile")
    for name, (visits, incl, excl) in sums.items():
        if name not in want:
            continue
        w = want[name]
        c.equal(visits, w["visits"], f"profile visits of {name}")
        # summary prints seconds with nine decimals
        c.expect(abs(incl / res - w["inclusive_s"]) <= 1e-9 + 1e-12 * incl / res,
                 f"profile inclusive time of {name}: {incl / res} s, summary {w['inclusive_s']}")
        c.expect(abs(excl / res - w["exclusive_s"]) <= 1e-9 + 1e-12 * excl / res,
                 f"profile exclusive time of {name}: {excl / res} s, summary {w['exclusive_s']}")
    stats = header["stats"]
    c.equal(stats["events"], summary["events"], "stats.events")
    c.equal(stats["messages"], summary["mpi"]["p2p_total"]["received_messages"], "stats.messages")
    c.equal(stats["collectives"], sum(x["calls"] for x in summary["mpi"]["collectives"]),
            "stats.collectives")
    if header["detail"]["markers"] == "all":
        for table, stat in (("messages", "messages"), ("collectives", "collectives"),
                            ("threads", "thread_events")):
            c.equal(header["tables"][table]["count"], stats[stat], f"all {table} embedded")


def view(c, args, trace, page, extra=(), max_bytes=25 * 1024 * 1024):
    """weft check, weft summary and weft view of TRACE; the page checked."""
    checked = run([args.weft, "check", trace], what="weft check")
    c.expect(checked.stdout.startswith("weft check: sound: "), "weft check finds the trace sound")
    summary = json.loads(run([args.weft, "summary", "--format", "json", trace],
                             what="weft summary").stdout)
    out = run([args.weft, "view", trace, "-o", page] + list(extra), what="weft view").stdout
    c.expect(re.search(r"^weft view: wrote /\S+ \(", out, re.M) is not None,
             f"weft view says where the page is: {out!r}")
    c.expect(f"open it in any browser: file://{os.path.abspath(page)}\n" in out,
             f"weft view says how to open it: {out!r}")
    header, tables = check_page(c, page, summary, max_bytes)
    return header, tables, summary


def browser(c, args, page, expect=None):
    """browser_test.mjs on PAGE; its screenshot next to the page."""
    png = os.path.splitext(page)[0] + ".png"
    cmd = ["node", os.path.join(args.page_dir, "test", "browser_test.mjs"), page, png]
    if expect:
        cmd.append(expect)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          cwd=args.page_dir)
    print(proc.stdout, end="")
    c.expect(proc.returncode == 0, f"browser test of {page} failed")
    c.expect(os.path.exists(png), f"no screenshot {png}")


# --- Scenarios ----------------------------------------------------------------------------

def everything(c, header, summary):
    d = header["detail"]
    c.equal((d["windows"], d["min_duration"], d["markers"], d["truncated_at"]),
            ([[0, header["timer"]["duration"] + 1]], 0, "all", None), "everything embedded")
    c.equal(header["tables"]["visits"]["count"], sum(r["visits"] for r in summary["regions"]),
            "every visit embedded")


def check_known(c, args):
    trace = os.path.join(args.work, "trace")
    run([args.writer_known, trace, "balanced"], what="write_known_trace")
    page = os.path.join(args.work, "known.html")
    header, tables, summary = view(c, args, trace, page)
    everything(c, header, summary)
    ms = 1000000
    # known_trace: A [0,100] {B [10,30], B [40,60]}; A [0,50] {B [5,45] {B [10,20]}};
    # C [0,90] {A [20,40]} (regions A 0, B 1, C 2; origin 0).
    want = sorted([(30, 20, 0, 1, 1), (60, 20, 0, 1, 1), (100, 100, 0, 0, 0),
                   (20, 10, 1, 2, 1), (45, 40, 1, 1, 1), (50, 50, 1, 0, 0),
                   (40, 20, 2, 1, 0), (90, 90, 2, 0, 2)])
    got = [(e // ms, d // ms, l, dp, r) for e, d, l, dp, r in rows(tables["visits"], VISIT)]
    c.equal(sorted(got), want, "the visits")
    c.equal(header["timer"], {"resolution": 1000 * ms, "origin": "0", "duration": 100 * ms},
            "timer")
    c.equal(header["regions"]["name"], ["A", "B", "C"], "region names")
    c.equal(header["regions"]["paradigm"], ["user"] * 3, "region paradigms")
    browser(c, args, page)


def check_other_writer(c, args):
    """write_broken_trace's sound trace: OTF2 written by another writer than
    weft's, with thread teams, locks, an allreduce's begin/end pair, and
    locations defined out of display order."""
    trace = os.path.join(args.work, "trace")
    run([args.writer_broken, trace, args.variant], what="write_broken_trace")
    page = os.path.join(args.work, f"{args.variant}.html")
    header, tables, summary = view(c, args, trace, page)
    everything(c, header, summary)
    program = args.variant == "with_program"
    c.equal(header["locations"]["name"], ["Master thread", "OpenMP thread 1", "Master thread"],
            "locations in display order")
    c.equal(header["locations"]["group"], [0, 0, 1], "location groups")
    c.equal(header["groups"], {"name": ["MPI Rank 0", "MPI Rank 1"], "rank": [0, 1]}, "groups")
    c.equal(header["regions"]["paradigm"],
            ["user", "user", "mpi", "mpi", "mpi", "measurement"], "region paradigms")
    c.equal(header["regions"]["role"][2:5], ["point2point", "point2point", "coll_all2all"],
            "region roles")
    c.equal(header["timer"], {"resolution": 10 ** 9, "origin": "1000000", "duration": 400},
            "timer")
    # (end, dur, loc, depth, region): main 0, foo 1, MPI_Send 2, MPI_Recv 3, MPI_Allreduce 4,
    # the program region 5 (with_program: rank 1 runs in it, from 1 to 301).
    d1 = 1 if program else 0
    want = [(70, 30, 0, 1, 1), (76, 36, 1, 0, 1), (110, 10, 0, 1, 2), (151, 51, 2, 1 + d1, 3),
            (211, 11, 0, 1, 4), (211, 11, 2, 1 + d1, 4), (300, 290, 0, 0, 0),
            (300, 290, 2, d1, 0)] + ([(301, 300, 2, 0, 5)] if program else [])
    c.equal(rows(tables["visits"], VISIT), sorted(want, key=lambda v: (v[0], v[2])), "the visits")
    c.equal(rows(tables["messages"], ["recv", "transfer", "sender", "receiver", "tag", "bytes",
                                      "comm"]), [(150, 49, 0, 2, 5, 8, 0)], "the message")
    c.equal(rows(tables["collectives"], ["end", "dur", "loc", "op", "comm", "root", "sent",
                                         "received"]),
            [(210, 9, 0, 11, 0, 0, 4, 8), (210, 9, 2, 11, 0, 0, 4, 8)], "the collectives")
    c.equal(rows(tables["threads"], ["time", "loc", "kind", "team"]),
            [(20, 0, 0, 2), (90, 0, 1, 0)], "fork and join")
    c.equal(header["comms"], {"name": ["MPI_COMM_WORLD", "Thread team"], "size": [2, 2]},
            "communicators")
    browser(c, args, page)


def generated(args, events, name):
    trace = os.path.join(args.work, name)
    expect = os.path.join(args.work, f"{name}.expect.json")
    run([args.writer_view, trace, str(events), "16", "4", expect], what="write_view_trace")
    return trace, expect


def check_big(c, args):
    trace, expect = generated(args, args.events, "big")
    page = os.path.join(args.work, "big.html")
    header, tables, summary = view(c, args, trace, page, ["--progress=always"])
    c.equal(len(header["locations"]["name"]), 64, "locations")
    browser(c, args, page, expect)


def check_converted(c, args):
    """An EPILOG trace of the POMP era (write_epilog's hybrid scenario: two
    processes of two threads, parallel regions, locks, messages,
    collectives) converted by weft convert, then viewed."""
    elg = os.path.join(args.work, "hybrid.elg")
    run([args.writer_epilog, "hybrid", elg], what="write_epilog")
    trace = os.path.join(args.work, "converted")
    run([args.weft, "convert", elg, trace], what="weft convert")
    page = os.path.join(args.work, "converted.html")
    header, tables, summary = view(c, args, trace, page)
    everything(c, header, summary)
    c.equal(header["groups"]["rank"], [0, 1], "ranks")
    c.equal(len(header["locations"]["name"]), 4, "locations")
    c.expect(header["stats"]["messages"] > 0 and header["stats"]["collectives"] > 0 and
             header["stats"]["thread_events"] > 0, f"markers: {header['stats']}")
    browser(c, args, page)


def check_no_length(c, args):
    """A trace whose ClockProperties give no length: weft view finds the
    first and last event in a pass of its own; the origin is the first."""
    trace = os.path.join(args.work, "trace")
    run([args.writer_view, "--no-length", trace, "100000", "2", "2"], what="write_view_trace")
    page = os.path.join(args.work, "no_length.html")
    header, tables, summary = view(c, args, trace, page)
    everything(c, header, summary)
    # the first event at 1000 (an enter), the last at 1000 + (n - 1) * 10000 + 9900
    iterations = 100000 // (2 * (23 + 6))
    c.equal(header["timer"], {"resolution": 10 ** 9, "origin": "1000",
                              "duration": (iterations - 1) * 10000 + 9900}, "timer")
    c.equal(min(e - d for e, d in zip(tables["visits"]["end"], tables["visits"]["dur"])), 0,
            "the first visit starts at the origin")
    browser(c, args, page)


def selected(full, header):
    """The visits of FULL (every visit) the detail of HEADER promises, in order."""
    d = header["detail"]
    win = d["windows"]
    md = d["min_duration"]
    out = []
    for v in full:
        end, dur = v[0], v[1]
        start = end - dur
        if (md is not None and dur >= md) or any(start < b and end >= a for a, b in win):
            out.append(v)
    return out


def check_bounded(c, args):
    """Under a small bound: the page stays within it and holds exactly the
    visits its detail promises (a prefix of them in end order when cut)."""
    trace, expect = generated(args, 400000, "bounded")
    full_page = os.path.join(args.work, "full.html")
    full_header, full_tables, summary = view(c, args, trace, full_page)
    everything(c, full_header, summary)
    full = rows(full_tables["visits"], VISIT)
    # (bound, options, least share of the bound used); the last asks for a
    # window of the whole run, which the hard stop must cut
    cases = ((400 * 1024, [], 0.5), (200 * 1024, [], 0), (400 * 1024, ["--window=0.002:0.003"], 0),
             (300 * 1024, ["--window=0:1"], 0.6))
    for bound, extra, use in cases:
        page = os.path.join(args.work, f"bounded-{bound}{'-' if extra else ''}"
                                       f"{extra[0][9:].replace(':', '-') if extra else ''}.html")
        header, tables, _ = view(c, args, trace, page, [f"--max-size={bound}"] + extra, bound)
        d = header["detail"]
        got = rows(tables["visits"], VISIT)
        want = selected(full, header)
        c.expect(len(want) < len(full) or extra == ["--window=0:1"],
                 f"{page}: a detail, not everything")
        if d["truncated_at"] is None:
            c.equal(got, want, f"{page}: the visits the detail promises")
        else:
            c.equal(got, want[:len(got)], f"{page}: a prefix of the promised visits")
            c.expect(all(v[0] >= d["truncated_at"] for v in want[len(got):]),
                     f"{page}: a promised visit before truncated_at is missing")
        if extra == ["--window=0.002:0.003"]:
            c.equal(d["windows"], [[2 * 10 ** 6, 3 * 10 ** 6]], f"{page}: the window asked for")
        if extra == ["--window=0:1"]:
            c.expect(d["truncated_at"] is not None and len(got) > 1000,
                     f"{page}: cut by the hard stop after more than 1000 visits "
                     f"(truncated_at {d['truncated_at']}, {len(got)} visits)")
        c.expect(os.path.getsize(page) >= bound * use,
                 f"{page}: {os.path.getsize(page)} bytes, less than {use:.0%} of the bound")
    browser(c, args, os.path.join(args.work, f"bounded-{400 * 1024}.html"), expect)
    browser(c, args, os.path.join(args.work, f"bounded-{300 * 1024}-0-1.html"))


def record_mpi(args, program, ranks, extra_env, program_args=()):
    trace = os.path.join(args.work, "trace")
    version = subprocess.run([args.mpiexec, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
    flags = ["--allow-run-as-root", "--oversubscribe", "--bind-to", "none"] \
        if "Open MPI" in version or "OpenRTE" in version else []
    env = dict(os.environ, WEFT_EXPERIMENT_DIRECTORY=trace, **extra_env)
    forward = []
    if flags:
        for name in ["WEFT_EXPERIMENT_DIRECTORY"] + list(extra_env):
            forward += ["-x", name]
    run([args.mpiexec] + flags + ["-np", str(ranks)] + forward + [program] + list(program_args),
        env=env, what="mpirun")
    return trace


def check_recorded(c, args):
    if args.scenario == "omp":
        build = os.path.join(args.work, "build")
        os.makedirs(build)
        program = os.path.join(build, "summary_omp")
        run([args.weft, "compile", "--", "gcc", "-fopenmp", "-O1", args.source, "-o", program],
            what="weft compile")
        trace = os.path.join(args.work, "trace")
        env = dict(os.environ, WEFT_EXPERIMENT_DIRECTORY=trace, OMP_NUM_THREADS="2",
                   OMP_WAIT_POLICY="passive", LD_PRELOAD=os.environ.get("WEFT_TEST_PRELOAD", ""))
        run([program], env=env, what="the OpenMP program")
    elif args.scenario == "mpi":
        trace = record_mpi(args, args.program, 2, {})
    else:
        # the bundled example on a smaller grid; passive waiting, as the 2 ranks x
        # 2 threads share 2 cores with the rest of the suite
        trace = record_mpi(args, args.program, 2,
                           {"OMP_NUM_THREADS": "2", "OMP_WAIT_POLICY": "passive"}, ["256", "200"])
    page = os.path.join(args.work, f"{args.scenario}.html")
    header, tables, summary = view(c, args, trace, page)
    everything(c, header, summary)
    c.equal(len(header["locations"]["name"]), summary["locations"], "locations")
    families = set(header["regions"]["paradigm"])
    want = {"omp": {"openmp"}, "mpi": {"mpi"}, "hybrid": {"openmp", "mpi"}}[args.scenario]
    c.expect(want <= families, f"paradigms {families} lack {want - families}")
    browser(c, args, page)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=["known", "other_writer", "program", "big", "bounded",
                                             "no_length", "converted", "omp", "mpi", "hybrid"])
    parser.add_argument("--weft", required=True)
    parser.add_argument("--work", required=True, help="emptied first")
    parser.add_argument("--page-dir", required=True, help="tools/view/page with node_modules")
    parser.add_argument("--writer-known")
    parser.add_argument("--writer-broken")
    parser.add_argument("--writer-view")
    parser.add_argument("--writer-epilog")
    parser.add_argument("--variant", default="good")
    parser.add_argument("--events", type=int, default=5000000)
    parser.add_argument("--program")
    parser.add_argument("--source")
    parser.add_argument("--mpiexec")
    args = parser.parse_args()
    if shutil.which("node") is None:
        print("check_view: node is not installed (scripts/install-deps installs it): skipped")
        return SKIP
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    c = Checker()
    if args.scenario == "program":  # the sound trace with a ProgramBegin/End pair
        args.variant = "with_program"
    {"known": check_known, "other_writer": check_other_writer, "program": check_other_writer,
     "big": check_big, "no_length": check_no_length, "converted": check_converted,
     "bounded": check_bounded, "omp": check_recorded, "mpi": check_recorded,
     "hybrid": check_recorded}[args.scenario](c, args)
    if c.problems:
        print(f"check_view {args.scenario}: {len(c.problems)} problem(s); files in {args.work}")
        for p in c.problems:
            print("  " + p)
        return 1
    print(f"check_view {args.scenario}: all checks passed; pages and screenshots in {args.work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
