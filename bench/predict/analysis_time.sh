#!/bin/sh
# Analysis time of iolens predict per 100,000 lines of C (docs/predict.md,
# "Analysis time"): the CPU (user + system) and wall time of one
# `iolens predict` over the files given, and their lines (the .c files
# themselves, not the headers they include).
# usage: analysis_time.sh IOLENS FILE... [-- COMPILER-FLAGS...]
set -eu
iolens=$1
shift
files=""
for a in "$@"; do
  [ "$a" = "--" ] && break
  files="$files $a"
done
# shellcheck disable=SC2086
lines=$(cat $files | wc -l)
out=$(mktemp "${TMPDIR:-/tmp}/iolens-predict-time.XXXXXX")
trap 'rm -f "$out"' EXIT
/usr/bin/time -f '%U %S %e %M' -o "$out" "$iolens" predict --top 0 "$@" > /dev/null 2>&1 || true
read -r user sys wall rss < "$out"
awk -v l="$lines" -v u="$user" -v s="$sys" -v w="$wall" -v m="$rss" 'BEGIN {
  printf "%d lines: %.2f s CPU (%.2f s wall), %.1f s CPU per 100,000 lines, peak %d MiB\n",
         l, u + s, w, (u + s) * 100000 / l, m / 1024 }'
