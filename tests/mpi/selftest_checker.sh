#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Tests check_mpi_trace itself, without MPI or weft: write_fake_trace writes
# the trace a correct weft would record for mpi_fortran.f90 on 2 ranks,
# which must pass, and variants with one fault each, which must fail with
# the message that names the fault.
#
#   selftest_checker.sh WRITER CHECKER WORKDIR
set -uo pipefail
writer=$1 checker=$2 work=$3
failed=0

# variant|text the checker's output must contain ("" for the good trace)
cases=(
    "good|"
    "lost_recv|MPI_Recv holds no MPI record"
    "wrong_bytes|sent 16 bytes"
    "self_peer|channel 0 -> 0"
    "wrong_root|root of MPI_Bcast"
    "split_order|the split's Allreduce is on comm"
    "no_offsets|ClockOffset records, expected at least 2"
    "double_record|MPI_Send holds MPI_SEND x2"
    "early_recv|1 receive(s) end before their send began"
)
for case in "${cases[@]}"; do
    variant=${case%%|*} expected=${case#*|}
    rm -rf "$work/$variant"
    mkdir -p "$work"
    if ! "$writer" "$work/$variant" "$variant"; then
        echo "selftest: writing the $variant trace failed"
        failed=1
        continue
    fi
    output=$("$checker" "$work/$variant/traces.otf2" fortran 2 2>&1)
    status=$?
    if [ -z "$expected" ]; then
        if [ $status -ne 0 ]; then
            echo "$output"
            echo "selftest: the correct trace failed the checker (exit status $status)"
            failed=1
        fi
    elif [ $status -ne 1 ] || [[ "$output" != *"$expected"* ]]; then
        echo "$output"
        echo "selftest: variant $variant: expected exit status 1 and \"$expected\", got $status"
        failed=1
    else
        echo "selftest: $variant rejected as expected"
    fi
done
exit $failed
