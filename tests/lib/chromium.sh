# Sourced by the browser tests (`. tests/lib/chromium.sh`): headless Chromium
# with a bound on its time.
#
#   chromium_run BROWSER PROFILE CONSOLE FLAG...
#
# Runs BROWSER headless on the profile folder PROFILE, its log appended to
# CONSOLE, its standard output passed on. Headless Chromium now and then never
# returns from a run on a loaded machine (seen at a --screenshot, after the
# page had loaded): a run not done in CHROMIUM_TIMEOUT seconds (default 60) is
# killed and made once more, from the start. Returns Chromium's status, or 124
# when the second run timed out too.
chromium_run() {
    _browser=$1 _profile=$2 _console=$3
    shift 3
    _out=$(mktemp "${TMPDIR:-/tmp}/iolens-chromium.XXXXXX")
    for _try in 1 2; do
        _rc=0
        timeout -k 5 "${CHROMIUM_TIMEOUT:-60}" "$_browser" --headless --no-sandbox --disable-gpu \
            --no-first-run --user-data-dir="$_profile" --enable-logging=stderr --v=0 "$@" \
            > "$_out" 2>> "$_console" || _rc=$?
        [ "$_rc" = 124 ] || [ "$_rc" = 137 ] || break
        echo "chromium_run: Chromium did not finish in ${CHROMIUM_TIMEOUT:-60} s (try $_try)" >&2
        _rc=124
    done
    cat "$_out"
    rm -f "$_out"
    return "$_rc"
}
