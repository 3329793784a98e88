#!/usr/bin/env bash
# Type-checks, then runs every test (unit, integration against the sandbox ledger
# and Xaman, and browser tests in Chromium): installs what is missing first. Exits
# non-zero on any failure. Extra arguments go to `bun test` (e.g. a path filter).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure.sh"
cd "$ROOT"
ensure_bun
ensure_packages
ensure_chromium
ensure_promtool

echo "==> Type-checking (tsc --noEmit)"
bun run --silent typecheck

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
bun test --timeout 120000 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
pass=$(grep -Eo '^ *[0-9]+ pass' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
fail=$(grep -Eo '^ *[0-9]+ fail' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
echo "tests: ${pass} passed, ${fail} failed"
exit "$status"
