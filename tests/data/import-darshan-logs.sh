#!/bin/sh
# Regenerate tests/data/darshan-logs/ from a darshan-logs collection (a
# maintainer's copy of the project's shared set), so the in-repo copy can be rebuilt and
# checked: every *.darshan log and index.tsv are copied as they are, folders
# kept; each reference output LOG.MODE.txt.xz becomes LOG.MODE.data.xz holding
# only its data lines (tests/data_lines.sh), xz-compressed. README.md in the
# destination is ours and is left alone; everything else there is replaced.
#   tests/data/import-darshan-logs.sh SOURCE [DEST]
#   default DEST: tests/data/darshan-logs
# No test or CI step runs it: they read the in-repo copy only.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 SOURCE [DEST]" >&2; exit 2; }
src=$1
dest=${2:-$here/darshan-logs}
export LC_ALL=C

if [ ! -f "$src/index.tsv" ]; then
  echo "import-darshan-logs: no index.tsv in $src: not a darshan-logs collection" >&2
  exit 1
fi
src=$(cd "$src" && pwd)
[ -x "$here/../data_lines.sh" ] || { echo "import-darshan-logs: $here/../data_lines.sh missing" >&2; exit 1; }
command -v xz >/dev/null || { echo "import-darshan-logs: xz not found (scripts/install-deps)" >&2; exit 1; }

mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
new=$(mktemp -d "$dest/../.import.XXXXXX")
trap 'rm -rf "$new"' EXIT

# Every log index.tsv names must be there.
tail -n +2 "$src/index.tsv" | cut -f1 | while read -r log; do
  [ -f "$src/$log" ] || { echo "import-darshan-logs: index.tsv lists $log, not in $src" >&2; exit 1; }
done

cp "$src/index.tsv" "$new/index.tsv"
n=0
for f in $(cd "$src" && find . -type f \( -name '*.darshan' -o -name '*.txt.xz' \) | sort); do
  f=${f#./}
  mkdir -p "$new/$(dirname "$f")"
  case $f in
    *.darshan)
      cp "$src/$f" "$new/$f"
      n=$((n + 1)) ;;
    *.txt.xz)
      # -T1: one thread, so the same input gives the same bytes on any machine.
      xz -dc "$src/$f" | "$here/../data_lines.sh" | xz -9e -T1 -c > "$new/${f%.txt.xz}.data.xz" ;;
  esac
done
chmod -R u=rwX,go=rX "$new"

# Replace the old copy, keeping our README.
find "$dest" -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
(cd "$new" && find . -mindepth 1 -maxdepth 1 -exec mv {} "$dest/" \;)
echo "import-darshan-logs: $n logs and their references' data lines from $src into $dest"
