#!/usr/bin/env bash
# Tool installs kept per user, outside the clone, keyed by what pins them: CI starts from a fresh clone each
# time (.ci/run), and installing the same pins again would make the same files.
#
#   scripts/tool-cache.sh <name> <key file>… -- <command>…
#
# Prints the folder $PAYGATE_CACHE/<name>-<key> (PAYGATE_CACHE defaults to ~/.cache/paygate), after running
# <command> with ENTRY set to that (empty) folder unless a complete one is there already. The key hashes the
# key files, the machine's architecture and its node and python3 versions. A lock serialises runs that fill
# the same entry; an entry whose command failed or was cut short is filled again next time. Without a cache
# folder (a new machine, or one cleared) everything is installed once, as before, and kept.
set -euo pipefail
cache=${PAYGATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/paygate}
name=$1
shift
files=()
while [ "$1" != -- ]; do
  files+=("$1")
  shift
done
shift
key=$({ cat "${files[@]}"; uname -m; node --version; python3 --version; } | sha256sum | cut -c1-16)
entry=$cache/$name-$key
mkdir -p "$cache"
exec 9>"$entry.lock"
flock 9
if [ ! -e "$entry/.complete" ]; then
  rm -rf "$entry"
  mkdir -p "$entry"
  ENTRY=$entry "$@" >&2
  touch "$entry/.complete"
fi
echo "$entry"
