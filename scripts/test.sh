#!/usr/bin/env bash
# Every test of the station, from a fresh clone: installs what the tests need, then typecheck,
# lint, build, unit, integration (with a real keychain) and end-to-end tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

step() { printf '\n=== %s\n' "$1"; }

step "System packages"
bash scripts/install-test-deps.sh

step "Node packages"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  echo "node_modules is up to date"
fi

step "Typecheck";        npm run --silent typecheck
step "Lint";             npm run --silent lint
step "Build";            npm run --silent build >/dev/null && echo "built out/main, out/preload, out/renderer"
step "Unit tests";       npx vitest run --project unit
step "Integration tests (real sockets, files, OS keychain, CUPS)"
dbus-run-session -- bash scripts/with-keyring.sh npx vitest run --project integration
step "Windows stage (the station on Windows Node under Wine)"; bash scripts/test-windows.sh
step "End-to-end tests (Chromium through the web host) and the Electron smoke test"
npx playwright test

printf '\nAll suites passed in %ss.\n' "$(( $(date +%s) - started ))"
