#!/bin/sh
# Turn the `--base` text of logs (darshan-parser --base, or iolens parse
# --base) into the normal form of tests/workloads/expected/*.txt and
# tests/mpi/expected/*.txt (one script for both suites: a process without
# MPI has no MPI-IO records and no shared records, rank -1, so the MPI rules
# change nothing for it).
#
#   normalize.sh [--brief] DIR [PARSED...]  one PARSED file per log (stdin if none)
#   normalize.sh --strip EXPECTED             an expected file without its comments
#   normalize.sh --reference EXPECTED         what the reference prints (remarks applied)
#
# DIR is the directory the workload ran in (absolute, as the workload or the
# job's ranks saw it). The normal form of one log is a line "== log" followed by one line per
# kept counter:
#
#   MODULE <tab> RANK <tab> COUNTER <tab> VALUE <tab> NAME
#
# - Only POSIX, MPI-IO, STDIO, H5F, H5D, PNETCDF_FILE, PNETCDF_VAR and
#   HEATMAP records are kept; of all but HEATMAP, only records named DIR,
#   DIR/..., <STDIN>, <STDOUT> or <STDERR> (an H5D record's name is its
#   file's, ":", and the dataset's path; a PNETCDF_VAR record's, its file's,
#   ":", and the variable's name).
# - The record id, mount point and file system columns are dropped; DIR at
#   the start of a name becomes @DIR@.
# - Dropped counters: every *_F_*TIME* (timers and timestamps), the slowest
#   access sizes *_MAX_READ_TIME_SIZE and *_MAX_WRITE_TIME_SIZE (timing),
#   *_MEM_ALIGNMENT and *_FILE_ALIGNMENT (configuration and file system).
# - POSIX_RENAMED_FROM, H5D_FILE_REC_ID and PNETCDF_VAR_FILE_REC_ID hold a
#   record id, a hash of the full path; it is replaced by the name of that
#   record (with @DIR@), or @UNKNOWN@.
# - Shared records (rank -1): *_FASTEST_RANK and *_SLOWEST_RANK are dropped
#   (the rank with the least and the most I/O time); *_FASTEST_RANK_BYTES
#   and *_SLOWEST_RANK_BYTES are kept only when *_F_VARIANCE_RANK_BYTES is
#   0 (every rank moved the same number of bytes, so whichever rank was
#   fastest or slowest, its bytes are that number). *_F_VARIANCE_RANK_BYTES
#   itself is kept: it depends on bytes only.
# - HEATMAP: the bin width and the bins depend on timing; only the sums
#   HEATMAP_READ_BYTES (all read bins) and HEATMAP_WRITE_BYTES are kept, per
#   record and rank.
# - Each log's partial flags: one line per module POSIX, STDIO and HEATMAP,
#   whether or not it has records,
#     MODULE <tab> - <tab> PARTIAL <tab> 0|1 <tab> (log)
#   1 when the parser warns that the module's data is incomplete (the
#   parser must be given --show-incomplete to print a partial log at all).
# - --brief keeps, of each POSIX and STDIO record, only the counters that
#   show that it exists and how often it was used: *_OPENS, POSIX_STATS,
#   *_BYTES_READ, *_BYTES_WRITTEN (for workloads with thousands of records;
#   their expected file starts with the line "#FORM brief"). Other modules'
#   records are kept whole.
# - Records are sorted by module, name and rank (rank -1 first); counters
#   keep their order. With several logs, the blocks are sorted by their
#   text, so the order in which processes ran or were named does not matter.
#
# --strip removes what expected files carry for people: lines starting with
# '#', and a trailing "<tab>#..." remark on a data line (see README.md); the
# result is what iolens must print. --reference gives instead what the
# reference runtime prints (see below).
set -eu
export LC_ALL=C

usage="usage: $0 [--brief] DIR [PARSED...] | --strip EXPECTED | --reference EXPECTED"

if [ "${1:-}" = "--strip" ]; then
    [ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
    sed -e '/^#/d' -e 's/	#.*$//' "$2"
    exit 0
fi

# The reference's view of an expected file: what Darshan 3.5 itself prints
# (remarks applied: "#REF v" values put back, "#REF absent" lines and logs
# dropped, "#REF-ONLY" lines and "#REF-ONLY-LOG" logs restored), in normal
# form. Used to check the expected files against the reference runtime.
if [ "${1:-}" = "--reference" ]; then
    [ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
    awk -F '\t' -v OFS='\t' '
    /^== log/ || /^#REF-ONLY-LOG/ {
        nb++; skip = ($0 ~ /\t#REF absent/); if (!skip) print nb, "== log"; next
    }
    skip { next }
    /^#REF-ONLY / { sub(/^#REF-ONLY [^ ]* /, ""); print nb, $0; next }
    /^#/ { next }
    /\t#REF absent/ { next }
    /\t#REF / {
        split($0, parts, "\t#REF "); split(parts[2], rv, " ")
        $0 = parts[1]; $4 = rv[1]
    }
    { print nb, $0 }' "$2" |
    sort -s -t '	' -k1,1n -k2,2 -k6,6 |
    awk -F '\t' '
    $2 == "== log" { if (started) printf "\n"; started = 1; printf "== log\036"; next }
    { sub(/^[^\t]*\t/, ""); printf "%s\036", $0 }
    END { if (started) printf "\n" }' |
    sort | tr '\036' '\n' | sed '/^$/d'
    exit 0
fi
brief=0
if [ "${1:-}" = "--brief" ]; then
    brief=1
    shift
fi
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
dir=${1%/}
shift

one_log() {
    awk -F '\t' -v OFS='\t' -v dir="$dir" -v brief="$brief" '
    function clean(name) {
        if (name == dir) return "@DIR@"
        if (substr(name, 1, length(dir) + 1) == dir "/")
            return "@DIR@" substr(name, length(dir) + 1)
        return name
    }
    function ours(name) {
        return name == dir || substr(name, 1, length(dir) + 1) == dir "/" ||
               name == "<STDIN>" || name == "<STDOUT>" || name == "<STDERR>"
    }
    # darshan-parser: "# *WARNING*: The POSIX module contains incomplete data!"
    # iolens parse:   "# *WARNING*: the POSIX module'"'"'s data is incomplete: ..."
    /^# \*WARNING\*: [Tt]he [^ ]+ module/ && /incomplete/ {
        split($0, w, " "); partial[w[4]] = 1; next
    }
    /^#/ || NF < 6 { next }
    {
        mod = $1; rank = $2; id = $3; ctr = $4; val = $5; name = $6
        names[id] = name
        if (mod == "HEATMAP") {
            key = rank SUBSEP name
            if (!(key in hm_seen)) { hm_seen[key] = 1; hm_order[++nhm] = key; hm_r[key] = 0; hm_w[key] = 0 }
            if (ctr ~ /^HEATMAP_READ_BIN_/) hm_r[key] += val
            else if (ctr ~ /^HEATMAP_WRITE_BIN_/) hm_w[key] += val
            next
        }
        if (mod != "POSIX" && mod != "STDIO" && mod != "MPI-IO" && mod != "H5F" &&
            mod != "H5D" && mod !~ /^PNETCDF_(FILE|VAR)$/) next
        if (!ours(name)) next
        if (ctr ~ /_F_VARIANCE_RANK_BYTES$/) varbytes[mod, id, rank] = val
        if (ctr ~ /_F_.*TIME/ || ctr ~ /_MAX_(READ|WRITE)_TIME_SIZE$/ ||
            ctr ~ /_(MEM|FILE)_ALIGNMENT$/) next
        if (brief && mod != "MPI-IO" &&
            ctr !~ /^(POSIX|STDIO)_(OPENS|BYTES_READ|BYTES_WRITTEN)$/ &&
            ctr != "POSIX_STATS") next
        if (rank == -1 && ctr ~ /_(FASTEST|SLOWEST)_RANK$/) next
        n++; lmod[n] = mod; lrank[n] = rank; lctr[n] = ctr; lval[n] = val; lname[n] = name
        lid[n] = id
    }
    END {
        print "POSIX", "-", "PARTIAL", partial["POSIX"] + 0, "(log)"
        print "STDIO", "-", "PARTIAL", partial["STDIO"] + 0, "(log)"
        print "HEATMAP", "-", "PARTIAL", partial["HEATMAP"] + 0, "(log)"
        for (i = 1; i <= n; i++) {
            if (lrank[i] == -1 && lctr[i] ~ /_(FASTEST|SLOWEST)_RANK_BYTES$/ &&
                varbytes[lmod[i], lid[i], lrank[i]] + 0 != 0) continue
            v = lval[i]
            if ((lctr[i] == "POSIX_RENAMED_FROM" || lctr[i] == "H5D_FILE_REC_ID" ||
                 lctr[i] == "PNETCDF_VAR_FILE_REC_ID") && v != "0")
                v = (v in names) ? clean(names[v]) : "@UNKNOWN@"
            print lmod[i], lrank[i], lctr[i], v, clean(lname[i])
        }
        for (i = 1; i <= nhm; i++) {
            split(hm_order[i], kv, SUBSEP)
            print "HEATMAP", kv[1], "HEATMAP_READ_BYTES", hm_r[hm_order[i]], kv[2]
            print "HEATMAP", kv[1], "HEATMAP_WRITE_BYTES", hm_w[hm_order[i]], kv[2]
        }
    }' "$1" | sort -s -t '	' -k1,1 -k5,5 -k2,2n
}

if [ $# -eq 0 ]; then
    tmp=$(mktemp)
    trap 'rm -f "$tmp"' EXIT
    cat > "$tmp"
    set -- "$tmp"
fi

# One line per log (its lines joined by \036), sorted, then split again.
{
    for parsed in "$@"; do
        printf '== log\036'
        one_log "$parsed" | tr '\n' '\036'
        printf '\n'
    done
} | sort | tr '\036' '\n' | sed '/^$/d'
