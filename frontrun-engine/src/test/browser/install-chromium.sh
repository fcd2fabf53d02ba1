#!/bin/sh
# Makes sure headless Chromium is there for the HTML report's browser test (HtmlReportChromiumTest),
# run by the engine's Maven build before its tests, the way frontrun-native's build.sh installs gcc.
#
#   install-chromium.sh [<chromium-path>]    (default /usr/bin/chromium)
#
# Fast and silent when the binary is already executable. Otherwise, as root, installs Debian's
# `chromium` package (or the distribution's equivalent) with the machine's package manager; not as
# root, or with no known package manager, it fails with a message saying what to install: the
# browser test never skips, so the build needs a browser.
set -eu

say() { echo "[frontrun-engine] $*"; }
fail() { echo "[frontrun-engine] ERROR: $*" >&2; exit 1; }

chromium=${1:-/usr/bin/chromium}

if [ -x "$chromium" ]; then
    exit 0
fi

if [ "$(uname -s)" != Linux ]; then
    fail "no Chromium at $chromium, which the HTML report's browser test needs. Install Chromium (or Chrome)" \
        "and point the build at it with -Dfrontrun.chromium=/path/to/chromium."
fi

if [ "$(id -u)" != 0 ]; then
    fail "no Chromium at $chromium, which the HTML report's browser test needs, and not root to install it." \
        "Install it, e.g. 'sudo apt-get install chromium' (Debian/Ubuntu) or 'sudo dnf install chromium'," \
        "or point the build at one with -Dfrontrun.chromium=/path/to/chromium."
fi

if command -v apt-get >/dev/null 2>&1; then
    say "no Chromium at $chromium: installing Debian's chromium package with apt-get (once per machine)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
elif command -v dnf >/dev/null 2>&1; then
    say "no Chromium at $chromium: installing chromium with dnf"
    dnf install -y chromium
elif command -v apk >/dev/null 2>&1; then
    say "no Chromium at $chromium: installing chromium with apk"
    apk add --no-cache chromium
else
    fail "no Chromium at $chromium and no known package manager (apt-get, dnf, apk) to install it:" \
        "install Chromium and point the build at it with -Dfrontrun.chromium=/path/to/chromium."
fi

[ -x "$chromium" ] || fail "Chromium was installed but $chromium is still missing: point the build at the" \
    "installed binary with -Dfrontrun.chromium=/path/to/chromium."
say "installed $("$chromium" --version 2>/dev/null || echo "$chromium")"
