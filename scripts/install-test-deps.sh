#!/usr/bin/env bash
# Installs the Debian packages the tests use, only those missing:
#   chromium (the benches and the Windows stage) + chromium-headless-shell (end-to-end tests), dbus + gnome-keyring (a real OS keychain), cups + cups-filters (real raw and PDF print
#   queues), zbar-tools + poppler-utils (decode barcodes from rendered labels and PDFs), postgresql (the tests start a
#   private server of their own from its binaries: test/support/postgres-server.ts; Debian's own cluster is not used),
#   wine64 + gcc-mingw-w64-x86-64-win32 (the Windows stage: the station on Windows Node under Wine, scripts/test-windows.sh),
#   socat (a pseudo-terminal pair the virtual serial scale talks through: test/support/pty-pair.ts),
#   xvfb + x11-xkb-utils + python3-xlib (the real-key tests: an X server of their own, its keyboard layout set with
#   setxkbmap, keys pressed by keycode through XTEST into the full Chromium: test/e2e-keys).
set -euo pipefail

declare -A needs=(
  [/usr/bin/chromium]=chromium
  [/usr/bin/chromium-headless-shell]=chromium-headless-shell
  [/usr/bin/dbus-run-session]=dbus
  [/usr/bin/gnome-keyring-daemon]=gnome-keyring
  [/usr/sbin/cupsd]=cups
  [/usr/bin/lp]=cups-client
  [/usr/share/ppd/cupsfilters/Generic-PDF_Printer-PDF.ppd]=cups-filters
  [/usr/bin/zbarimg]=zbar-tools
  [/usr/bin/pdftoppm]=poppler-utils
  [/usr/lib/wine/wine64]=wine64
  [/usr/bin/x86_64-w64-mingw32-gcc-win32]=gcc-mingw-w64-x86-64-win32
  [/usr/bin/socat]=socat
  [/usr/bin/Xvfb]=xvfb
  [/usr/bin/setxkbmap]=x11-xkb-utils
  [/usr/lib/python3/dist-packages/Xlib]=python3-xlib
)
missing=()
for path in "${!needs[@]}"; do
  [ -e "$path" ] || missing+=("${needs[$path]}")
done
# PostgreSQL's binaries live under a versioned folder (/usr/lib/postgresql/15/bin on Debian 12).
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0

packages=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
echo "Installing test dependencies: $packages"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "Need root (or sudo) to install: $packages" >&2; exit 1; }
  sudo=sudo
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $packages >/dev/null
