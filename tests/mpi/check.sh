#!/bin/sh
# Run the MPI workloads (4 ranks each) under a runtime and compare the
# counters of their logs with expected/*.txt: ../lib/check.sh mpi, where the
# rest is described (run.sh: how the job is started).
#
#   check.sh [--reference] LIB PARSER BINDIR [NAME...]
exec "$(dirname "$0")/../lib/check.sh" mpi "$@"
