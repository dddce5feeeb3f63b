#!/usr/bin/env bash
# Every test of the station, from a fresh clone: installs what the tests need, then typecheck,
# lint, build, the Windows stage, unit tests, the fuzz stage, integration tests (with a real
# keychain) and end-to-end tests in Chromium.
#
# On a 2-core machine most of a suite's time is waiting (sockets, printers, timers), so what does
# not disturb each other runs side by side: the Windows stage's downloads and Wine prefix while
# the Node packages install and the station builds; typecheck, lint and the Windows stage together;
# integration test files three at a time, all but the few that need the machine to themselves
# (vitest.config.ts). The end-to-end tests run after everything else, two at a time; their scans
# carry a scanner's key times, and the few that type in real time run first, on their own, then
# those whose keys come from an X server with the bench PC's keyboard layout (playwright.config.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
logs=test-results/stages
mkdir -p "$logs"

# Each stage's heading; the stage before it is timed as it ends (the issue's goal counts seconds).
stage_name=''
stage_started=$started
step() {
  local now
  now=$(date +%s)
  [ -n "$stage_name" ] && printf '(%s: %ss)\n' "$stage_name" "$(( now - stage_started ))"
  stage_name=$1
  stage_started=$now
  printf '\n=== %s\n' "$1"
}

# Runs the given stages side by side, each with its output in its own log, printed when it ends.
side_by_side() {
  local pids=() names=() failed=0
  while [ $# -gt 0 ]; do
    names+=("$1")
    (eval "$2") >"$logs/$1.log" 2>&1 &
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then status=passed; else status=FAILED; failed=1; fi
    printf '\n--- %s: %s after %ss\n' "${names[$i]}" "$status" "$(( $(date +%s) - stage_started ))"
    cat "$logs/${names[$i]}.log"
  done
  return "$failed"
}

step "System packages"
bash scripts/install-test-deps.sh
# The Windows stage's own downloads and Wine prefix need none of what follows: made meanwhile.
bash scripts/test-windows.sh --prepare >"$logs/windows-prepare.log" 2>&1 &
windows_prepared=$!

packages_in_place=$(date +%s)
step "Node packages"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  echo "node_modules is up to date"
fi

step "Build";            npm run --silent build >/dev/null && echo "built out/main, out/preload, out/renderer"
if ! wait "$windows_prepared"; then
  cat "$logs/windows-prepare.log"
  echo "The Windows stage could not be prepared."
  exit 1
fi
step "Typecheck, lint and the Windows stage (the station on Windows Node under Wine), side by side"
side_by_side \
  typecheck 'npm run --silent typecheck && echo "no type errors"' \
  lint 'npm run --silent lint && echo "no lint errors"' \
  windows 'bash scripts/test-windows.sh'
step "Unit tests";       npx vitest run --project unit
# Every parser of outside data under generated and mutated inputs, from a fixed seed (test/fuzz/budget.ts).
step "Fuzz tests";       npx vitest run --project fuzz
step "Integration tests (real sockets, files, OS keychain, CUPS)"
dbus-run-session -- bash scripts/with-keyring.sh npx vitest run --project 'integration*'
step "End-to-end tests (Chromium through the web host) and the Electron smoke test"
npx playwright test --project e2e-typing
npx playwright test --project e2e-keys
npx playwright test --project e2e --project electron

finished=$(date +%s)
printf '(%s: %ss)\n' "$stage_name" "$(( finished - stage_started ))"
printf '\nAll suites passed in %ss, %ss after the system packages were in place.\n' "$(( finished - started ))" "$(( finished - packages_in_place ))"
