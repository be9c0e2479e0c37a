#!/bin/sh
# Checks the expected files themselves (no runtime needed): ../lib/selftest.sh
# on this suite, where the checks are described.
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../lib/selftest.sh" "$here"
