#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of `weft summary` on traces weft records (and on the known trace
written by write_known_trace): runs the program, summarises its trace as
JSON, every CSV table and text, and compares the numbers with what the
program's structure guarantees. Visits, message counts and bytes must be
exact; times must lie between the sleeps the program makes (lower bound)
and the wall time of the run measured here (upper bound).

    check_summary.py SCENARIO --weft WEFT --work DIR [options]

SCENARIO is known, user, omp or mpi; see main() for the options of each.
The JSON schema checked here is the one docs/COMMANDS.md documents."""

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import time

# The trace timer is calibrated against CLOCK_MONOTONIC, whose sleeps give
# the lower bounds; allow it 0.1 % and 10 us of disagreement.
CLOCK_SLACK = 0.001
CLOCK_SLACK_S = 1e-5

P2P_FIELDS = {"sent_messages": int, "sent_bytes": int, "received_messages": int,
              "received_bytes": int}
OMP_FIELDS = {"explicit_barrier_s": float, "explicit_barrier_visits": int,
              "implicit_barrier_s": float, "implicit_barrier_visits": int,
              "lock_wait_s": float, "lock_acquisitions": int}
RANK = (int, type(None))
SCHEMA = {
    "schema_version": int, "generator": str, "weft_version": str, "trace": str,
    "timer_resolution": int, "duration_s": float, "location_groups": int, "ranks": int,
    "locations": int, "threads": int, "events": int, "unbalanced_events": int,
    "undefined_region_events": int, "undefined_communicator_events": int,
    "events_outside_regions": int,
    "root_inclusive_s": float, "regions_total": int,
    "regions": [{"name": str, "paradigm": str, "visits": int, "inclusive_s": float,
                 "exclusive_s": float, "inclusive_pct": float, "min_s": float,
                 "mean_s": float, "max_s": float, "location_count": int, "events": int}],
    "paradigms": [{"paradigm": str, "visits": int, "exclusive_s": float,
                   "exclusive_pct": float}],
    "mpi": {
        "p2p_total": P2P_FIELDS,
        "p2p_by_rank_pair": [dict(sender=RANK, receiver=RANK, **P2P_FIELDS)],
        "p2p_by_communicator": [dict(communicator=int, name=str, size=int, **P2P_FIELDS)],
        "collectives": [{"operation": str, "communicator": int, "communicator_name": str,
                         "communicator_size": int, "calls": int, "sent_bytes": int,
                         "received_bytes": int}],
    },
    "openmp": {
        "total": OMP_FIELDS,
        "locations": [dict(location=int, name=str, rank=RANK, **OMP_FIELDS)],
    },
    "io": [{"rank": RANK, "file": str, "reads": int, "read_bytes": int, "writes": int,
            "written_bytes": int, "flushes": int, "time_s": float}],
}
# CSV table -> (path of the JSON list it mirrors, its columns in order).
CSV_TABLES = {
    "regions": ("regions", list(SCHEMA["regions"][0])),
    "paradigms": ("paradigms", list(SCHEMA["paradigms"][0])),
    "p2p_pairs": ("mpi.p2p_by_rank_pair", list(SCHEMA["mpi"]["p2p_by_rank_pair"][0])),
    "p2p_communicators": ("mpi.p2p_by_communicator",
                          list(SCHEMA["mpi"]["p2p_by_communicator"][0])),
    "collectives": ("mpi.collectives", list(SCHEMA["mpi"]["collectives"][0])),
    "openmp_locations": ("openmp.locations", list(SCHEMA["openmp"]["locations"][0])),
    "io": ("io", list(SCHEMA["io"][0])),
}
OVERVIEW_COLUMNS = ["trace", "duration_s", "location_groups", "ranks", "locations", "threads",
                    "events", "regions_total", "unbalanced_events", "undefined_region_events",
                    "undefined_communicator_events"]
PARADIGMS = ["user", "openmp", "mpi", "measurement", "other"]


class Checker:
    def __init__(self):
        self.problems = []

    def expect(self, ok, what):
        if not ok:
            self.problems.append(what)
        return ok

    def equal(self, got, want, what):
        return self.expect(got == want, f"{what}: got {got!r}, expected {want!r}")

    def between(self, got, low, high, what):
        """LOW <= GOT <= HIGH, LOW taken with the clock slack."""
        low = low * (1 - CLOCK_SLACK) - CLOCK_SLACK_S
        return self.expect(low <= got <= high, f"{what}: {got} s is not in [{low}, {high}]")


def run(cmd, env=None, what=None):
    """Runs CMD, returns (stdout, wall seconds); stops the test when it fails."""
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"{what or cmd[0]} failed (exit status {proc.returncode}): {' '.join(cmd)}\n"
                 f"--- stdout:\n{proc.stdout}--- stderr:\n{proc.stderr}")
    return proc, wall


def check_schema(c, value, schema, path="summary"):
    """VALUE has exactly the keys and types of SCHEMA (a type, a tuple of
    types, a dict of fields or a one-element list of item schemas)."""
    if isinstance(schema, dict):
        if not c.expect(isinstance(value, dict), f"{path} is not an object"):
            return
        c.equal(sorted(value), sorted(schema), f"keys of {path}")
        for key, sub in schema.items():
            if key in value:
                check_schema(c, value[key], sub, f"{path}.{key}")
    elif isinstance(schema, list):
        if c.expect(isinstance(value, list), f"{path} is not an array"):
            for i, item in enumerate(value):
                check_schema(c, item, schema[0], f"{path}[{i}]")
    elif schema is float:
        c.expect(isinstance(value, (int, float)) and not isinstance(value, bool),
                 f"{path} is not a number: {value!r}")
    else:
        c.expect(isinstance(value, schema) and not isinstance(value, bool),
                 f"{path} has the wrong type: {value!r}")


def section(summary, path):
    for key in path.split("."):
        summary = summary[key]
    return summary


def csv_value(text, kind):
    if kind is float:
        return float(text)
    if kind is RANK:
        return None if text == "" else int(text)
    return kind(text)


def field_kind(table, column):
    json_path = CSV_TABLES[table][0]
    item = section(SCHEMA, json_path)[0]
    return item[column]


def summarise(c, weft, trace):
    """JSON, every CSV table and the text of TRACE; checks that they agree.
    `weft check` must find TRACE sound first."""
    proc, _ = run([weft, "check", trace], what="weft check")
    c.expect(proc.stdout.startswith("weft check: sound: "), "weft check finds the trace sound")
    proc, _ = run([weft, "summary", trace, "--format", "json"], what="weft summary --format json")
    c.equal(proc.stderr, "", "stderr of weft summary --format json")
    summary = json.loads(proc.stdout)
    check_schema(c, summary, SCHEMA)
    c.equal(summary["schema_version"], 1, "schema_version")
    c.equal([p["paradigm"] for p in summary["paradigms"]], PARADIGMS, "paradigm rows")
    c.equal(summary["regions_total"], len(summary["regions"]), "regions_total (all shown)")
    # Every event is counted to one region, or to none.
    c.equal(sum(r["events"] for r in summary["regions"]) + summary["events_outside_regions"],
            summary["events"], "the regions' events and those outside any region")

    for table, (json_path, columns) in CSV_TABLES.items():
        proc, _ = run([weft, "summary", trace, "--format=csv", "--table", table],
                      what=f"weft summary --table {table}")
        rows = list(csv.reader(io.StringIO(proc.stdout)))
        if not c.equal(rows[0] if rows else None, columns, f"CSV header of {table}"):
            continue
        want = section(summary, json_path)
        c.equal(len(rows) - 1, len(want), f"CSV rows of {table}")
        for row, item in zip(rows[1:], want):
            got = {col: csv_value(text, field_kind(table, col)) for col, text in zip(columns, row)}
            c.equal(got, item, f"CSV row of {table}")
    proc, _ = run([weft, "summary", trace, "--format", "csv", "--table", "overview"])
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    c.equal(rows[0], OVERVIEW_COLUMNS, "CSV header of overview")
    for col, text in zip(rows[0], rows[1]):
        c.equal(csv_value(text, type(summary[col])), summary[col], f"CSV overview {col}")

    proc, _ = run([weft, "summary", trace, "--top", "0"], what="weft summary (text)")
    for r in summary["regions"]:
        c.expect(f"  {r['name']}\n" in proc.stdout, f"text output lacks region {r['name']}")
    return summary


def regions_by_name(summary):
    return {r["name"]: r for r in summary["regions"]}


def check_paradigm_totals(c, s):
    """Each paradigm's visits and exclusive time are the sums of its regions'."""
    for p in s["paradigms"]:
        mine = [r for r in s["regions"] if r["paradigm"] == p["paradigm"]]
        c.equal(p["visits"], sum(r["visits"] for r in mine), f"{p['paradigm']} visits")
        c.expect(abs(p["exclusive_s"] - sum(r["exclusive_s"] for r in mine)) < 1e-6,
                 f"{p['paradigm']} exclusive time is not the sum of its regions'")


def check_known(c, args):
    """write_known_trace's balanced trace: every number is exact."""
    trace = os.path.join(args.work, "trace")
    run([args.writer, trace], what="write_known_trace")
    s = summarise(c, args.weft, trace)
    c.equal((s["duration_s"], s["location_groups"], s["ranks"], s["locations"], s["threads"],
             s["events"]), (0.1, 2, 2, 3, 3, 17), "header")
    got = [(r["name"], r["visits"], r["inclusive_s"], r["exclusive_s"], r["min_s"], r["max_s"],
            r["location_count"], r["paradigm"]) for r in s["regions"]]
    c.equal(got, [("A", 3, 0.17, 0.09, 0.02, 0.1, 3, "user"),
                  ("C", 1, 0.09, 0.07, 0.09, 0.09, 1, "user"),
                  ("B", 4, 0.08, 0.08, 0.04, 0.04, 2, "user")], "regions")
    # A: 3 enters, 3 leaves and the buffer flush recorded inside it; B, C: their own.
    c.equal({r["name"]: r["events"] for r in s["regions"]}, {"A": 7, "B": 8, "C": 2},
            "events per region")
    c.equal(s["events_outside_regions"], 0, "events outside any region")
    c.equal(s["paradigms"][0], {"paradigm": "user", "visits": 8, "exclusive_s": 0.24,
                                "exclusive_pct": 100.0}, "user paradigm")
    c.equal(s["mpi"]["p2p_by_rank_pair"] + s["mpi"]["collectives"] + s["openmp"]["locations"],
            [], "MPI and OpenMP sections")
    proc, _ = run([args.weft, "summary", trace, "--format", "json", "--top", "1"])
    c.equal([r["name"] for r in json.loads(proc.stdout)["regions"]], ["A"], "--top 1 in JSON")


USER_SLEEP_LONG, USER_SLEEP_SHORT, USER_SLEEP_INNER = 0.040, 0.015, 0.005


def check_user(c, args):
    trace = os.path.join(args.work, "trace")
    env = dict(os.environ, WEFT_EXPERIMENT_DIRECTORY=trace)
    _, wall = run([args.program], env=env, what="the user-region program")
    s = summarise(c, args.weft, trace)
    c.equal((s["location_groups"], s["ranks"], s["locations"], s["threads"]), (1, 1, 1, 1),
            "groups, ranks, locations, threads")
    r = regions_by_name(s)
    visits = {"work": 1, "sleep_long": 3, "pair": 2, "sleep_short": 4, "recurse": 4}
    program = os.path.basename(args.program)  # the region ProgramBegin enters
    c.equal({name: r[name]["visits"] for name in visits if name in r}, visits, "visits")
    c.equal(sorted(r), sorted(list(visits) + [program]), "regions")
    if sorted(r) != sorted(list(visits) + [program]):
        return
    c.equal((r[program]["visits"], r[program]["paradigm"]), (1, "measurement"),
            "the program region's visits and paradigm")
    c.between(r[program]["inclusive_s"], r["work"]["inclusive_s"], wall,
              "inclusive time of the program region")
    low = {"sleep_long": 3 * USER_SLEEP_LONG, "sleep_short": 4 * USER_SLEEP_SHORT,
           "recurse": USER_SLEEP_INNER}
    low["pair"] = low["sleep_short"]
    low["work"] = low["sleep_long"] + low["pair"] + low["recurse"]
    for name, bound in low.items():
        c.between(r[name]["inclusive_s"], bound, wall, f"inclusive time of {name}")
        c.expect(r[name]["exclusive_s"] <= r[name]["inclusive_s"] + 1e-9,
                 f"{name}: exclusive above inclusive")
    for name in ("sleep_long", "sleep_short", "recurse"):  # nothing else inside
        c.expect(abs(r[name]["exclusive_s"] - r[name]["inclusive_s"]) < 2e-9,
                 f"{name}: exclusive {r[name]['exclusive_s']} != inclusive")
    children = r["sleep_long"]["inclusive_s"] + r["pair"]["inclusive_s"] + r["recurse"]["inclusive_s"]
    c.expect(abs(r["work"]["exclusive_s"] - (r["work"]["inclusive_s"] - children)) < 5e-9,
             "work: exclusive is not inclusive minus its children")
    c.between(s["duration_s"], r["work"]["inclusive_s"], wall, "duration")
    c.expect(s["events"] >= 2 * sum(visits.values()), f"only {s['events']} events")
    check_paradigm_totals(c, s)
    c.equal(s["paradigms"][0]["visits"], sum(visits.values()), "user visits")


OMP_WAIT = 0.050        # WAIT_MS
OMP_RUNS = 2            # untimed, timed
OMP_THREADS = 2


def check_omp(c, args):
    build = os.path.join(args.work, "build")
    os.makedirs(build)
    program = os.path.join(build, "summary_omp")
    run([args.weft, "compile", "--", args.compiler, "-fopenmp", "-O1", args.source, "-o",
         program], what="weft compile")
    trace = os.path.join(args.work, "trace")
    env = dict(os.environ, WEFT_EXPERIMENT_DIRECTORY=trace, OMP_NUM_THREADS="2",
               OMP_WAIT_POLICY="passive", LD_PRELOAD=os.environ.get("WEFT_TEST_PRELOAD", ""))
    _, wall = run([program], env=env, what="the OpenMP program")
    s = summarise(c, args.weft, trace)
    c.equal((s["ranks"], s["threads"]), (1, OMP_THREADS), "ranks, threads")
    r = s["regions"]

    def visits(prefix):
        return sum(x["visits"] for x in r if x["name"].startswith(prefix))

    per_thread_run = {"!$omp barrier @summary_omp.c:": 3, "!$omp implicit barrier @": 1,
                      "!$omp parallel @": 1, "!$omp critical @": 1, "omp_set_lock": 1,
                      "omp_unset_lock": 1}
    for prefix, n in per_thread_run.items():
        c.equal(visits(prefix), n * OMP_RUNS * OMP_THREADS, f"visits of {prefix}")

    omp = s["openmp"]
    c.equal(len(omp["locations"]), OMP_THREADS, "OpenMP locations")
    for loc in omp["locations"]:
        c.equal((loc["rank"], loc["explicit_barrier_visits"], loc["implicit_barrier_visits"],
                 loc["lock_acquisitions"]), (0, 3 * OMP_RUNS, OMP_RUNS, 2 * OMP_RUNS),
                f"rank and counts of location {loc['name']}")
        for key in ("explicit_barrier_s", "implicit_barrier_s", "lock_wait_s"):
            c.between(loc[key], 0, wall, f"{key} of {loc['name']}")
    # Thread 0 (location id 0: thread << 32 | rank) waited at least WAIT_MS in
    # each of the four places.
    master = [loc for loc in omp["locations"] if loc["location"] == 0]
    if c.equal(len(master), 1, "location 0 among the OpenMP locations"):
        m = master[0]
        c.between(m["explicit_barrier_s"], OMP_WAIT, wall, "thread 0 explicit barrier time")
        c.between(m["implicit_barrier_s"], OMP_WAIT, wall, "thread 0 implicit barrier time")
        c.between(m["lock_wait_s"], 2 * OMP_WAIT, wall, "thread 0 lock wait")
    total = omp["total"]
    for key in OMP_FIELDS:
        got, want = total[key], sum(loc[key] for loc in omp["locations"])
        c.expect(abs(got - want) < 1e-6, f"openmp.total.{key} {got} != sum {want}")
    c.equal(total["explicit_barrier_visits"], visits("!$omp barrier @"), "barrier visits total")
    c.equal(total["implicit_barrier_visits"], visits("!$omp implicit barrier @"),
            "implicit barrier visits total")
    check_paradigm_totals(c, s)


def p2p(messages, size):
    return {"sent_messages": messages, "sent_bytes": messages * size,
            "received_messages": messages, "received_bytes": messages * size}


def add(*counts):
    return {k: sum(x[k] for x in counts) for k in P2P_FIELDS}


def check_mpi(c, args):
    trace = os.path.join(args.work, "trace")
    version = subprocess.run([args.mpiexec, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
    flags = ["--allow-run-as-root", "--oversubscribe", "--bind-to", "none"] \
        if "Open MPI" in version or "OpenRTE" in version else []
    env = dict(os.environ, WEFT_EXPERIMENT_DIRECTORY=trace)
    run([args.mpiexec] + flags + ["-np", "2", "-x", "WEFT_EXPERIMENT_DIRECTORY", args.program],
        env=env, what="mpirun")
    s = summarise(c, args.weft, trace)
    c.equal((s["location_groups"], s["ranks"], s["threads"]), (2, 2, 2),
            "groups, ranks, threads")
    r = regions_by_name(s)
    visits = {"MPI_Send": 5 + 7, "MPI_Recv": 5 + 7, "MPI_Isend": 3, "MPI_Irecv": 3,
              "MPI_Waitall": 2, "MPI_Sendrecv": 2 * 4 + 2, "MPI_Allreduce": 2 * 3,
              "MPI_Barrier": 2, "MPI_Bcast": 2 * 2, "MPI_Comm_dup": 2, "MPI_Comm_split": 2,
              "MPI_Comm_free": 4}
    c.equal({n: r[n]["visits"] if n in r else 0 for n in visits}, visits, "MPI region visits")
    for name in visits:
        if name in r:
            c.equal(r[name]["paradigm"], "mpi", f"paradigm of {name}")

    world_0_1, world_1_0 = p2p(5, 400), p2p(3, 80)
    dup_each_way, split_1_0, self_each = p2p(4, 16), p2p(7, 8), p2p(1, 4)
    pairs = {(0, 0): self_each, (0, 1): add(world_0_1, dup_each_way),
             (1, 0): add(world_1_0, dup_each_way, split_1_0), (1, 1): self_each}
    got = {(p["sender"], p["receiver"]): {k: p[k] for k in P2P_FIELDS}
           for p in s["mpi"]["p2p_by_rank_pair"]}
    c.equal(got, pairs, "messages per rank pair")
    c.equal(s["mpi"]["p2p_total"], add(*pairs.values()), "p2p total")

    # The two derived communicators are both named "MPI Communicator": compare
    # (name, size, traffic) as a sorted list.
    comms = [("MPI_COMM_WORLD", 2, add(world_0_1, world_1_0)),
             ("MPI Communicator", 2, add(dup_each_way, dup_each_way)),
             ("MPI Communicator", 2, split_1_0),
             ("MPI_COMM_SELF", 1, add(self_each, self_each))]
    got = [(x["name"], x["size"], {k: x[k] for k in P2P_FIELDS})
           for x in s["mpi"]["p2p_by_communicator"]]
    key = lambda row: (row[0], row[2]["sent_messages"])  # noqa: E731
    c.equal(sorted(got, key=key), sorted(comms, key=key), "messages per communicator")

    # Byte counts (docs/MPI.md): Allreduce of b bytes on N ranks sends and
    # receives N*b per rank; Bcast: the root sends N*b, every rank receives b.
    colls = [("allreduce", "MPI_COMM_WORLD", 2 * 3, 2 * 3 * 2 * 8, 2 * 3 * 2 * 8),
             ("barrier", "MPI_COMM_WORLD", 2, 0, 0),
             ("bcast", "MPI Communicator", 2 * 2, 2 * 2 * 64, 2 * 2 * 64)]
    got = [(x["operation"], x["communicator_name"], x["calls"], x["sent_bytes"],
            x["received_bytes"]) for x in s["mpi"]["collectives"]]
    c.equal(sorted(got), colls, "collectives")
    bcast = [x for x in s["mpi"]["collectives"] if x["operation"] == "bcast"]
    dup_ids = [x["communicator"] for x in s["mpi"]["p2p_by_communicator"]
               if x["sent_messages"] == 8 and x["name"] == "MPI Communicator"]
    c.equal([x["communicator"] for x in bcast], dup_ids, "bcast on the dup communicator")
    check_paradigm_totals(c, s)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=["known", "user", "omp", "mpi"])
    parser.add_argument("--weft", required=True)
    parser.add_argument("--work", required=True, help="emptied first")
    parser.add_argument("--writer", help="known: write_known_trace")
    parser.add_argument("--program", help="user, mpi: the test program")
    parser.add_argument("--source", help="omp: summary_omp.c")
    parser.add_argument("--compiler", default="gcc", help="omp: the C compiler")
    parser.add_argument("--mpiexec", help="mpi: the launcher")
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    c = Checker()
    {"known": check_known, "user": check_user, "omp": check_omp, "mpi": check_mpi}[
        args.scenario](c, args)
    if c.problems:
        print(f"check_summary {args.scenario}: {len(c.problems)} problem(s); trace in {args.work}")
        for p in c.problems:
            print("  " + p)
        return 1
    print(f"check_summary {args.scenario}: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
