#!/bin/sh
# The normal form of parsed logs: ../lib/normalize.sh (one script for both
# suites), where the options and the rules are described.
exec "$(dirname "$0")/../lib/normalize.sh" "$@"
