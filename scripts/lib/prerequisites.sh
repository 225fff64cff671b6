# Checks and installs what building and testing need on Debian 12. Sourced by scripts/run and scripts/test.

say() { printf '==> %s\n' "$*" >&2; }

# Swift 6 does not come from Debian's archive: say where to get it rather than guess.
require_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        say "Swift 6 is not installed (or not on PATH)."
        say "Install the Swift 6.x toolchain for Debian 12 from https://www.swift.org/install/linux/ and put its usr/bin on PATH."
        exit 1
    fi
    local version
    version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9]*\)\..*/\1/p' | head -n 1)
    if [ -z "$version" ] || [ "$version" -lt 6 ]; then
        say "Swift 6 or later is needed; this is: $(swift --version 2>&1 | head -n 1)"
        exit 1
    fi
}

# apt_install PACKAGE... installs the Debian packages that are missing (root, or through sudo).
apt_install() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    say "installing ${missing[*]}"
    $sudo apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

# The test peers run in a Python virtual environment (Debian's Python refuses pip outside one).
require_python_venv() {
    if command -v python3 >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' 2>/dev/null; then
        return 0
    fi
    apt_install python3 python3-venv python3-pip
}

# The C libraries the Swift targets link: libsystemd (sd_notify, sd-bus for BlueZ), SQLite (the inbox), ALSA (sound),
# libgpiod (GPIO lines), zlib (compress-nio, for PNG pictures), libqrencode (QR codes for pairing).
# MQTT needs no C library: its client is flapd's own, on swift-nio.
require_build_libraries() {
    apt_install pkg-config libsystemd-dev libsqlite3-dev libasound2-dev libgpiod-dev zlib1g-dev libqrencode-dev
}

# What the tests run against: a real mosquitto broker and its command-line clients, openssl for
# the TLS test's CA, a private dbus-daemon with python-dbusmock playing BlueZ (Debian's packages:
# dbus-python does not build from pip without compilers and headers); e2fsprogs and mount for the
# small ext4 filesystems the storage tests fill up and turn read-only; certutil (libnss3-tools) for
# a throwaway NSS database that makes Chromium trust flapd's authority; zbarimg (zbar-tools) to read
# the QR codes flapctl prints.
require_test_peers() {
    apt_install mosquitto mosquitto-clients openssl dbus-daemon python3-dbus python3-dbusmock chromium chromium-driver e2fsprogs mount \
        libnss3-tools zbar-tools
}

# The Python peers' venv (Tests/Peers/requirements.txt), made before the tests run: pip inside a
# test would hold a test thread for a minute and starve the timing-sensitive tests beside it.
# Same place and stamp as Tests/TestSupport/PythonPeer.swift, which then finds it ready.
# Home Assistant core in a venv of its own (its pins clash with the other peers'), made once and
# kept in .build/ha-venv until Tests/Peers/requirements-ha.txt changes: a few minutes the first time.
prepare_home_assistant_venv() {
    local venv="${VESTAWIDGET_HA_VENV:-.build/ha-venv}" requirements="Tests/Peers/requirements-ha.txt"
    if [ -x "$venv/bin/hass" ] && cmp -s "$requirements" "$venv/requirements.installed"; then
        return 0
    fi
    say "making Home Assistant's venv ($venv; a few minutes the first time)"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/requirements.installed"
}

prepare_test_venv() {
    local venv="${VESTAWIDGET_TEST_VENV:-.build/test-venv}"
    local requirements="Tests/Peers/requirements.txt" nodeps="Tests/Peers/requirements-nodeps.txt"
    if [ -x "$venv/bin/python" ] && cat "$requirements" "$nodeps" | cmp -s - "$venv/requirements.installed"; then
        return 0
    fi
    say "making the test peers' Python venv ($venv)"
    mkdir -p "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$nodeps"
    cat "$requirements" "$nodeps" > "$venv/requirements.installed"
}
