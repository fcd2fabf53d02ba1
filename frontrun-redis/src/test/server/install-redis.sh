#!/bin/sh
# Makes sure a redis-server is there for the tests of frontrun-redis, which start their own servers on free
# ports; run by the module's Maven build before its tests, as the engine's build installs Chromium.
#
#   install-redis.sh [<redis-server-path>]    (default /usr/bin/redis-server)
#
# Fast and silent when the binary is already executable. Otherwise, as root, installs Debian's
# `redis-server` package (or the distribution's equivalent) with the machine's package manager; not as
# root, or with no known package manager, it fails with a message saying what to install: the Redis
# tests never skip, so the build needs a server.
set -eu

say() { echo "[frontrun-redis] $*"; }
fail() { echo "[frontrun-redis] ERROR: $*" >&2; exit 1; }

server=${1:-/usr/bin/redis-server}

if [ -x "$server" ]; then
    exit 0
fi

if [ "$(uname -s)" != Linux ]; then
    fail "no redis-server at $server, which the Redis tests need. Install Redis 7 (e.g. 'brew install redis')" \
        "and point the build at it with -Dfrontrun.redis.server=/path/to/redis-server."
fi

if [ "$(id -u)" != 0 ]; then
    fail "no redis-server at $server, which the Redis tests need, and not root to install it." \
        "Install it, e.g. 'sudo apt-get install redis-server' (Debian/Ubuntu) or 'sudo dnf install redis'," \
        "or point the build at one with -Dfrontrun.redis.server=/path/to/redis-server."
fi

if command -v apt-get >/dev/null 2>&1; then
    say "no redis-server at $server: installing Debian's redis-server package with apt-get (once per machine)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends redis-server
    # the tests start servers of their own: the package's service is not needed
    if command -v service >/dev/null 2>&1; then service redis-server stop >/dev/null 2>&1 || true; fi
elif command -v dnf >/dev/null 2>&1; then
    say "no redis-server at $server: installing redis with dnf"
    dnf install -y redis
elif command -v apk >/dev/null 2>&1; then
    say "no redis-server at $server: installing redis with apk"
    apk add --no-cache redis
else
    fail "no redis-server at $server and no known package manager (apt-get, dnf, apk) to install it:" \
        "install Redis 7 and point the build at it with -Dfrontrun.redis.server=/path/to/redis-server."
fi

[ -x "$server" ] || fail "Redis was installed but $server is still missing: point the build at the" \
    "installed binary with -Dfrontrun.redis.server=/path/to/redis-server."
say "installed $("$server" --version 2>/dev/null || echo "$server")"
