#!/bin/sh
# iolens convert on every real log (tests/data/darshan-logs' index.tsv):
#   - converted (zlib; bzip2, zstd and none for the first log): `iolens parse` and
#     `iolens dxt` print the same data lines as for the original, but for the
#     header lines a conversion changes (format version, compression, region sizes,
#     and the run time of logs before 3.41: docs/log-tools.md);
#   - converted again: the same bytes' data lines (a 3.41 log converts to itself);
#   - --obfuscate: the same lines with record id, name and mount point aside, no
#     original name left, every id the hash of its new name (check_ids), the same
#     pseudonyms from a second run, other ones under another key;
#   - --modules and --records keep only what they name;
#   - with DARSHAN_PARSER (Darshan 3.5's darshan-parser): it prints the converted
#     log's data lines as `iolens parse` prints the original's; with
#     DARSHAN_DXT_PARSER too, that prints the same for the converted log as for
#     the original.
#   convert_test.sh IOLENS CHECK_IDS LOGDIR [DARSHAN_PARSER [DARSHAN_DXT_PARSER]]
set -u
iolens=$1 check_ids=$2 logs=$3 ref_parser=${4:-} ref_dxt=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
lines=$here/../data_lines.sh
[ -f "$logs/index.tsv" ] || { echo "FAIL: no index.tsv in $logs"; exit 1; }
if [ -n "$ref_parser" ] && [ ! -x "$ref_parser" ]; then
  echo "FAIL: the reference darshan-parser $ref_parser is not there"; exit 1
fi
export TZ=UTC
t=$(mktemp -d "${TMPDIR:-/tmp}/iolens-convert.XXXXXX")
trap 'rm -rf "$t"' EXIT
failures=0 n=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# data LOG VERB: the data lines of `iolens VERB` (or of the reference parser, VERB
# "ref") that a conversion keeps.
data() {
  case $2 in
    ref) "$ref_parser" --show-incomplete "$1" 2>/dev/null ;;
    refdxt) "$ref_dxt" "$1" 2>/dev/null ;;
    parse) "$iolens" parse --show-incomplete "$1" 2>/dev/null ;;
    *) "$iolens" "$2" "$1" 2>/dev/null ;;
  esac | "$lines" | grep -vE '^# (darshan log version|compression method|run time|header|job data|record table|[A-Za-z0-9_/<>-]+ module( \(id [0-9]+\))?): '
}

# same A B WHAT: files A and B are equal.
same() { cmp -s "$1" "$2" || { fail "$3"; diff "$1" "$2" | head -6; }; }

# Record lines without id (3), name (6) and mount point (7), and the values of
# the counters that hold another record's id (H5D_FILE_REC_ID...).
strip_names() {
  grep -v '^#' "$1" | awk -F'\t' -v OFS='\t' '$4 ~ /_FILE_REC_ID$/ { $5 = "id" } { print $1, $2, $4, $5, $8 }'
}

# The FILE_REC_ID values of a parse output that are no record id of it.
dangling_refs() {
  grep -v '^#' "$1" | awk -F'\t' '{ ids[$3] = 1 } $4 ~ /_FILE_REC_ID$/ { refs[$5] = 1 }
    END { for (r in refs) if (!(r in ids)) print r }' | sort
}

first=1
for log in $(tail -n +2 "$logs/index.tsv" | cut -f1); do
  in=$logs/$log b=$(basename "$log" .darshan)
  n=$((n + 1))
  data "$in" parse > "$t/orig.parse"
  data "$in" dxt > "$t/orig.dxt"
  comps=zlib
  [ $first = 1 ] && comps="zlib bzip2 zstd none"
  first=0
  for c in $comps; do
    "$iolens" convert --compress "$c" "$in" "$t/$b.$c.darshan" 2> "$t/err" ||
      { fail "$log: convert --compress $c: $(cat "$t/err")"; continue; }
    data "$t/$b.$c.darshan" parse > "$t/conv.parse"
    data "$t/$b.$c.darshan" dxt > "$t/conv.dxt"
    same "$t/orig.parse" "$t/conv.parse" "$log ($c): parse differs after convert"
    same "$t/orig.dxt" "$t/conv.dxt" "$log ($c): dxt differs after convert"
  done
  conv=$t/$b.zlib.darshan
  [ -f "$conv" ] || continue
  "$iolens" convert "$conv" "$t/again.darshan" 2>/dev/null || fail "$log: converting the converted log"
  data "$t/again.darshan" parse > "$t/again.parse"
  same "$t/orig.parse" "$t/again.parse" "$log: parse differs after a second convert"
  if [ -n "$ref_parser" ]; then
    data "$conv" ref > "$t/ref.parse"
    same "$t/orig.parse" "$t/ref.parse" "$log: darshan-parser reads the converted log differently"
  fi
  if [ -n "$ref_dxt" ]; then
    data "$in" refdxt > "$t/ref.dxt.orig"
    data "$conv" refdxt > "$t/ref.dxt.conv"
    same "$t/ref.dxt.orig" "$t/ref.dxt.conv" "$log: darshan-dxt-parser reads the converted log differently"
  fi

  # --obfuscate: twice with one key, once with another.
  "$iolens" convert --obfuscate k1 "$in" "$t/o1.darshan" 2>/dev/null || { fail "$log: --obfuscate"; continue; }
  "$iolens" convert --obfuscate k1 "$in" "$t/o1b.darshan" 2>/dev/null
  "$iolens" convert --obfuscate k2 --keep-mounts "$in" "$t/o2.darshan" 2>/dev/null
  data "$t/o1.darshan" parse > "$t/o1.parse"
  data "$t/o1b.darshan" parse > "$t/o1b.parse"
  data "$t/o2.darshan" parse > "$t/o2.parse"
  strip_names "$t/orig.parse" > "$t/a"
  strip_names "$t/o1.parse" > "$t/b"
  same "$t/a" "$t/b" "$log: obfuscated counters differ"
  same "$t/o1.parse" "$t/o1b.parse" "$log: two runs with one key give different pseudonyms"
  [ "$(dangling_refs "$t/orig.parse" | wc -l)" = "$(dangling_refs "$t/o1.parse" | wc -l)" ] ||
    fail "$log: a FILE_REC_ID no longer names its file's record after --obfuscate"
  "$check_ids" "$t/o1.darshan" > /dev/null || fail "$log: record ids are not the hashes of the new names"
  # Every name of the original (but those kept: standard streams, heatmaps) is gone.
  "$check_ids" --names "$in" | sort -u | grep -vE '^(<STD|heatmap:)' | grep . > "$t/names"
  if [ -s "$t/names" ]; then
    grep -v '^#' "$t/o1.parse" | cut -f6,7 | tr '\t' '\n' | sort -u > "$t/o1.names"
    if grep -qxF -f "$t/names" "$t/o1.names"; then
      fail "$log: an original name is left in the obfuscated log: $(grep -xF -f "$t/names" "$t/o1.names" | head -1)"
    fi
    if cmp -s "$t/o1.parse" "$t/o2.parse"; then
      fail "$log: two keys give the same pseudonyms"
    fi
    grep -v '^#' "$t/o2.parse" | cut -f6,7 | sort -u | while IFS='	' read -r name mnt; do
      case $name in "$mnt"/*|"${mnt%/}"/*|'<STD'*|heatmap:*) ;;
        *) [ "$mnt" = UNKNOWN ] || echo "$name ($mnt)";; esac
    done > "$t/outside"
    [ -s "$t/outside" ] && fail "$log: --keep-mounts: a name not under its kept mount point: $(head -1 "$t/outside")"
  fi
  exe=$(sed -n 's/^# exe: //p' "$t/orig.parse")
  [ -n "$exe" ] && [ "$exe" = "$(sed -n 's/^# exe: //p' "$t/o1.parse")" ] &&
    fail "$log: the command line is not obfuscated"
done

# --modules and --records on the log with POSIX, MPI-IO, STDIO and both DXT modules.
dxtlog=$logs/mpi_io_test_with_dxt/treddy_mpi-io-test_id4373053_6-2-60198-9815401321915095332_1.darshan
"$iolens" convert --modules posix,DXT_POSIX --records 'test\.out$' "$dxtlog" "$t/f.darshan" ||
  fail "--modules/--records"
"$iolens" parse "$t/f.darshan" > "$t/f.parse"
mods=$(grep -v '^#' "$t/f.parse" | grep . | cut -f1 | sort -u | tr '\n' ' ')
[ "$mods" = "POSIX " ] || fail "--modules posix,DXT_POSIX: parse shows modules '$mods'"
"$iolens" dxt "$t/f.darshan" | grep -q '^ X_POSIX' || fail "--modules: DXT_POSIX left out"
"$iolens" dxt "$t/f.darshan" | grep -q '^ X_MPIIO' && fail "--modules: DXT_MPIIO kept"
grep -v '^#' "$t/f.parse" | grep . | cut -f6 | sort -u | grep -v 'test\.out$' && fail "--records kept another name"
"$iolens" parse "$dxtlog" | grep -v '^#' | awk -F'\t' '$1 == "POSIX" && $6 ~ /test\.out$/' > "$t/want"
grep -v '^#' "$t/f.parse" | grep . > "$t/got"
same "$t/want" "$t/got" "--modules/--records: the kept records differ from the original's"

echo "convert: $n logs, $failures failures"
[ $failures = 0 ]
