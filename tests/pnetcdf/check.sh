#!/bin/sh
# Run the PnetCDF workloads (4 ranks each) under a runtime and compare the
# counters of their logs with expected/*.txt: ../lib/check.sh pnetcdf, where
# the rest is described.
#
#   check.sh [--reference] LIB PARSER BINDIR [NAME...]
exec "$(dirname "$0")/../lib/check.sh" pnetcdf "$@"
