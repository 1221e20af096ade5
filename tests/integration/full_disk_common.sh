# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the full-disk tests (run_full_disk_test.sh,
# run_full_disk_other_writer.sh); uses their $weft and $work.

# mount_small_disk SIZE: a fresh tmpfs of SIZE at $work/disk, set as $mnt
# and unmounted when the test ends; exit 77 (skipped) where it cannot be
# mounted (that needs root).
mount_small_disk() {
    mnt=$work/disk
    if mountpoint -q "$mnt" 2>/dev/null; then umount "$mnt"; fi
    rm -rf "$work"
    mkdir -p "$mnt"
    if ! mount -t tmpfs -o "size=$1" weft-test "$mnt" 2>"$work/mount.err"; then
        echo "skipped: cannot mount a small tmpfs here ($(head -1 "$work/mount.err"))"
        exit 77
    fi
    trap 'umount "$mnt"' EXIT
}

# check_reports_only_lost TRACE: weft check exits 1 on TRACE and reports
# the events each location lost (weft::events_lost), and nothing else; its
# output stays in $work/check.out.
check_reports_only_lost() {
    "$weft" check "$1" >"$work/check.out"
    local status=$?
    cat "$work/check.out"
    [ $status -eq 1 ] || { echo "weft check exited with $status, not 1 (events lost)"; exit 1; }
    if grep -v "^weft check: [0-9]* problems* ([0-9]* shown) in " "$work/check.out" |
        grep -vq "the recorder lost [0-9]* of its events (weft::events_lost)"; then
        echo "weft check reports more than the lost events"; exit 1
    fi
    grep -q "the recorder lost [0-9]* of its events (weft::events_lost)" "$work/check.out" ||
        { echo "weft check does not report the lost events"; exit 1; }
}
