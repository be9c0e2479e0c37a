#!/bin/sh
# Run workloads under a runtime and compare the counters of their logs with
# expected/*.txt: ../lib/check.sh workloads, where the rest is described.
#
#   check.sh [--reference] LIB PARSER BINDIR [NAME...]
exec "$(dirname "$0")/../lib/check.sh" workloads "$@"
