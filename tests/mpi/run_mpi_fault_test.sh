#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A 2-rank MPI job that ends badly, and `weft recover` (docs/FAULTS.md):
#
#   run_mpi_fault_test.sh MPIEXEC WEFT PROGRAM WORKDIR MODE
#
# MODE abort: rank 1 calls MPI_Abort after a random number of iterations;
# no-finalize: rank 1 returns from main without MPI_Finalize; kill9: rank 1
# is killed with SIGKILL at a random moment; sigterm: the launcher gets
# SIGTERM at a random moment (a batch system's time limit) and passes it to
# every rank. In the first three the launcher then
# ends rank 0 (Open MPI's mpirun with SIGTERM, MPICH's Hydra with SIGKILL),
# no traces.otf2 is written, and every rank leaves its journal; `weft
# recover` then makes a trace of both ranks. weft check finds it sound when
# every rank wrote all it recorded and no message or collective lost its
# partner; otherwise (a rank killed with SIGKILL) it reports one line,
# "recovered with losses", and nothing else (docs/FAULTS.md), as recover's
# report does.
# Where a rank wrote its part itself (MPI_Abort, the end of a rank without
# MPI_Finalize, SIGTERM) its trace holds exactly the "work" regions it
# entered (the program writes the count as it goes); a rank killed with
# SIGKILL holds a beginning of them (rank 1, killed after 400 iterations of
# 2,000 events: not an empty one). io-rma-abort: as abort, with an MPI-IO
# write and a put between two fences per iteration, which the recovered
# trace holds as the ranks made them (rank 1 one of each per "work" region,
# rank 0 one per "work" region it holds, the last maybe missing). The seed is printed; WEFT_TEST_SEED repeats a
# run.
set -uo pipefail
mpiexec=$1 weft=$2 program=$3 work=$4 mode=$5
seed=${WEFT_TEST_SEED:-$(( $(date +%s%N) % 100000 ))}
echo "seed $seed (WEFT_TEST_SEED=$seed repeats this test)"
rm -rf "$work"
mkdir -p "$work"
export WEFT_EXPERIMENT_DIRECTORY="$work/trace" WEFT_BUFFER_SIZE=256K
forward=()
open_mpi=false
if "$mpiexec" --version 2>&1 | grep -qE 'Open MPI|OpenRTE'; then
    open_mpi=true
    # mpirun sends SIGKILL at most 1 s after SIGTERM by default: on a busy
    # machine too short for a rank with a large part to write it, and the
    # test would not know which it saw (docs/FAULTS.md says how to give
    # ranks more time; run_abort_race.sh runs with the default).
    forward+=(--allow-run-as-root --oversubscribe --bind-to none
              --mca odls_base_sigkill_timeout 5)
    for name in $(compgen -e); do
        case $name in WEFT_*) forward+=(-x "$name") ;; esac
    done
fi
program_mode=$mode
[ "$mode" = kill9 ] || [ "$mode" = sigterm ] && program_mode=loop
timeout --kill-after=10 60 "$mpiexec" -np 2 "${forward[@]}" "$program" "$program_mode" "$work" \
    "$seed" >"$work/run.log" 2>&1 &
job=$!
if [ "$mode" = kill9 ] || [ "$mode" = sigterm ]; then
    for _ in $(seq 3000); do
        [ -s "$work/count.1" ] && [ "$(cat "$work/count.1")" -gt 400 ] && break
        sleep 0.01
    done
    sleep "0.$(( seed % 7 ))"
    if [ "$mode" = kill9 ]; then
        kill -9 "$(cat "$work/pid.1")"
    else
        kill -TERM "$(pgrep -P $job)" # the launcher, under timeout
    fi
fi
wait $job
status=$?
echo "mpirun ended with status $status"
[ $status -ne 124 ] || { cat "$work/run.log"; echo "the job hung"; exit 1; }
! $open_mpi || [ $status -ne 0 ] || { cat "$work/run.log"; echo "the job did not fail"; exit 1; }
[ ! -e "$work/trace/traces.otf2" ] || { echo "traces.otf2 exists: nothing to recover?"; exit 1; }
ls "$work/trace/journal"
[ -f "$work/trace/journal/0.journal" ] && [ -f "$work/trace/journal/1.journal" ] ||
    { cat "$work/run.log"; echo "a rank left no journal"; exit 1; }

"$weft" recover "$work/trace" >"$work/recover.out" 2>&1 || { cat "$work/recover.out"; exit 1; }
cat "$work/recover.out"
"$weft" check "$work/trace" >"$work/check.out" 2>&1
status=$?
cat "$work/check.out"
if grep -q "lost: \|left out" "$work/recover.out"; then
    grep -q "recovered with losses" "$work/recover.out" ||
        { echo "the report does not say the trace was recovered with losses"; exit 1; }
    [ $status -eq 1 ] && [ "$(wc -l <"$work/check.out")" -eq 1 ] &&
        grep -q "^weft check: recovered with losses: " "$work/check.out" ||
        { echo "weft check does not find the trace recovered with losses (only)"; exit 1; }
    verdict="recovered with losses"
else
    [ $status -eq 0 ] || { echo "the recovered trace is not sound"; exit 1; }
    verdict=sound
fi

# "work" regions entered per rank, from otf2-print's Enter records.
otf2-print "$work/trace/traces.otf2" >"$work/print" || { echo "otf2-print fails"; exit 1; }
work_region=$(otf2-print -G "$work/trace/traces.otf2" |
              sed -n 's/^REGION *\([0-9]*\) *Name: "work".*/\1/p' | head -1)
# A rank the launcher ended wrote its part when that was SIGTERM; SIGKILL
# left what had reached the disk.
wrote() {
    grep -q "rank $1 (.*) ended by signal 15" "$work/recover.out"
}
ended_by_launcher=(0)
[ "$mode" = sigterm ] && ended_by_launcher=(0 1)
for rank in "${ended_by_launcher[@]}"; do
    if $open_mpi && ! wrote $rank; then
        echo "the report does not say that rank $rank was ended by SIGTERM"
        exit 1
    fi
    wrote $rank || grep -q "rank $rank (.*) still recording when it ended" "$work/recover.out" ||
        { echo "the report does not say how rank $rank ended"; exit 1; }
done
for rank in 0 1; do
    entered=$(awk -v r="$rank" -v w="\"work\" <$work_region>" \
        '$1 == "ENTER" && $2 % 4294967296 == r && index($0, w) {n++} END {print n + 0}' \
        "$work/print")
    expected=$(cat "$work/count.$rank")
    in_trace[$rank]=$entered
    echo "rank $rank: $entered work regions in the trace, $expected entered"
    by_launcher=false
    [ "$rank" = 0 ] || [ "$mode" = sigterm ] && by_launcher=true
    if $by_launcher && ! wrote $rank; then
        [ "$entered" -le "$expected" ] || { echo "rank $rank: more than it entered"; exit 1; }
    elif [ "$mode" = kill9 ] && [ "$rank" = 1 ]; then
        # What OTF2 had written of its events: a beginning, and not nothing
        # after 400 iterations of 2,000 events (OTF2 holds up to 4.5 MiB per
        # thread).
        [ "$entered" -le "$expected" ] && [ "$entered" -gt 0 ] ||
            { echo "not a beginning of what the rank entered"; exit 1; }
    else
        [ "$entered" -eq "$expected" ] || { echo "rank $rank: not what it entered"; exit 1; }
    fi
done
if [ "$mode" = io-rma-abort ]; then
    for rank in 0 1; do
        # Per "work" region in the trace: rank 0's may end inside its last
        # one (ended by the launcher; with MPICH's SIGKILL the trace holds
        # only what reached the disk, maybe nothing).
        expected=${in_trace[$rank]}
        for record in IO_OPERATION_BEGIN IO_OPERATION_COMPLETE RMA_PUT; do
            n=$(awk -v r="$rank" -v k="$record" '$1 == k && $2 % 4294967296 == r {n++}
                END {print n + 0}' "$work/print")
            echo "rank $rank: $n $record records, $expected work regions in the trace"
            if [ "$rank" = 1 ]; then
                [ "$n" -eq "$expected" ] || { echo "rank 1: not one $record per iteration"; exit 1; }
            else
                [ "$n" -le "$expected" ] && [ "$n" -ge $((expected > 0 ? expected - 1 : 0)) ] ||
                    { echo "rank 0: not one $record per iteration"; exit 1; }
            fi
        done
    done
fi
case $mode in
abort|io-rma-abort) grep -q "rank 1 (.*) called MPI_Abort" "$work/recover.out" ||
           { echo "the report does not say that rank 1 called MPI_Abort"; exit 1; } ;;
no-finalize) grep -q "rank 1 (.*) ended without MPI_Finalize" "$work/recover.out" ||
                 { echo "the report does not say how rank 1 ended"; exit 1; } ;;
kill9) grep -q "rank 1 (.*) still recording when it ended" "$work/recover.out" ||
           { echo "the report does not say that rank 1 was killed"; exit 1; } ;;
esac
echo "recovered: both ranks, $verdict"
