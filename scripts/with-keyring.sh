#!/usr/bin/env bash
# Runs a command with a real OS keychain: inside a private D-Bus session (start this script with
# `dbus-run-session --`), an unlocked GNOME Keyring serves the Secret Service API, as on a desktop.
set -euo pipefail
export XDG_DATA_HOME="${XDG_DATA_HOME:-$(mktemp -d)}"
eval "$(printf 'station-tests\n' | gnome-keyring-daemon --unlock --components=secrets)" >/dev/null
export GNOME_KEYRING_CONTROL
exec "$@"
