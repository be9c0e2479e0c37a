#!/bin/sh
# No code of the runtime may call one of libiolens.so's own exported wrappers:
# its own I/O must reach libc's definitions (src/runtime/real.h,
# src/format/sysio.h). With -Wl,-Bsymbolic-functions such a call is a direct
# `call <open>`; without it, or from libiolens-mpi.so (which imports the name
# and gets the preloaded wrapper), it is a `call <open@plt>`. Both are found in
# the disassembly: every call or jump (conditional tail calls too) whose target
# is an exported wrapper, from any function but that wrapper itself (its .cold
# part included), is listed with its caller, and the check fails; so is an
# instruction that loads a wrapper's address (`lea <open>`, a call to come
# through a pointer). The binding tables hold the wrappers' addresses as data.
#
#   check_self_calls.sh LIB RT_SYMBOLS [MPI_LIB]
#
# RT_SYMBOLS prints the wrapped symbols from LIB's binding tables.
set -eu
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 LIB RT_SYMBOLS [MPI_LIB]" >&2; exit 2; }
lib=$1 lister=$2 mpilib=${3:-}
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-selfcalls.XXXXXX")
trap 'rm -rf "$t"' EXIT
export LC_ALL=C
command -v objdump >/dev/null || { echo "objdump not found (binutils: scripts/install-deps)"; exit 1; }

# Wrappers a library may call on purpose: "file wrapper reason", whatever the
# caller (inlining differs between builds). Keep it short.
cat > "$t/allowed" <<'EOF'
libiolens-mpi.so PMPI_File_open the job log's MPI-IO goes through the MPI-IO module's wrappers, with the runtime off (src/runtime/README.md, MPI)
libiolens-mpi.so PMPI_File_close the same
libiolens-mpi.so PMPI_File_write_at the same
libiolens-mpi.so PMPI_File_write_at_all the same
EOF

IOLENS_DISABLE=1 "$lister" "$lib" | sort -u > "$t/wrapped"
[ "$(wc -l < "$t/wrapped")" -gt 100 ] || { echo "too few wrapped symbols listed"; exit 1; }

# check FILE: print "file caller wrapper how" for each call to a wrapper.
check() {
    objdump -d --no-show-raw-insn "$1" > "$t/dis"
    awk -v file="$(basename "$1")" '
        NR == FNR { wrapped[$1] = 1; next }
        # a function: "0000000000012340 <name>:"
        /^[0-9a-f]+ <[^>]+>:$/ {
            fn = substr($2, 2, length($2) - 3); nfn++
            base = fn; sub(/\..*$/, "", base)   # open.cold is open
            next
        }
        # an instruction: "  1234:<TAB>mnemonic operands [# addr <target>]"
        /^ *[0-9a-f]+:\t/ && fn !~ /@plt$/ {
            split($0, f, "\t"); insn = f[2]
            sub(/^(bnd|notrack) +/, "", insn)
            how = insn ~ /^(call|j[a-z]+) / ? "calls" : "loads the address of"
            if (how == "calls")
                ncall++
            if (!match(insn, /<[^>]+>/)) next
            tgt = substr(insn, RSTART + 1, RLENGTH - 2)
            if (how == "calls")
                sub(/\+0x[0-9a-f]+$/, "", tgt) # a jump inside a function
            sub(/@.*$/, "", tgt)               # open@plt, open@GLIBC_2.2.5
            if ((tgt in wrapped) && tgt != base)
                print file, fn, tgt, how
        }
        END {
            # a disassembly this script cannot read must not pass
            if (nfn < 100 || ncall < 1000) {
                printf "%s: only %d functions and %d calls parsed\n", file, nfn, ncall > "/dev/stderr"
                exit 1
            }
        }' "$t/wrapped" "$t/dis"
}

check "$lib" > "$t/found"
basename "$lib" > "$t/files"
if [ -n "$mpilib" ]; then
    check "$mpilib" >> "$t/found"
    basename "$mpilib" >> "$t/files"
fi
# the allowances of the libraries checked, as "file wrapper"
awk 'NR == FNR { f[$1] = 1; next } ($1 in f) { print $1, $2 }' "$t/files" "$t/allowed" \
    | sort -u > "$t/allow"
awk 'NR == FNR { a[$1 " " $2] = 1; next } !(($1 " " $3) in a)' "$t/allow" "$t/found" \
    | sort -u > "$t/bad"
if [ -s "$t/bad" ]; then
    echo "calls to the runtime's own exported wrappers (its own calls must reach the real"
    echo "functions: src/runtime/real.h, src/format/sysio.h):"
    awk '{ how = $4; for (i = 5; i <= NF; i++) how = how " " $i
           printf "  %s: %s %s %s\n", $1, $2, how, $3 }' "$t/bad"
    exit 1
fi
# An allowance no longer needed goes too.
awk '{ print $1, $3 }' "$t/found" | sort -u > "$t/used"
comm -23 "$t/allow" "$t/used" > "$t/stale"
if [ -s "$t/stale" ]; then
    echo "allowed calls that no longer happen (remove them from $0):"
    sed 's/^/  /' "$t/stale"
    exit 1
fi
echo "self calls: ok ($(wc -l < "$t/wrapped") wrappers; $(tr '\n' ' ' < "$t/files")checked;" \
    "$(wc -l < "$t/allow") wrappers allowed)"
