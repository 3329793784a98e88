#!/usr/bin/env bash
# Type-checks and runs every test (unit, integration against the sandbox ledger
# and Xaman, and browser tests in Chromium): installs what is missing first. Exits
# non-zero on any failure. Extra arguments go to `bun test` (e.g. a path filter).
#
# Test files run in parallel worker processes (TEST_JOBS, default 4: measured on 2 cores when the
# suite was heavier, 5m32s with 4, 6m30s with 3 and 8m40s with 5; with the prebuilt SPA, workers that
# keep their modules and the headless shell, 4m06s-4m15s with 4, 13-15% of the cores idle). Each file
# starts its own servers on free ports with their own data folders; the browser tests of
# a worker share one Chromium, started here and stopped at the end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure.sh"
cd "$ROOT"
ensure_bun
ensure_packages
ensure_chromium
ensure_promtool
ensure_cluster_services

started=$(date +%s)
work="$(mktemp -d)"
jobs="${TEST_JOBS:-4}"
browser_pids=()
services_pid=""
typecheck_pid=""
cleanup() {
  [ -n "$typecheck_pid" ] && kill "$typecheck_pid" 2>/dev/null || true
  for pid in "${browser_pids[@]}" $services_pid; do kill "$pid" 2>/dev/null || true; done
  for pid in "${browser_pids[@]}" $services_pid; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work" "${typecheck_js:-}"
}
trap cleanup EXIT

# One Chromium per test worker (each with its own GPU process), launched by Playwright in a process of its own
# (scripts/lib/browserServer.ts): the browser tests of worker N connect to VVX_BROWSER_WS_N (e2e/browser.ts)
# instead of launching a browser per file.
start_browser() {
  local n=$1 out="$work/browser-$1.out"
  bun scripts/lib/browserServer.ts >"$out" 2>"$work/browser-$1.err" &
  browser_pids+=($!)
  for _ in $(seq 1 400); do
    endpoint=$(grep -o '^ws://[^ ]*' "$out" 2>/dev/null | head -1 || true)
    if [ -n "$endpoint" ]; then export "VVX_BROWSER_WS_$n=$endpoint"; return; fi
    sleep 0.05
  done
  echo "warning: the browser of worker $n did not start; its browser tests launch their own" >&2
}

# One PostgreSQL and one Redis for the whole run (scripts/lib/services.ts), in a temporary folder on loopback
# ports, starting while the browsers do: the cluster tests of every worker use them (each test its own
# database and channel names).
bun scripts/lib/services.ts >"$work/services.out" 2>"$work/services.err" &
services_pid=$!
for n in $(seq 1 "$jobs"); do start_browser "$n"; done
for _ in $(seq 1 600); do
  line=$(grep -o '^postgres=.*' "$work/services.out" 2>/dev/null | head -1 || true)
  if [ -n "$line" ]; then
    pg="${line#postgres=}"
    export VVX_TEST_POSTGRES_URL="${pg%% *}" VVX_TEST_REDIS_URL="${line##* redis=}"
    break
  fi
  kill -0 "$services_pid" 2>/dev/null || break
  sleep 0.05
done
[ -n "${VVX_TEST_REDIS_URL:-}" ] || echo "warning: PostgreSQL and Redis did not start ($(tail -c 400 "$work/services.err")); each cluster test file starts its own" >&2

# The type check runs beside the tests (one core of the compiler while the first files start their servers), with
# the dropped-promise check on the same program (scripts/promises.ts); its verdict counts with theirs at the end.
# Under Node when there is one (scripts/lib/typecheckNode.ts: V8 runs the compiler in less CPU than Bun), bundled for
# this run under node_modules, where it finds the project's TypeScript.
echo "==> Type-checking (tsc --noEmit's diagnostics and the promise check) beside the tests"
typecheck_js="$ROOT/node_modules/.cache/vvx-typecheck-$$.mjs"
if command -v node >/dev/null && bun build scripts/lib/typecheckNode.ts --target=node --external typescript --outfile "$typecheck_js" >"$work/typecheck.log" 2>&1; then
  node "$typecheck_js" "$ROOT" >"$work/typecheck.log" 2>&1 &
else
  bun scripts/promises.ts --typecheck >>"$work/typecheck.log" 2>&1 &
fi
typecheck_pid=$!

# What the binary's entry hands its server (the SPA as built, the sandbox genesis's signatures), made once here for
# every test file's servers (scripts/lib/prebuilt.ts; scripts/lib/testPreload.ts installs it): without it each file
# bundles the SPA at its first server's start and each server signs its genesis.
preload=()
if prebuilt=$(bun scripts/lib/prebuilt.ts "$work/prebuilt" 2>"$work/prebuilt.err"); then
  export VVX_TEST_PREBUILT="$prebuilt"
  preload=(--preload ./scripts/lib/testPreload.ts)
else
  echo "warning: the SPA and genesis were not prebuilt ($(tail -c 400 "$work/prebuilt.err")); each test file makes its own" >&2
fi

# Per-file durations: the slowest files start first; the file under .cache is this machine's record.
mkdir -p .cache
timings=.cache/test-timings.json
[ -f "$timings" ] || cp scripts/test-timings.json "$timings"

# The server, engine, shared, script and browser tests run in workers that keep their modules from one file to the
# next (--no-isolate): each file used to load the server's modules again (~0.2 s of CPU, playwright-core's 0.25 s
# more) and warm up its JIT again; every file stops what it starts (servers, browser contexts, timers). The web
# app's component tests keep their stores in module state (the wallet's address...): they run first, each file
# with fresh modules, as does everything with TEST_ISOLATE=1 or with bun test options among the arguments.
isolated=()
shared=()
options=0
for arg in "$@"; do case "$arg" in -*) options=1 ;; esac; done
if [ "${TEST_ISOLATE:-0}" = "1" ] || [ "$options" = 1 ]; then
  isolated=("$@")
  [ $# -eq 0 ] && isolated=(src scripts e2e)
elif [ $# -eq 0 ]; then
  isolated=(src/web)
  shared=(src/server src/engine src/shared scripts e2e)
else
  for arg in "$@"; do
    case "${arg#./}" in
      src/server* | src/engine* | src/shared* | scripts* | e2e*) shared+=("$arg") ;;
      *) isolated+=("$arg") ;;
    esac
  done
fi

log="$work/test.log"
status=0
run_tests() {
  set +e
  bun test --parallel="$jobs" "$@" "${preload[@]}" --timings="$timings" --update-timings --timeout 120000 2>&1 | tee -a "$log"
  local code=${PIPESTATUS[0]}
  set -e
  [ "$code" -ne 0 ] && status=$code
  return 0
}
[ ${#isolated[@]} -gt 0 ] && run_tests "${isolated[@]}"
[ ${#shared[@]} -gt 0 ] && run_tests --no-isolate "${shared[@]}"
# Both runs' counts: each run's summary lines (" N pass", " N fail") just before its "Ran N tests across"; a test's
# own output cannot add to them, and a run that printed none (no file matched, a crash) counts none.
count() { awk -v what="$1" 'NF == 2 && $2 == what && $1 ~ /^[0-9]+$/ { last = $1 } /^Ran [0-9]+ tests? across/ { n += last; last = 0 } END { print n + 0 }' "$log"; }
pass=$(count pass)
fail=$(count fail)

# The files of this run, slowest first (their durations as this run measured them).
{ grep -Eo '^[^ ]+\.test\.tsx?:$' "$log" || true; } | tr -d ':' | sort -u >"$work/files"
echo "==> The 10 slowest test files"
bun -e '
  const [timingsPath, filesPath] = process.argv.slice(1);
  const { files } = JSON.parse(await Bun.file(timingsPath).text());
  const ran = (await Bun.file(filesPath).text()).split("\n").filter(Boolean);
  for (const f of ran.filter((f) => f in files).sort((a, b) => files[b] - files[a]).slice(0, 10))
    console.log(`${(files[f] / 1000).toFixed(1).padStart(7)} s  ${f}`);
' "$timings" "$work/files" || true
typecheck_status=0
wait "$typecheck_pid" || typecheck_status=$?
typecheck_pid=""
if [ "$typecheck_status" -ne 0 ]; then
  echo "==> Type-check failed (type errors or promise problems):"
  cat "$work/typecheck.log"
  [ "$status" -eq 0 ] && status=$typecheck_status
else
  echo "==> Type-check passed"
fi
elapsed=$(($(date +%s) - started))
printf 'wall time: %dm %02ds\n' $((elapsed / 60)) $((elapsed % 60))
echo "tests: ${pass} passed, ${fail} failed"
exit "$status"
