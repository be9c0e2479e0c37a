#!/bin/sh
# Run the HDF5 workloads (h5_serial as one process, the others as 4 MPI
# ranks) under a runtime and compare the counters of their logs with
# expected/*.txt: ../lib/check.sh hdf5, where the rest is described.
#
#   check.sh [--reference] LIB PARSER BINDIR [NAME...]
exec "$(dirname "$0")/../lib/check.sh" hdf5 "$@"
