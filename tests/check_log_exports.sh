#!/bin/sh
# Every function and descriptor the public headers declare with IOLENS_API
# (but the runtime's own header) must be exported by libiolens-log.so: a
# definition that does not see its declaration would silently stay hidden.
# Usage: check_log_exports.sh INCLUDE_DIR LIBIOLENS_LOG_SO
set -u
inc=$1 lib=$2
declared=$(grep -rh "IOLENS_API" "$inc/iolens" --include=*.h --exclude=runtime.h --exclude=api.h |
  grep -o "iolens_[a-z0-9_]* *(\|iolens_[a-z0-9_]*_module;" | tr -d ' (;' | sort -u)
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
missing=$(printf '%s\n' "$declared" | while read -r s; do
  printf '%s\n' "$exported" | grep -qx "$s" || echo "$s"; done)
if [ -n "$missing" ]; then
  echo "FAIL: declared public but not exported by $lib:"; echo "$missing"; exit 1
fi
echo "ok: $(printf '%s\n' "$declared" | wc -l) public symbols exported"
