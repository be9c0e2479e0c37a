#!/bin/sh
# CTest static_workloads: workloads linked statically with the runtime as
# docs/runtime.md says (cc -static ... $(iolens link-flags)), run without
# LD_PRELOAD, and their logs compared with the same expected files as under
# libiolens.so (../workloads/check.sh, runtime "none"). The first workload is
# linked with pkg-config's options instead (pkg-config --static --libs
# iolens-static), the other way the documentation gives.
#
#   check.sh CC BUILD SANITIZE NAME...
#
# BUILD is the build directory (bin/iolens, lib/pkgconfig/iolens-static.pc);
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
command -v pkg-config > /dev/null ||
    { echo "static_workloads: pkg-config not found: install pkg-config" >&2; exit 1; }
flags=$("$build/bin/iolens" link-flags) ||
    { echo "static_workloads: iolens link-flags failed (see CMake's warning)" >&2; exit 1; }
pc=$(PKG_CONFIG_PATH=$build/lib/pkgconfig pkg-config --static --libs iolens-static) ||
    { echo "static_workloads: no iolens-static.pc in $build/lib/pkgconfig" >&2; exit 1; }

bin=$(mktemp -d "${TMPDIR:-/tmp}/iolens-static.XXXXXX")
trap 'rm -rf "$bin"' EXIT
libs=$pc
for name in "$@"; do
    # the flags of ../workloads/CMakeLists.txt: the calls in the source are the calls made
    # shellcheck disable=SC2086 # libs is a list of options
    "$cc" -static -std=c11 -D_GNU_SOURCE -O0 -fno-inline -fno-builtin -U_FORTIFY_SOURCE -pthread \
        -o "$bin/wl_$name" "$here/../workloads/$name.c" $libs
    libs=$flags
done
exec "$here/../workloads/check.sh" none "$build/bin/iolens parse --base --show-incomplete" "$bin" "$@"
