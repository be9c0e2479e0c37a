#!/bin/sh
# CTest link_fortran, link_mpi, link_install: programs linked with the
# runtime through `iolens link-flags`, run without LD_PRELOAD, record what
# the same programs record under LD_PRELOAD=libiolens.so (docs/runtime.md,
# "Linking the runtime into a program").
#
#   link_test.sh IOLENS SRC MODE
#
# IOLENS  the built iolens (its runtime beside it: ../lib)
# SRC     the source tree
# MODE    fortran  tests/static/fortran_io.f90 built twice: gfortran (dynamic,
#                  run with the runtime preloaded) and gfortran -static ...
#                  $(iolens link-flags) (run as it is): the same normal form,
#                  with the POSIX records of its four files
#         mpi      tests/mpi/mixed.c (mpicc) and tests/mpi/fortran_io.f90
#                  (mpif90), each built twice: plain (run as 4 ranks with the
#                  runtime preloaded) and with $(iolens link-flags --mpi) (run
#                  as they are): the same normal form of one job log, with
#                  MPI-IO records
#         install  make install into a scratch prefix: the installed iolens's
#                  options name the installed files only, and a C program
#                  linked with them (static, and --dynamic) records itself
#
# The tools a mode needs (gfortran and libgfortran.a; mpicc, mpif90 and
# mpirun) must be there: without them the test fails, naming the package.
# In an IOLENS_SANITIZE build (IOLENS_TEST_SANITIZE=ON) libiolens-static.a
# does not exist (the sanitizers cannot be linked statically): fortran and
# install are skipped (exit 77); mpi builds its programs with the sanitizers
# and preloads libasan before the runtime.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 IOLENS SRC fortran|mpi|install" >&2; exit 2; }
iolens=$1 src=$2 mode=$3
here=$(cd "$(dirname "$0")" && pwd)
lib=$(cd "$(dirname "$iolens")/../lib" && pwd)/libiolens.so
parser="$iolens parse --base"
sanitize=${IOLENS_TEST_SANITIZE:-OFF}

fail() { echo "FAIL: $*"; exit 1; }
need() {
    command -v "$1" > /dev/null || fail "$1 not found: install $2 (scripts/install-deps)"
}
static_only() {
    if [ "$sanitize" = ON ]; then
        echo "link_$mode: skipped: the sanitizers cannot be linked statically (no libiolens-static.a)"
        exit 77
    fi
}

t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-link.XXXXXX")
trap 'rm -rf "$t"' EXIT

# same NAME PRELOADED LINKED [-m]: run both programs (as 4 ranks with -m),
# the first with the runtime preloaded, the second as it is; their normal
# forms must be equal and not empty; the linked one's is left in $t/NAME.
same() {
    name=$1 preloaded=$2 linked=$3
    shift 3
    "$here/../lib/run.sh" "$@" "$preload" "$parser" "$preloaded" > "$t/$name.preloaded" ||
        fail "$name: the program did not run under LD_PRELOAD"
    "$here/../lib/run.sh" "$@" none "$parser" "$linked" > "$t/$name" ||
        fail "$name: the linked program did not run"
    [ -s "$t/$name.preloaded" ] || fail "$name: no log under LD_PRELOAD"
    if ! cmp -s "$t/$name.preloaded" "$t/$name"; then
        diff "$t/$name.preloaded" "$t/$name" | head -40
        fail "$name: the linked program's counters differ from the preloaded one's (< preloaded, > linked)"
    fi
    echo "ok   $name: $(grep -c . "$t/$name") lines of counters, the same linked and preloaded"
}

# has NAME MODULE FILE...: the normal form of NAME has records of MODULE for
# each FILE (a name under the run's directory).
has() {
    name=$1 module=$2
    shift 2
    for f in "$@"; do
        awk -F '\t' -v m="$module" -v f="@DIR@/$f" '$1 == m && $5 == f { found = 1 }
            END { exit !found }' "$t/$name" || fail "$name: no $module record of $f"
    done
}

# Flags of the workloads: the calls in the source are the calls made.
cflags="-O0 -fno-inline -fno-builtin -U_FORTIFY_SOURCE"
preload=$lib

case $mode in
fortran)
    static_only
    need gfortran gfortran
    case $(gfortran -print-file-name=libgfortran.a) in
        /*) ;;
        *) fail "libgfortran.a not found: install gfortran (scripts/install-deps)" ;;
    esac
    flags=$("$iolens" link-flags) || fail "iolens link-flags failed"
    gfortran -O0 -o "$t/fortran_io" "$here/fortran_io.f90"
    # shellcheck disable=SC2086 # flags is a list of options
    gfortran -static -O0 -o "$t/fortran_io_static" "$here/fortran_io.f90" $flags ||
        fail "gfortran -static ... \$(iolens link-flags) failed"
    same fortran_io "$t/fortran_io" "$t/fortran_io_static"
    has fortran_io POSIX seq.dat direct.dat stream.dat text.txt
    ;;
mpi)
    need mpicc libopenmpi-dev
    need mpif90 "libopenmpi-dev and gfortran"
    need mpirun openmpi-bin
    if [ "$sanitize" = ON ]; then
        # shellcheck source=tests/lib/preload.sh
        . "$here/../lib/preload.sh"
        sanitizer_preload "$lib" "detect_leaks=0:$asan_signals"
        cflags="$cflags -fsanitize=address,undefined"
        fflags="-fsanitize=address,undefined"
    else
        fflags=
    fi
    flags=$("$iolens" link-flags --mpi) || fail "iolens link-flags --mpi failed"
    inc="-I$src/tests/workloads"
    # shellcheck disable=SC2086 # cflags, fflags, inc and flags are lists of options
    {
        mpicc $cflags $inc -o "$t/mpi_mixed" "$src/tests/mpi/mixed.c"
        mpicc $cflags $inc -o "$t/mpi_mixed_linked" "$src/tests/mpi/mixed.c" $flags ||
            fail "mpicc ... \$(iolens link-flags --mpi) failed"
        mpif90 -O0 $fflags -J "$t" -o "$t/mpi_fortran" "$src/tests/mpi/fortran_io.f90"
        mpif90 -O0 $fflags -J "$t" -o "$t/mpi_fortran_linked" "$src/tests/mpi/fortran_io.f90" \
            $flags || fail "mpif90 ... \$(iolens link-flags --mpi) failed"
    }
    for prog in mpi_mixed_linked mpi_fortran_linked; do
        readelf -d "$t/$prog" | grep -q 'NEEDED.*\[libiolens\.so\]' ||
            fail "$prog does not need libiolens.so"
    done
    same mixed "$t/mpi_mixed" "$t/mpi_mixed_linked" -m
    same fortran "$t/mpi_fortran" "$t/mpi_fortran_linked" -m
    for name in mixed fortran; do
        [ "$(grep -c '^== log$' "$t/$name")" = 1 ] || fail "$name: not one log for the job"
    done
    has mixed MPI-IO sub.0.dat sub.1.dat
    has mixed POSIX all_equal.dat all_uneven.dat
    has fortran MPI-IO fortran.dat
    ;;
install)
    static_only
    cc=${IOLENS_TEST_CC:-cc}
    build=$(cd "$(dirname "$iolens")/.." && pwd)
    "${IOLENS_TEST_CMAKE:-cmake}" --install "$build" --prefix "$t/inst" > "$t/install.log" 2>&1 ||
        { cat "$t/install.log"; fail "cmake --install"; }
    inst=$(cd "$t/inst" && pwd -P)
    for opt in --static --dynamic --mpi; do
        flags=$("$t/inst/bin/iolens" link-flags $opt) || fail "installed iolens link-flags $opt failed"
        paths=$(printf '%s\n' "$flags" | tr ' ,' '\n' | grep '^/' || true)
        [ -n "$paths" ] || fail "link-flags $opt: no path in '$flags'"
        for p in $paths; do
            case $p in
                "$inst"/*) [ -e "$p" ] || fail "link-flags $opt: $p does not exist" ;;
                *) fail "link-flags $opt: $p is not in the install prefix $inst" ;;
            esac
        done
    done
    # shellcheck disable=SC2046,SC2086 # the options are split, as in the documentation
    "$cc" -static $cflags -o "$t/seq_rw" "$src/tests/workloads/seq_rw.c" \
        $("$t/inst/bin/iolens" link-flags) || fail "cc -static ... \$(iolens link-flags) failed"
    # shellcheck disable=SC2046,SC2086
    "$cc" $cflags -o "$t/seq_rw_dyn" "$src/tests/workloads/seq_rw.c" \
        $("$t/inst/bin/iolens" link-flags --dynamic) ||
        fail "cc ... \$(iolens link-flags --dynamic) failed"
    # Each records itself as the build's workload does under LD_PRELOAD.
    same seq_rw_static "$build/tests/workloads/wl_seq_rw" "$t/seq_rw"
    same seq_rw_dynamic "$build/tests/workloads/wl_seq_rw" "$t/seq_rw_dyn"
    has seq_rw_static POSIX seq.dat
    ;;
*)
    echo "usage: $0 IOLENS SRC fortran|mpi|install" >&2
    exit 2
    ;;
esac
