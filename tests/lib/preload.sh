# Sourced by the runtime test scripts (`. tests/lib/preload.sh`): what goes
# into LD_PRELOAD in front of the runtime under test.
#
#   sanitizer_preload LIB [ASAN_OPTIONS]
#
# Sets $preload to LIB (made absolute: the programs run elsewhere) and $asan
# to "". In an IOLENS_SANITIZE build (IOLENS_TEST_SANITIZE=ON) the runtime is
# instrumented, and the sanitizer runtime must be loaded before it: it is
# found with the compiler (IOLENS_TEST_CC), $asan is its path and $preload
# "ASAN LIB", and ASAN_OPTIONS (if given) are added to the environment's;
# without libasan.so the test is skipped (exit 77).
#
# $asan_signals: the ASAN_OPTIONS that leave fatal signals to the runtime
# (it writes its log at SIGSEGV, SIGBUS and SIGABRT, then dies as it would).
asan_signals=handle_segv=0:handle_sigbus=0:handle_abort=0

sanitizer_preload() {
    case $1 in /*) preload=$1 ;; *) preload=$(pwd)/$1 ;; esac
    asan=
    [ "${IOLENS_TEST_SANITIZE:-OFF}" = ON ] || return 0
    asan=$("${IOLENS_TEST_CC:-cc}" -print-file-name=libasan.so 2>/dev/null || true)
    case $asan in
        /*) [ -f "$asan" ] || asan= ;;
        *) asan= ;;
    esac
    if [ -z "$asan" ]; then
        echo "skipped: no libasan.so to load before the instrumented runtime"
        exit 77
    fi
    preload="$asan $preload"
    [ -z "${2:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$2"
}
