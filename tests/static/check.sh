#!/bin/sh
# CTest static_workloads: workloads linked statically with libiolens-static.a
# as docs/runtime.md says (cc -static ... $(pkg-config --static --libs
# iolens-static)), run without LD_PRELOAD, and their logs compared with the
# same expected files as under libiolens.so (../workloads/check.sh, runtime
# "none").
#
#   check.sh CC BUILD SANITIZE NAME...
#
# BUILD is the build directory (lib/pkgconfig/iolens-static.pc, bin/iolens);
# SANITIZE is ON in an IOLENS_SANITIZE build, where static linking is not
# possible: the test is skipped (exit 77).
set -eu
[ $# -ge 4 ] || { echo "usage: $0 CC BUILD SANITIZE NAME..." >&2; exit 2; }
cc=$1 build=$2 sanitize=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ "$sanitize" = ON ]; then
    echo "static_workloads: skipped: the sanitizers cannot be linked statically"
    exit 77
fi
for lib in libc.a libz.a; do
    case $("$cc" -print-file-name="$lib") in
        /*) ;;
        *) echo "static_workloads: $lib not found: install libc6-dev and zlib1g-dev" >&2; exit 1 ;;
    esac
done
pc=$build/lib/pkgconfig/iolens-static.pc
[ -f "$pc" ] || { echo "static_workloads: $pc not built (see CMake's warning)" >&2; exit 1; }
libs=$(PKG_CONFIG_PATH=$build/lib/pkgconfig pkg-config --static --libs iolens-static)

bin=$(mktemp -d "${TMPDIR:-/tmp}/iolens-static.XXXXXX")
trap 'rm -rf "$bin"' EXIT
for name in "$@"; do
    # the flags of ../workloads/CMakeLists.txt: the calls in the source are the calls made
    # shellcheck disable=SC2086 # libs is a list of options
    "$cc" -static -std=c11 -D_GNU_SOURCE -O0 -fno-inline -fno-builtin -U_FORTIFY_SOURCE -pthread \
        -o "$bin/wl_$name" "$here/../workloads/$name.c" $libs
done
exec "$here/../workloads/check.sh" none "$build/bin/iolens parse --base --show-incomplete" "$bin" "$@"
