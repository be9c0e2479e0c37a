#!/bin/sh
# Run one MPI workload as 4 ranks under a preloaded runtime and print the
# normal form of the logs it leaves: ../lib/run.sh -m, where the options and
# the launcher (MPIEXEC, MPI_WL_TIMEOUT) are described.
#
#   run.sh [-k] LIB PARSER PROGRAM
exec "$(dirname "$0")/../lib/run.sh" -m "$@"
