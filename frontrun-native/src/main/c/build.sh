#!/bin/sh
# Builds the LD_PRELOAD interposer (or its C test harness) for the Maven build.
#
#   build.sh library <output-dir>   -> <output-dir>/<platform>/libfrontrun_io.so
#   build.sh test    <output-dir>   -> <output-dir>/io_stress
#
# <platform> follows JNA's resource prefix (linux-x86-64, linux-aarch64, ...), which is where the
# Java side looks for the library on the classpath. Needs only a C compiler and libc headers; on a
# fresh Debian/Ubuntu (or Fedora/Alpine) machine running as root it installs gcc itself.
set -eu

say() { echo "[frontrun-native] $*"; }
fail() { echo "[frontrun-native] ERROR: $*" >&2; exit 1; }

[ $# -eq 2 ] || fail "usage: build.sh library|test <output-dir>"
mode=$1
out=$2
src_dir=$(cd "$(dirname "$0")" && pwd)
test_dir="$src_dir/../../test/c"

os=$(uname -s)
if [ "$os" != Linux ]; then
    say "skipping the native build on $os: LD_PRELOAD interception is Linux-only" \
        "(macOS DYLD_INSERT_LIBRARIES is not supported yet); its tests will be skipped too"
    exit 0
fi

find_cc() {
    for candidate in "${CC:-}" gcc cc clang; do
        if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

install_gcc() {
    if [ "$(id -u)" != 0 ]; then
        fail "no C compiler found (tried \$CC, gcc, cc, clang). Install one, e.g." \
            "'sudo apt-get install gcc libc6-dev' or 'sudo dnf install gcc', or set CC."
    fi
    if command -v apt-get >/dev/null 2>&1; then
        say "no C compiler found: installing gcc with apt-get"
        DEBIAN_FRONTEND=noninteractive apt-get update -q \
            && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends gcc libc6-dev
    elif command -v dnf >/dev/null 2>&1; then
        say "no C compiler found: installing gcc with dnf"
        dnf install -y gcc glibc-devel
    elif command -v yum >/dev/null 2>&1; then
        say "no C compiler found: installing gcc with yum"
        yum install -y gcc glibc-devel
    elif command -v apk >/dev/null 2>&1; then
        say "no C compiler found: installing gcc with apk"
        apk add --no-cache gcc musl-dev
    else
        fail "no C compiler found and no known package manager to install one: install gcc, or set CC."
    fi
}

cc=$(find_cc) || { install_gcc; cc=$(find_cc) || fail "gcc was installed but is still not on PATH"; }

case $(uname -m) in
    x86_64 | amd64) platform=linux-x86-64 ;;
    aarch64 | arm64) platform=linux-aarch64 ;;
    i386 | i486 | i586 | i686) platform=linux-x86 ;;
    armv7* | armv6*) platform=linux-arm ;;
    *) platform=linux-$(uname -m) ;;
esac

# _FORTIFY_SOURCE (on by default in some distributions' gcc) turns read/recv into inline wrappers
# that would clash with the interposers' definitions.
cflags="-std=gnu11 -O2 -fPIC -Wall -Wextra -pthread -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0"

case $mode in
    library)
        mkdir -p "$out/$platform"
        target="$out/$platform/libfrontrun_io.so"
        # shellcheck disable=SC2086
        "$cc" $cflags -shared -fvisibility=hidden -Wl,-z,defs -o "$target" \
            "$src_dir/real.c" "$src_dir/fdtable.c" "$src_dir/account.c" "$src_dir/threadstats.c" \
            "$src_dir/ring.c" "$src_dir/pgwire.c" "$src_dir/endpoints.c" "$src_dir/hooks.c" "$src_dir/api.c" -ldl
        say "built $target with $cc"
        ;;
    test)
        mkdir -p "$out"
        target="$out/io_stress"
        # shellcheck disable=SC2086
        "$cc" $cflags -I"$src_dir" -o "$target" "$test_dir/io_stress.c" -ldl
        say "built $target with $cc"
        ;;
    *)
        fail "unknown mode '$mode' (expected library or test)"
        ;;
esac
