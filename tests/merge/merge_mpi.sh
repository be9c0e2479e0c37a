#!/bin/sh
# iolens merge on real MPI jobs (CTest merge_*), 4 ranks under libiolens.so.
#
#   merge_mpi.sh LIB IOLENS MPIBIN MERGEBIN MODE
#
# LIB       libiolens.so (libiolens-mpi.so beside it)
# IOLENS    the iolens command
# MPIBIN    where the mpi_* workloads are (build/tests/mpi)
# MERGEBIN  where order_probe and reduce_order are (build/tests/merge)
# MODE      order    Open MPI's MPI_Reduce, run as 2, 3, 4, 5 and 8 processes
#                    on messages of 24 bytes to 1.4 MB, combines the operands
#                    in the order iolens_combine_reduce_order gives
#           coll_at, mixed
#                    mpi_MODE run twice in the same directory, as usual (one
#                    job log) and with IOLENS_LOG_PER_RANK=1 (four logs, each
#                    with the job's header and its rank); iolens merge of the
#                    four gives the job log's counters, rank -1 records
#                    included: iolens diff --ignore-timers shows only the job
#                    id, the job log's MPI-IO hints line (h=), what timers
#                    decide (the fastest and slowest rank, the size of the
#                    slowest read and write) and Open MPI's own shared-memory
#                    files (their names hold process ids);
#                    merge refuses, in one line, a job log with a rank's log,
#                    three of the four, and logs of two jobs
#           jobs     darshan#401: two runs of mpi_mixed, two job logs with
#                    shared records of the same files; merge refuses them in
#                    one line, and with --force lays the jobs' ranks one after
#                    the other (nprocs 8) and combines each file's two rank -1
#                    records into one (opens and bytes summed), where
#                    darshan-merge keeps both jobs' records side by side
#           killed   mpi_rt_killed (every rank dies of SIGKILL): the record
#                    files iolens recover turns into logs (and the logs of
#                    ranks that mpirun's SIGTERM reached first) merge into one
#                    log of 4 ranks, each rank's file its own, iolens_killed=K
#                    for the K recovered
set -eu
export LC_ALL=C
[ $# -eq 5 ] || { echo "usage: $0 LIB IOLENS MPIBIN MERGEBIN MODE" >&2; exit 2; }
lib=$1 iolens=$2 mpibin=$3 mergebin=$4 mode=$5
here=$(cd "$(dirname "$0")" && pwd)
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
case $iolens in /*) ;; *) iolens=$(pwd)/$iolens ;; esac

fail() {
    echo "FAIL: $*"
    exit 1
}

command -v mpirun > /dev/null 2>&1 ||
    fail "mpirun not found: install Open MPI (openmpi-bin, libopenmpi-dev; scripts/install-deps)"
[ -f "$lib" ] || fail "$lib not built"
if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0:$asan_signals"

t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-merge.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir "$t/ompi" "$t/mmap"
export OMPI_MCA_orte_tmpdir_base="$t/ompi" IOLENS_MMAP_DIR="$t/mmap"

# job NP LOGDIR PROGRAM [VAR=VALUE...]: PROGRAM as NP ranks in $t/w (made
# afresh) under the runtime, logs in LOGDIR.
job() {
    np=$1 logdir=$2 prog=$3
    shift 3
    rm -rf "$t/w" "$logdir"
    mkdir -p "$t/w" "$logdir"
    xs=
    for a in "$@"; do xs="$xs -x ${a%%=*}"; done
    # shellcheck disable=SC2086 # $xs: one -x per variable
    # LD_PRELOAD for the ranks only, not for mpirun.
    (cd "$t/w" && env "$@" IOLENS_LOGPATH="$logdir" \
        mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$preload" -x IOLENS_LOGPATH \
        -x IOLENS_MMAP_DIR -x OMPI_MCA_orte_tmpdir_base $xs "$prog" "$t/w") > "$t/job.out" 2>&1 ||
        [ "${JOB_MAY_FAIL:-}" = 1 ] ||
        { cat "$t/job.out"; fail "$(basename "$prog") did not run as $np ranks"; }
}

# refused EXPECTED ARGS...: iolens merge ARGS exits 1 with the one line
# "iolens merge: EXPECTED" and writes nothing.
refused() {
    want=$1
    shift
    rm -f "$t/refused.darshan"
    if "$iolens" merge "$t/refused.darshan" "$@" > "$t/out" 2> "$t/err"; then
        fail "merge of $* was not refused"
    fi
    [ "$(cat "$t/err")" = "iolens merge: $want" ] ||
        { cat "$t/err"; fail "merge: expected the one line 'iolens merge: $want'"; }
    [ ! -e "$t/refused.darshan" ] || fail "a refused merge wrote its output"
}

case $mode in
order)
    for np in 2 3 4 5 8; do
        mpirun --oversubscribe -np $np "$mergebin/order_probe" > "$t/mpi" 2> "$t/mpi.err" ||
            { cat "$t/mpi.err"; fail "order_probe did not run as $np processes"; }
        "$mergebin/reduce_order" $np > "$t/iolens"
        if ! diff "$t/mpi" "$t/iolens" > "$t/diff"; then
            cat "$t/diff"
            "$mergebin/reduce_order" -v $np
            fail "$np processes: Open MPI's reduction order is not iolens_combine_reduce_order's (< MPI, > iolens)"
        fi
        [ "$(wc -l < "$t/mpi")" -ge 40 ] || fail "order_probe printed too little"
    done
    echo "PASS: Open MPI's MPI_Reduce order for 2 to 8 processes"
    ;;
coll_at | mixed)
    prog=$mpibin/mpi_$mode
    job 4 "$t/one" "$prog"
    job 4 "$t/ranks" "$prog" IOLENS_LOG_PER_RANK=1
    one=$(find "$t/one" -name '*.darshan')
    [ "$(echo "$one" | wc -l)" -eq 1 ] || fail "the usual run left $(echo "$one" | wc -l) logs"
    set -- "$t/ranks"/*_rank[0-3].darshan
    [ $# -eq 4 ] && [ "$(find "$t/ranks" -type f | wc -l)" -eq 4 ] ||
        { ls -l "$t/ranks"; fail "IOLENS_LOG_PER_RANK=1: expected 4 logs named *_rankR.darshan"; }
    for r in 0 1 2 3; do
        l=$(echo "$t/ranks"/*_rank$r.darshan)
        "$iolens" parse "$l" > "$t/p$r" || fail "iolens parse cannot read $l"
        grep -q '^# nprocs: 4$' "$t/p$r" || fail "$l: nprocs is not the job's 4"
        grep -q "^# metadata: iolens_rank = $r$" "$t/p$r" || fail "$l: no metadata iolens_rank=$r"
        if grep -v '^#' "$t/p$r" | awk -v r=$r 'NF > 2 && $2 != r { bad = 1 } END { exit !bad }'; then
            fail "$l: a record whose rank is not $r"
        fi
    done
    "$iolens" merge "$t/merged.darshan" "$@" 2> "$t/err" || { cat "$t/err"; fail "merge failed"; }
    [ ! -s "$t/err" ] || { cat "$t/err"; fail "merge said something"; }
    st=0
    "$iolens" diff --ignore-timers "$one" "$t/merged.darshan" > "$t/diff" || st=$?
    [ $st -le 1 ] || fail "iolens diff failed ($st)"
    # What legitimately differs between two runs of one job.
    grep -v -e '^job	jobid	' -e '^job	metadata h	cb_nodes=1	-$' \
        -e '	[A-Z_]*_\(FASTEST\|SLOWEST\)_RANK\(_BYTES\)\?	' \
        -e '	[A-Z]*_MAX_\(READ\|WRITE\)_TIME_SIZE	' -e "	$t/ompi/" "$t/diff" \
        > "$t/unexplained" || true
    [ ! -s "$t/unexplained" ] ||
        { cat "$t/unexplained"; fail "the merged log differs from the job log (< job log, > merged)"; }
    # The same files shared (rank -1), Open MPI's own files aside.
    for l in "$one" "$t/merged.darshan"; do
        "$iolens" parse "$l" | awk -F '\t' '!/^#/ && $2 == -1 { print $1 "\t" $3 "\t" $6 }' |
            grep -v "	$t/ompi/" | sort -u
    done > "$t/shared"
    nshared=$(sort -u "$t/shared" | wc -l)
    [ "$nshared" -gt 0 ] || fail "the job log has no rank -1 record to compare"
    [ "$(wc -l < "$t/shared")" -eq $((2 * nshared)) ] && [ "$(sort "$t/shared" | uniq -u | wc -l)" -eq 0 ] ||
        { sort "$t/shared" | uniq -u; fail "the job log and the merged log share different files"; }
    # Refusals, in one line.
    refused "$1 and $1 both hold rank 0" "$1" "$1" "$2" "$3" "$4"
    refused "no log of rank 3 of 4 (--force merges without it)" "$1" "$2" "$3"
    "$iolens" merge --force "$t/three.darshan" "$1" "$2" "$3" ||
        fail "merge --force of three ranks' logs failed"
    mkdir "$t/other"
    cp "$1" "$t/other/"
    job 4 "$t/ranks" "$prog" IOLENS_LOG_PER_RANK=1
    set -- "$t/ranks"/*_rank[0-3].darshan
    o=$(echo "$t/other"/*.darshan)
    j1=$("$iolens" parse "$o" | sed -n 's/^# jobid: //p')
    j2=$("$iolens" parse "$2" | sed -n 's/^# jobid: //p')
    refused "$o and $2 are logs of different jobs (job ids $j1 and $j2)" "$o" "$2" "$3" "$4"
    echo "PASS: $mode: the merged per-rank logs hold the job log's counters, $nshared shared records included"
    ;;
jobs)
    job 4 "$t/j1" "$mpibin/mpi_mixed"
    job 4 "$t/j2" "$mpibin/mpi_mixed"
    a=$(echo "$t/j1"/*.darshan) b=$(echo "$t/j2"/*.darshan)
    ja=$("$iolens" parse "$a" | sed -n 's/^# jobid: //p')
    jb=$("$iolens" parse "$b" | sed -n 's/^# jobid: //p')
    refused "$a and $b are logs of different jobs (job ids $ja and $jb)" "$a" "$b"
    "$iolens" merge --force "$t/m.darshan" "$a" "$b" 2> "$t/err" || { cat "$t/err"; fail "merge --force failed"; }
    "$iolens" parse "$t/m.darshan" > "$t/p"
    grep -q '^# nprocs: 8$' "$t/p" || fail "merged jobs: nprocs is not 8"
    # Each file both jobs share: one rank -1 record with both jobs' counts.
    for c in POSIX_OPENS POSIX_BYTES_WRITTEN; do
        "$iolens" parse "$a" "$b" | awk -F '\t' -v c=$c '!/^#/ && $2 == -1 && $1 == "POSIX" && $4 == c { s[$6] += $5; n[$6]++ }
            END { for (f in s) if (n[f] == 2) print f "\t" s[f] }' | grep -v "^$t/ompi/" | sort > "$t/want"
        awk -F '\t' -v c=$c '!/^#/ && $2 == -1 && $1 == "POSIX" && $4 == c { print $6 "\t" $5 }' "$t/p" |
            grep -v "^$t/ompi/" | sort > "$t/got"
        [ -s "$t/want" ] || fail "the two jobs share no file"
        join -t "	" "$t/want" "$t/got" | awk -F '\t' '$2 != $3 { bad = 1; print } END { exit bad }' ||
            fail "merged jobs: $c of a file both jobs share is not the sum of theirs"
        [ "$(join -t "	" "$t/want" "$t/got" | wc -l)" -eq "$(wc -l < "$t/want")" ] ||
            fail "merged jobs: a file both jobs share has no rank -1 record"
    done
    echo "PASS: jobs: two jobs' shared records of $(wc -l < "$t/want") files combined"
    ;;
killed)
    JOB_MAY_FAIL=1 job 4 "$t/logs" "$mpibin/mpi_rt_killed" IOLENS_JOBID_ENV=IOLENS_TEST_JOB \
        IOLENS_TEST_JOB=7401
    # A rank that mpirun's SIGTERM reached first wrote its own log instead.
    mkdir "$t/rec"
    k=$(find "$t/mmap" -name '*.iolmap' | wc -l)
    [ $((k + $(find "$t/logs" -name '*.darshan' | wc -l))) -eq 4 ] ||
        { ls -l "$t/mmap" "$t/logs"; fail "expected 4 record files or logs"; }
    [ "$k" -eq 0 ] || "$iolens" recover -o "$t/rec" "$t/mmap"/*.iolmap > /dev/null ||
        fail "iolens recover failed"
    # shellcheck disable=SC2046 # paths without blanks (mktemp's)
    set -- $(find "$t/rec" "$t/logs" -name '*.darshan' | sort)
    "$iolens" merge "$t/merged.darshan" "$@" 2> "$t/err" ||
        { cat "$t/err"; fail "merge of the recovered logs failed"; }
    "$iolens" parse "$t/merged.darshan" > "$t/p"
    grep -q '^# nprocs: 4$' "$t/p" || fail "merged: nprocs is not 4"
    grep -q '^# jobid: 7401$' "$t/p" || fail "merged: job id is not 7401"
    if [ "$k" -gt 0 ]; then
        grep -q "^# metadata: iolens_killed = $k$" "$t/p" || fail "merged: no iolens_killed=$k"
    fi
    for r in 0 1 2 3; do
        grep -q "^POSIX	$r	[0-9]*	POSIX_BYTES_WRITTEN	1000	.*/killed\.$r	" "$t/p" ||
            { grep killed "$t/p" | head; fail "merged: rank $r's killed file is not rank $r's"; }
    done
    echo "PASS: killed: the recovered logs of 4 ranks merge into one"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
