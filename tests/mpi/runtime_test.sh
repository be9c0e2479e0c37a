#!/bin/sh
# The MPI runtime's tests (CTest mpi_runtime_*): jobs of 4 ranks under
# libiolens.so, each checking one property of the log(s) they leave.
#
#   runtime_test.sh LIB IOLENS BINDIR DARSHAN_PARSER MODE
#
# LIB             libiolens.so (libiolens-mpi.so beside it)
# IOLENS          the iolens command
# BINDIR          where the mpi_* programs are (build/tests/mpi)
# DARSHAN_PARSER  Darshan 3.5's darshan-parser, or "" (that check is then
#                 skipped with a message)
# MODE            fpp      mpi_fpp_posix: exactly one log, no partial file and
#                          no record file left, nprocs 4, the counters of
#                          expected/fpp_posix.txt through iolens parse and
#                          through darshan-parser
#                 fortran  mpi_fortran_io: the same checks against
#                          expected/fortran_io.txt
#                 coll_at, indep_at, mixed, nonblocking, shared_fp, std_streams,
#                 strided_view
#                          mpi_MODE: the same checks against
#                          expected/MODE.txt (shared records of rank -1
#                          included)
#                 linked   mpi_coll_at_linked (coll_at linked against LIB, not
#                          preloaded): the checks of coll_at
#                 noreduce mpi_mixed with DISABLE_SHARED_REDUCTION on rank 1
#                          only: one log, no rank -1 record, every rank's own
#                          record of a file all ranks wrote, read by both
#                          parsers
#                 nompi    a program without MPI under LIB loads no MPI library
#                          (and not libiolens-mpi.so)
#                 nolib    LIB without libiolens-mpi.so beside it: every rank
#                          leaves a log of its own (nprocs 1)
#                 hints    mpi_fpp_posix with LOGHINTS holding a malformed
#                          entry and a hint no MPI knows: the log is written
#                          with the counters of expected/fpp_posix.txt, the
#                          IOLENS_DEBUG output shows the info object given to
#                          the log's MPI_File_open with both good hints and
#                          the bad entry skipped, the metadata line h= holds
#                          LOGHINTS as given (Darshan's); LOGHINTS empty: no
#                          h= line; unset: Darshan's default (Open MPI:
#                          cb_nodes=1)
#                 rankexcl mpi_fpp_posix with RANK_EXCLUDE=1:2: one log of 4
#                          processes with records of ranks 0 and 3 only;
#                          with RANK_INCLUDE=2 too, of ranks 0, 2 and 3;
#                          mpi_rank_pre with RANK_EXCLUDE=3: rank 3's records
#                          made before MPI_Init are dropped too, and all.dat,
#                          which rank 3 never records, has no shared record
#                 iolensrun mpirun -np 4 iolens run -o FILE: the MPI job log
#                          is FILE (counters of fpp_posix), and each rank's
#                          iolens run writes its helper's I/O into a log
#                          of its own beside it, leaving no run directory
#                 killed   mpi_rt_killed (every rank dies of SIGKILL before
#                          MPI_Finalize): each rank's records are in a record
#                          file that iolens recover turns into a log, or in
#                          the rank's own log when mpirun's SIGTERM came first
#
# Jobs start as run.sh starts them (mpirun --oversubscribe, root allowed).
# In an IOLENS_SANITIZE build (IOLENS_TEST_SANITIZE=ON) libasan is preloaded
# before LIB, as in ../workloads/ctest.sh; without it the test is skipped.
set -eu
export LC_ALL=C
[ $# -eq 5 ] || { echo "usage: $0 LIB IOLENS BINDIR DARSHAN_PARSER MODE" >&2; exit 2; }
lib=$1 iolens=$2 bindir=$3 dparser=$4 mode=$5
here=$(cd "$(dirname "$0")" && pwd)
bindir=$(cd "$bindir" && pwd)
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

# Open MPI's own allocations outlive MPI_Finalize.
. "$here/../lib/preload.sh"
sanitizer_preload "$lib" "detect_leaks=0:$asan_signals"

t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-mpirt.XXXXXX")
scratch=
trap 'rm -rf "$t" ${scratch:+"$scratch"}' EXIT
mkdir "$t/mmap" "$t/ompi"
# Open MPI 4's session directory in this test's own directory: two mpiruns
# of concurrent tests that create the shared /tmp/ompi.HOST.UID at the same
# moment can fail ("File exists"), and some modes start several jobs.
export OMPI_MCA_orte_tmpdir_base="${OMPI_MCA_orte_tmpdir_base:-$t/ompi}"
# Record files go here, so that the test sees whether any is left behind.
export IOLENS_MMAP_DIR="$t/mmap"

# run PROGRAM: the job under $preload; its scratch directory in $scratch,
# its normal form in $t/normal (names hold the scratch path: it stays put).
run() {
    [ -z "$scratch" ] || rm -rf "$scratch" # a mode's earlier run
    "$here/run.sh" -k "$preload" "$iolens parse --base" "$1" > "$t/normal" 2> "$t/run.err" ||
        { cat "$t/run.err"; fail "$(basename "$1") did not run"; }
    scratch=$(sed -n 's/^run.sh: scratch directory //p' "$t/run.err")
    [ -d "$scratch" ] || fail "no scratch directory from run.sh"
}

# one_log: exactly one file in the job's log directory; its path in $log.
one_log() {
    n=$(find "$scratch/logs" -type f | wc -l)
    [ "$n" -eq 1 ] || { ls -l "$scratch/logs"; fail "$n files in the log directory, expected 1 log"; }
    log=$(find "$scratch/logs" -type f)
    case $log in *.darshan) ;; *) fail "$log: not a finished log" ;; esac
    left=$(find "$t/mmap" -type f | wc -l)
    [ "$left" -eq 0 ] || { ls -l "$t/mmap"; fail "$left record files left behind"; }
}

# nprocs_of PARSER_OUTPUT: the job's process count as printed.
nprocs_of() {
    sed -n 's/^# nprocs: //p' "$1"
}

# counters NAME [PROGRAM]: run PROGRAM (default mpi_NAME); exactly one log
# with nprocs 4 whose normal form, through iolens parse and through
# darshan-parser, equals expected/NAME.txt (every POSIX, MPI-IO, STDIO and
# HEATMAP counter, shared records included).
counters() {
    run "${2:-$bindir/mpi_$1}"
    one_log
    "$here/normalize.sh" --strip "$here/expected/$1.txt" > "$t/want"
    diff "$t/want" "$t/normal" > "$t/diff" || { head -40 "$t/diff"; fail "iolens parse: counters differ from expected/$1.txt"; }
    "$iolens" parse "$log" > "$t/parsed" || fail "iolens parse cannot read $log"
    [ "$(nprocs_of "$t/parsed")" = 4 ] || fail "iolens parse: nprocs is not 4"
    dparse
    [ -n "$dparser" ] || return 0
    "$here/normalize.sh" "$scratch/d" "$t/dbase" > "$t/dnormal"
    diff "$t/want" "$t/dnormal" > "$t/diff" || { head -40 "$t/diff"; fail "darshan-parser: counters differ from expected/$1.txt"; }
}

# dparse: darshan-parser reads $log (nprocs 4), its --base output in
# $t/dbase; without darshan-parser, an empty $t/dbase and a message.
dparse() {
    : > "$t/dbase"
    if [ -z "$dparser" ]; then
        echo "darshan-parser not found (configure with -DIOLENS_DARSHAN_PARSER=...): not checked"
        return
    fi
    "$dparser" "$log" > "$t/dparsed" || fail "darshan-parser cannot read $log"
    [ "$(nprocs_of "$t/dparsed")" = 4 ] || fail "darshan-parser: nprocs is not 4"
    "$dparser" --base "$log" > "$t/dbase" || fail "darshan-parser --base failed"
}

case $mode in
fpp)
    counters fpp_posix
    ;;
fortran)
    [ -x "$bindir/mpi_fortran_io" ] || fail "mpi_fortran_io not built (MPI for Fortran not found: gfortran)"
    counters fortran_io
    ;;
coll_at | indep_at | mixed | nonblocking | shared_fp | std_streams | strided_view)
    counters "$mode"
    ;;
linked)
    # The program needs the runtime itself: nothing is preloaded (in a
    # sanitizer build the program carries the sanitizer runtime).
    preload=none
    counters coll_at "$bindir/mpi_coll_at_linked"
    ;;
noreduce)
    # One rank's setting is enough: a rank that skipped the reduction while
    # the others ran it would leave them waiting.
    mkdir "$t/d" "$t/logs"
    (
        cd "$t/d"
        timeout "${MPI_WL_TIMEOUT:-300}" ${MPIEXEC:-mpirun --oversubscribe} -np 4 \
            env IOLENS_LOGPATH="$t/logs" PRELOAD="$preload" sh -c \
            'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export IOLENS_DISABLE_SHARED_REDUCTION=1; fi
             LD_PRELOAD=$PRELOAD exec "$0" "$@"' "$bindir/mpi_mixed" "$t/d" < /dev/null > "$t/out" 2>&1
    ) || { cat "$t/out"; fail "mpi_mixed did not run"; }
    scratch=$t
    one_log
    "$iolens" parse --base "$log" > "$t/parsed" || fail "iolens parse cannot read $log"
    dparse
    for f in "$t/parsed" "$t/dbase"; do
        [ -s "$f" ] || continue
        "$here/normalize.sh" "$t/d" "$f" > "$t/normal"
        ! grep -q '^[A-Z-]*	-1	' "$t/normal" || fail "$f: a shared record (rank -1)"
        ranks=$(awk -F '\t' '$1 == "POSIX" && $3 == "POSIX_OPENS" && $5 == "@DIR@/all_equal.dat" { print $2 }' "$t/normal" | tr '\n' ' ')
        [ "$ranks" = "0 1 2 3 " ] || fail "$f: all_equal.dat records of ranks '$ranks', expected 0 1 2 3"
    done
    ;;
hints)
    # A key no MPI knows is still handed over (and ignored by the MPI). Not
    # cb_nodes=2: Open MPI 4.1.4's OMPIO then corrupts about one log in four.
    hints='cb_nodes=1;bogus;iolens_test_hint=yes'
    export IOLENS_DEBUG=1 IOLENS_LOGHINTS="$hints"
    counters fpp_posix
    grep -q 'with MPI-IO hints: cb_nodes=1;iolens_test_hint=yes$' "$scratch/stderr" ||
        { cat "$scratch/stderr"; fail "the log was not opened with the hints of LOGHINTS"; }
    grep -q 'LOGHINTS: "bogus" skipped' "$scratch/stderr" ||
        { cat "$scratch/stderr"; fail "the malformed entry of LOGHINTS was not reported"; }
    for f in "$t/parsed" "$t/dparsed"; do
        [ -f "$f" ] || continue
        grep -qxF "# metadata: h = $hints" "$f" || fail "$f: no metadata line h = $hints"
    done
    # Empty: no hints at all, no h= line.
    export IOLENS_LOGHINTS=
    run "$bindir/mpi_fpp_posix"
    one_log
    grep -q 'with MPI-IO hints: (none)$' "$scratch/stderr" ||
        { cat "$scratch/stderr"; fail "LOGHINTS empty: the log was opened with hints"; }
    "$iolens" parse "$log" > "$t/parsed" || fail "iolens parse cannot read $log"
    ! grep -q '^# metadata: h = ' "$t/parsed" || fail "LOGHINTS empty: an h= metadata line"
    # Unset: the default of Darshan 3.5 built for the same MPI.
    unset IOLENS_LOGHINTS
    if mpirun --version 2>&1 | grep -q 'Open MPI'; then
        run "$bindir/mpi_fpp_posix"
        one_log
        "$iolens" parse "$log" > "$t/parsed" || fail "iolens parse cannot read $log"
        grep -qxF '# metadata: h = cb_nodes=1' "$t/parsed" ||
            fail "LOGHINTS unset: not Darshan's default for Open MPI (cb_nodes=1)"
    fi
    ;;
rankexcl)
    # ranks_with FILE: the ranks that have records in the log (iolens parse).
    ranks_with() {
        awk -F '\t' '!/^#/ && NF > 5 { print $2 }' "$1" | sort -un | tr '\n' ' '
    }
    export IOLENS_RANK_EXCLUDE=1:2
    run "$bindir/mpi_fpp_posix"
    one_log
    "$iolens" parse --base "$log" > "$t/parsed" || fail "iolens parse cannot read $log"
    [ "$(nprocs_of "$t/parsed")" = 4 ] || fail "RANK_EXCLUDE=1:2: nprocs is not 4"
    got=$(ranks_with "$t/parsed")
    [ "$got" = "0 3 " ] || fail "RANK_EXCLUDE=1:2: records of ranks '$got', expected 0 3"
    dparse
    export IOLENS_RANK_INCLUDE=2
    run "$bindir/mpi_fpp_posix"
    one_log
    "$iolens" parse --base "$log" > "$t/parsed" || fail "iolens parse cannot read $log"
    got=$(ranks_with "$t/parsed")
    [ "$got" = "0 2 3 " ] || fail "RANK_INCLUDE=2: records of ranks '$got', expected 0 2 3"
    unset IOLENS_RANK_INCLUDE
    export IOLENS_RANK_EXCLUDE=3
    run "$bindir/mpi_rank_pre"
    one_log
    "$iolens" parse --base "$log" > "$t/parsed" || fail "iolens parse cannot read $log"
    got=$(ranks_with "$t/parsed")
    [ "$got" = "0 1 2 " ] || fail "RANK_EXCLUDE=3: records of ranks '$got', expected 0 1 2"
    n=$(awk -F '\t' '$1 == "POSIX" && $4 == "POSIX_OPENS" && $6 ~ /\/pre\.[0-9]+$/' "$t/parsed" | wc -l)
    [ "$n" -eq 3 ] || fail "RANK_EXCLUDE=3: $n records of files written before MPI_Init, expected 3"
    ranks=$(awk -F '\t' '$1 == "POSIX" && $4 == "POSIX_OPENS" && $6 ~ /\/all\.dat$/ { print $2 }' "$t/parsed" | tr '\n' ' ')
    [ "$ranks" = "0 1 2 " ] || fail "RANK_EXCLUDE=3: all.dat records of ranks '$ranks', expected 0 1 2 (none shared)"
    ;;
nompi)
    # cat reads its own memory map while preloaded with the runtime.
    env LD_PRELOAD="$preload" IOLENS_LOGPATH="$t" cat /proc/self/maps > "$t/maps" ||
        fail "cat under $lib failed"
    grep -q 'libiolens\.so' "$t/maps" || fail "the runtime was not loaded"
    if grep -E 'libmpi|libopen-|libiolens-mpi' "$t/maps"; then
        fail "a program without MPI loaded an MPI library because of $lib"
    fi
    ;;
nolib)
    mkdir "$t/lib"
    cp "$lib" "$t/lib/"
    preload=$(echo "$preload" | sed "s|$lib|$t/lib/$(basename "$lib")|")
    run "$bindir/mpi_fpp_posix"
    n=$(find "$scratch/logs" -type f -name '*.darshan' | wc -l)
    [ "$n" -eq 4 ] || fail "$n logs, expected one per rank (4) without libiolens-mpi.so"
    for f in "$scratch"/logs/*.darshan; do
        "$iolens" parse "$f" > "$t/parsed" || fail "iolens parse cannot read $f"
        [ "$(nprocs_of "$t/parsed")" = 1 ] || fail "$f: nprocs is not 1"
    done
    ;;
killed)
    mkdir "$t/d" "$t/logs"
    (
        cd "$t/d"
        timeout "${MPI_WL_TIMEOUT:-300}" ${MPIEXEC:-mpirun --oversubscribe} -np 4 \
            env LD_PRELOAD="$preload" IOLENS_LOGPATH="$t/logs" \
            "$bindir/mpi_rt_killed" "$t/d" < /dev/null > "$t/out" 2>&1
    ) && fail "the killed job exited with status 0"
    # mpirun ends the ranks still alive with SIGTERM when the first dies:
    # such a rank writes a log of its own (as any process at a fatal signal).
    for f in "$t"/mmap/*.iolmap; do
        [ -f "$f" ] || continue
        "$iolens" recover -o "$t/logs" "$f" > /dev/null || fail "iolens recover $f failed"
    done
    : > "$t/files"
    for f in "$t"/logs/*.darshan; do
        [ -f "$f" ] || continue
        "$iolens" parse --show-incomplete "$f" > "$t/parsed" || fail "iolens parse cannot read $f"
        [ "$(nprocs_of "$t/parsed")" = 1 ] || fail "$f: nprocs is not 1"
        sed -n "s|^POSIX.*POSIX_BYTES_WRITTEN	1000	$t/d/\\(killed\\.[0-3]\\)	.*|\\1|p" \
            "$t/parsed" >> "$t/files"
    done
    got=$(sort "$t/files" | tr '\n' ' ')
    [ "$got" = "killed.0 killed.1 killed.2 killed.3 " ] ||
        { cat "$t/out"; fail "ranks' records found for '$got', expected killed.0 to killed.3 once each"; }
    ;;
iolensrun)
    # Each rank under its own iolens run, which also runs a helper of its
    # own: the MPI job log is written where -o says, with the counters of
    # expected/fpp_posix.txt; each rank's iolens run gathers only the other
    # processes of its tree (the helper's write), into a log of their own
    # beside it; no run directory or record file is left.
    mkdir "$t/d" "$t/logs"
    (
        cd "$t/d"
        timeout "${MPI_WL_TIMEOUT:-300}" ${MPIEXEC:-mpirun --oversubscribe} -np 4 \
            env ${asan:+LD_PRELOAD=$asan} "$iolens" run -o "$t/logs/job.darshan" sh -c \
            '"$0" "$1" && echo x > "$1/helper.$OMPI_COMM_WORLD_RANK"' \
            "$bindir/mpi_fpp_posix" "$t/d" < /dev/null > "$t/out" 2>&1
    ) || { cat "$t/out"; fail "mpirun of iolens run did not run"; }
    [ -z "$(ls -A "$t/mmap")" ] || { ls -lR "$t/mmap"; fail "left in IOLENS_MMAP_DIR"; }
    log=$t/logs/job.darshan
    [ -f "$log" ] || { ls -l "$t/logs"; cat "$t/out"; fail "no MPI job log at -o's name"; }
    "$iolens" parse "$log" > "$t/parsed" || fail "iolens parse cannot read $log"
    [ "$(nprocs_of "$t/parsed")" = 4 ] || fail "the MPI job log's nprocs is not 4"
    "$iolens" parse --base "$log" > "$t/base" || fail "iolens parse --base $log"
    "$here/normalize.sh" "$t/d" "$t/base" > "$t/normal"
    "$here/normalize.sh" --strip "$here/expected/fpp_posix.txt" > "$t/want"
    diff "$t/want" "$t/normal" > "$t/diff" ||
        { head -40 "$t/diff"; fail "the MPI job log's counters differ from expected/fpp_posix.txt"; }
    : > "$t/files"
    for f in "$t"/logs/*.darshan; do
        [ "$f" != "$log" ] || continue
        "$iolens" parse "$f" > "$t/parsed" || fail "iolens parse cannot read $f"
        [ "$(nprocs_of "$t/parsed")" = 1 ] || fail "$f: nprocs is not 1"
        awk -F '\t' '$1 == "POSIX" && $4 == "POSIX_OPENS" { print $6 }' "$t/parsed" >> "$t/files"
    done
    got=$(sed "s|^$t/d/||" "$t/files" | sort | tr '\n' ' ')
    [ "$got" = "helper.0 helper.1 helper.2 helper.3 " ] ||
        { ls -l "$t/logs"; fail "rank helpers' logs hold '$got', expected helper.0 to helper.3 once each"; }
    ;;
*)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
echo "ok: mpi_runtime $mode"
