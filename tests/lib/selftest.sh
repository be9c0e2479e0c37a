#!/bin/sh
# Checks the expected files of a suite themselves (no runtime needed): the
# core of tests/workloads/selftest.sh and tests/mpi/selftest.sh.
#
#   selftest.sh SUITE_DIR    checks SUITE_DIR/expected/*.txt and, if it
#                            exists, SUITE_DIR/expected-rank/*.txt
#
# - every line is a comment, a block header "== log", or a data line of five
#   tab-separated fields, optionally followed by one remark
#   "<tab>#REF absent Dn[,Dn...]" or "<tab>#REF VALUE Dn[,Dn...]", of a
#   module the normal form keeps (POSIX, MPI-IO, STDIO, H5F, H5D,
#   PNETCDF_FILE, PNETCDF_VAR, HEATMAP);
# - every deviation id a remark names is described in
#   ../workloads/deviations.md;
# - normalize.sh --strip gives the normal form: blocks in sorted order,
#   records sorted by module, name and rank within each block;
# - normalize.sh --reference works on it.
set -eu
export LC_ALL=C
[ $# -eq 1 ] || { echo "usage: $0 SUITE_DIR" >&2; exit 2; }
suite=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
deviations=$here/../workloads/deviations.md
status=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

for f in "$suite"/expected/*.txt "$suite"/expected-rank/*.txt; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    awk -F '\t' -v f="$name" '
    function bad(why) { printf "selftest: %s:%d: %s\n", f, NR, why; err = 1 }
    /^#REF-ONLY(-LOG)? D[0-9]/ { next }
    /^#/ { next }
    /^== log(\t#REF absent D[0-9]+(,D[0-9]+)*)?$/ { next }
    NF == 5 || (NF == 6 && $6 ~ /^#REF [^ ]+ D[0-9]+(,D[0-9]+)*$/) {
        if ($1 != "POSIX" && $1 != "STDIO" && $1 != "MPI-IO" && $1 != "HEATMAP" &&
            $1 != "H5F" && $1 != "H5D" && $1 !~ /^PNETCDF_(FILE|VAR)$/) bad("unknown module " $1)
        next
    }
    { bad("malformed line") }
    END { exit err }' "$f" || status=1

    for id in $(grep -o 'D[0-9][0-9]*' "$f" | sort -u); do
        grep -q "^## $id\b" "$deviations" ||
            { echo "selftest: $name: $id is not described in deviations.md"; status=1; }
    done

    "$here/normalize.sh" --strip "$f" > "$tmp"
    awk -F '\t' -v f="$name" '
    $0 == "== log" {
        if (nb++ && cur < prev) { printf "selftest: %s: logs out of order\n", f; err = 1 }
        if (nb > 1) prev = cur
        cur = "== log\036"; lastkey = ""; next
    }
    {
        cur = cur $0 "\036"
        key = $1 "\t" $5 "\t" sprintf("%011d", $2 + 1)
        if (key < lastkey) { printf "selftest: %s:%d: records out of order\n", f, NR; err = 1 }
        lastkey = key
    }
    END {
        if (nb > 1 && cur < prev) { printf "selftest: %s: logs out of order\n", f; err = 1 }
        exit err
    }' "$tmp" || status=1

    "$here/normalize.sh" --reference "$f" > /dev/null || status=1
done

[ $status = 0 ] && echo "selftest: ok"
exit $status
