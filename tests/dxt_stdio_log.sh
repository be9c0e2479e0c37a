#!/bin/sh
# DXT_STDIO (module id 63, an iolens addition) written, read back and printed:
# dxt_stdio_log writes the log and checks the round trip; `iolens dxt` must
# print its DXT_POSIX trace, then both DXT_STDIO traces on X_STDIO lines.
# usage: dxt_stdio_log.sh DXT_STDIO_LOG IOLENS OUT_DIR
set -eu
prog=$1 iolens=$2 out=$3/dxt_stdio
mkdir -p "$out"
"$prog" "$out/t.darshan"
"$iolens" dxt "$out/t.darshan" > "$out/dxt.txt" 2> "$out/err.txt"
fail() { echo "FAIL: $*"; cat "$out/dxt.txt" "$out/err.txt"; exit 1; }
[ ! -s "$out/err.txt" ] || fail "iolens dxt wrote to stderr"
grep -q '^# DXT_STDIO module data$' "$out/dxt.txt" || fail "no DXT_STDIO banner"
# The banners in id order: DXT_POSIX (10) before DXT_STDIO (63).
[ "$(grep '^# DXT_[A-Z]* module data$' "$out/dxt.txt" | tr '\n' ' ')" = \
  "# DXT_POSIX module data # DXT_STDIO module data " ] || fail "banners out of order"
grep '^ *X_\|number of threads' "$out/dxt.txt" | awk '{$1 = $1; print}' > "$out/seg.txt"
cat > "$out/want.txt" <<'W'
# DXT, number of threads: 2
X_POSIX 0 write 0 0 100 0.5000 0.7500 140000
X_POSIX 0 read 0 100 101 1.5000 1.7500 140001
# DXT, number of threads: 2
X_STDIO 0 read 0 7 100 0.5000 0.7500 140000
X_STDIO 0 read 1 107 101 1.5000 1.7500 140001
X_STDIO 0 read 2 207 102 2.5000 2.7500 140000
# DXT, number of threads: 2
X_STDIO 0 write 0 4096 100 0.5000 0.7500 140000
X_STDIO 0 write 1 4196 101 1.5000 1.7500 140001
W
diff "$out/want.txt" "$out/seg.txt" || fail "segments differ (want, got)"
grep -q '# DXT, file_id: .*, file_name: /data/cfg.txt' "$out/dxt.txt" || fail "no cfg.txt record"
# iolens parse skips trace modules, DXT_STDIO included, without a warning.
"$iolens" parse "$out/t.darshan" > "$out/parse.txt" 2> "$out/err.txt" || fail "iolens parse failed"
! grep -q 'X_STDIO\|unknown' "$out/parse.txt" "$out/err.txt" || fail "parse printed DXT_STDIO"
echo "ok: DXT_STDIO written, read back and printed by iolens dxt"
