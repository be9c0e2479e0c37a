#!/bin/sh
# Checks the expected files themselves (no runtime needed):
# - every line is a comment, a block header "== log", or a data line of five
#   tab-separated fields, optionally followed by one remark
#   "<tab>#REF absent Dn[,Dn...]" or "<tab>#REF VALUE Dn[,Dn...]";
# - every deviation id a remark names is described in ../workloads/deviations.md;
# - normalize.sh --strip gives the normal form: blocks in sorted order,
#   records sorted by module and name within each block;
# - normalize.sh --reference works on it.
set -eu
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
status=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

for f in "$here"/expected/*.txt "$here"/expected-rank/*.txt; do
    name=$(basename "$f")
    awk -F '\t' -v f="$name" '
    function bad(why) { printf "selftest: %s:%d: %s\n", f, NR, why; err = 1 }
    /^#REF-ONLY(-LOG)? D[0-9]/ { next }
    /^#/ { next }
    /^== log(\t#REF absent D[0-9]+(,D[0-9]+)*)?$/ { next }
    NF == 5 || (NF == 6 && $6 ~ /^#REF [^ ]+ D[0-9]+(,D[0-9]+)*$/) {
        if ($1 != "POSIX" && $1 != "STDIO" && $1 != "MPI-IO" && $1 != "HEATMAP") bad("unknown module " $1)
        next
    }
    { bad("malformed line") }
    END { exit err }' "$f" || status=1

    for id in $(grep -o 'D[0-9][0-9]*' "$f" | sort -u); do
        grep -q "^## $id\b" "$here/../workloads/deviations.md" ||
            { echo "selftest: $name: $id is not described in ../workloads/deviations.md"; status=1; }
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
