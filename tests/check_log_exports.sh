#!/bin/sh
# libiolens-log.so exports exactly what the public headers declare with
# IOLENS_API (but the runtime's own header): every such function and
# descriptor (a definition that does not see its declaration would silently
# stay hidden), and nothing else (an internal iol_ helper, or a function no
# header documents, must not become API by accident).
# Usage: check_log_exports.sh INCLUDE_DIR LIBIOLENS_LOG_SO
set -u
inc=$1 lib=$2
declared=$(grep -rh "IOLENS_API" "$inc/iolens" --include=*.h --exclude=runtime.h --exclude=api.h |
  grep -o "iolens_[a-z0-9_]* *(\|iolens_[a-z0-9_]*_module;" | tr -d ' (;' | sort -u)
# AddressSanitizer adds an __odr_asan.<name> beside each exported variable.
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^__odr_asan\.' | sort -u)
missing=$(printf '%s\n' "$declared" | while read -r s; do
  printf '%s\n' "$exported" | grep -qx "$s" || echo "$s"; done)
if [ -n "$missing" ]; then
  echo "FAIL: declared public but not exported by $lib:"; echo "$missing"; exit 1
fi
extra=$(printf '%s\n' "$exported" | while read -r s; do
  printf '%s\n' "$declared" | grep -qx "$s" || echo "$s"; done)
if [ -n "$extra" ]; then
  echo "FAIL: exported by $lib but declared in no public header:"; echo "$extra"; exit 1
fi
echo "ok: $(printf '%s\n' "$declared" | wc -l) public symbols exported, and nothing else"
