# Checks and installs what building and testing need on Debian 12. Sourced by scripts/run and scripts/test.

say() { printf '==> %s\n' "$*" >&2; }

# Swift 6.2 or later. Debian 12 does not package Swift and Debian 13's swiftlang is 6.0, whose
# package manager cannot read the manifests of this project's dependencies: say where to get it.
require_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        say "Swift 6.2 or later is not installed (or not on PATH)."
        say "Install the Swift 6.x toolchain for Debian 12 from https://www.swift.org/install/linux/ and put its usr/bin on PATH."
        exit 1
    fi
    local version major minor
    version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
    major=${version%%.*}; minor=${version#*.}
    if [ -z "$version" ] || [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 2 ]; }; then
        say "Swift 6.2 or later is needed; this is: $(swift --version 2>&1 | head -n 1)"
        say "(Debian 13's swiftlang package is Swift 6.0: install swift.org's toolchain for Debian 12 instead.)"
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
    # One apt at a time: CI runs scripts side by side, and a second apt-get would fail on the lock.
    (
        flock 9
        $sudo apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
    ) 9> "${TMPDIR:-/tmp}/vestawidget-apt.lock"
}

# The test peers run in a Python virtual environment (Debian's Python refuses pip outside one).
require_python_venv() {
    if command -v python3 >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' 2>/dev/null; then
        return 0
    fi
    apt_install python3 python3-venv python3-pip
}

# The C libraries the Swift targets link: libsystemd (sd_notify, sd-bus for BlueZ), SQLite (the inbox), ALSA (sound),
# zlib (compress-nio, for PNG pictures), libqrencode (QR codes for pairing). libgpiod needs no
# header (Sources/CGPIOD declares both of its APIs), only its library where GPIO is used.
# MQTT needs no C library: its client is flapd's own, on swift-nio.
require_build_libraries() {
    apt_install pkg-config libsystemd-dev libsqlite3-dev libasound2-dev zlib1g-dev libqrencode-dev
}

# The GPIO tests use both libgpiod APIs through the real libraries: the system's own (libgpiod 1
# on Debian 12, 2 on Debian 13), and on Debian 12 Debian 13's libgpiod3 as well, unpacked into
# .build/libgpiod3 (it needs nothing newer than Debian 12's glibc); scripts/test puts that folder
# on LD_LIBRARY_PATH. Nothing is installed into the system from Debian 13.
require_gpio_libraries() {
    if grep -q '^VERSION_ID="12"' /etc/os-release 2>/dev/null; then
        apt_install libgpiod2
        provide_libgpiod3_for_tests
    else
        apt_install libgpiod3
    fi
}

provide_libgpiod3_for_tests() {
    local folder=.build/libgpiod3
    [ -e "$folder/libgpiod.so.3" ] && return 0
    say "fetching Debian 13's libgpiod3 into $folder, for the libgpiod 2 tests"
    local lists
    lists=$(mktemp -d)
    mkdir -p "$lists/lists/partial" "$lists/archives/partial" "$folder"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$lists/sources.list"
    local options=(-o "Dir::Etc::SourceList=$lists/sources.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$lists/lists"
                   -o "Dir::Cache::Archives=$lists/archives" -o "APT::Architecture=$(dpkg --print-architecture)" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
    apt-get "${options[@]}" update -q >/dev/null
    (cd "$lists" && apt-get "${options[@]}" download libgpiod3 >/dev/null)
    dpkg-deb -x "$lists"/libgpiod3_*.deb "$lists/root"
    cp -a "$lists"/root/usr/lib/*/libgpiod.so.3* "$folder/"
    rm -rf "$lists"
}

# The tests' own libraries (.build/libgpiod3) before the system's.
use_test_libraries() {
    if [ -d .build/libgpiod3 ]; then
        export LD_LIBRARY_PATH="$PWD/.build/libgpiod3${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    fi
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

# Installs into a venv with uv (from PyPI, kept in .build/uv), which downloads and unpacks in
# parallel: Home Assistant's venv takes seconds with it where pip took some fifteen minutes on a
# fresh machine. pip does it when uv cannot be had.
UV_VERSION=0.13.9
venv_install() {
    local venv="$1" uv=".build/uv/bin/uv"
    shift
    if [ ! -x "$uv" ]; then
        rm -rf .build/uv
        python3 -m venv .build/uv && .build/uv/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION" \
            || rm -rf .build/uv
    fi
    if [ -x "$uv" ]; then
        "$uv" pip install --quiet --python "$venv/bin/python" "$@"
    else
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
    fi
}

# The Python peers' venv (Tests/Peers/requirements.txt), made before the tests run: pip inside a
# test would hold a test thread for a minute and starve the timing-sensitive tests beside it.
# Same place and stamp as Tests/TestSupport/PythonPeer.swift, which then finds it ready.
# Home Assistant core in a venv of its own (its pins clash with the other peers'), made once and
# kept in .build/ha-venv until Tests/Peers/requirements-ha.txt changes: seconds with uv, some fifteen minutes with pip.
prepare_home_assistant_venv() {
    local venv="${VESTAWIDGET_HA_VENV:-.build/ha-venv}" requirements="Tests/Peers/requirements-ha.txt"
    if [ -x "$venv/bin/hass" ] && cmp -s "$requirements" "$venv/requirements.installed"; then
        return 0
    fi
    say "making Home Assistant's venv ($venv; seconds with uv)"
    rm -rf "$venv"
    python3 -m venv "$venv"
    venv_install "$venv" -r "$requirements"
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
    # pip here, not uv: the same versions, but schemathesis, given the same seed, found a schema
    # mismatch in a venv uv made and none in pip's (not understood yet); pip takes half a minute.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$nodeps"
    cat "$requirements" "$nodeps" > "$venv/requirements.installed"
}
