#!/bin/sh
# Run one workload under a preloaded runtime and print the normal form of
# the logs it leaves: ../lib/run.sh, where the options are described.
#
#   run.sh [-x STATUS] [-k] [-e ENVFILE] [-b] LIB PARSER WORKLOAD [MODE]
exec "$(dirname "$0")/../lib/run.sh" "$@"
