#!/usr/bin/env bash
# The README's first command, on a clean clone: `npm start` must bring all three services up on their
# default ports (8000, 5000, 6610), answer their routes (a chat completion from the embedded engine
# included), and stop cleanly on SIGTERM.
set -euo pipefail
export ATRIUM_DEMO_KEY=sk-smoke-test-demo-key
log=$(mktemp)
# Its own process group, so that stopping it reaches npm and the node process it starts.
setsid npm start >"$log" 2>&1 &
pid=$!
cleanup() { kill -KILL -- "-$pid" 2>/dev/null || true; }
trap cleanup EXIT

up() { curl -fsS "http://127.0.0.1:$1/healthz" >/dev/null 2>&1; }
for _ in $(seq 1 180); do
  if up 8000 && up 5000 && up 6610; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "npm start exited early:"; cat "$log"; exit 1; fi
  sleep 1
done
for url in http://127.0.0.1:8000/healthz http://127.0.0.1:5000/api/v4/server/ http://127.0.0.1:6610/v0/server/version; do
  curl -fsS "$url" >/dev/null || { echo "smoke: $url failed"; cat "$log"; exit 1; }
  echo "smoke: $url ok"
done
answer=$(curl -fsS http://127.0.0.1:8000/v1/chat/completions -H "Authorization: Bearer $ATRIUM_DEMO_KEY" \
  -H 'content-type: application/json' -d '{"model":"atrium/tiny-test-model","messages":[{"role":"user","content":"hi"}]}') ||
  { echo "smoke: chat completion failed"; cat "$log"; exit 1; }
case "$answer" in
  *'tiny test model'*) echo "smoke: chat completion from the embedded engine ok" ;;
  *) echo "smoke: unexpected chat completion: $answer"; exit 1 ;;
esac
# `npm start` runs node as a child of npm: signal the whole group, as a terminal's Ctrl-C would.
kill -TERM -- "-$pid"
for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
if kill -0 "$pid" 2>/dev/null; then echo "smoke: npm start did not stop within 30 s"; cat "$log"; exit 1; fi
trap - EXIT
echo "smoke: npm start stopped cleanly"
