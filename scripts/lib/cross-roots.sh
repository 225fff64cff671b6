# The roots an arm64 package is built in, made with mmdebstrap and kept in a cache folder outside
# the clone (VESTAWIDGET_CACHE, else ~/.cache/vestawidget), so that a second build downloads
# nothing. Sourced by scripts/package after scripts/lib/prerequisites.sh.
#
# - A Debian unstable ("sid") amd64 root with Debian's Swift 6.2.3 (`swiftlang`): the compiler
#   needs sid's glibc, so it runs there only, in a chroot.
# - An arm64 sysroot of the target's Debian (bookworm, Raspberry Pi OS 12's base, so the binary
#   runs on 12 and 13): its C libraries and headers, and the aarch64 parts of sid's arm64
#   `swiftlang` (the static Swift runtime and the Swift modules), so that flapd links with no
#   Swift library left to find on the Pi.
#
# Each root is made in a folder beside its final name and renamed when complete, and carries a
# stamp of what it was made from: a root cut short is never taken for a ready one, and a root
# made from an older recipe is made again.

CROSS_CACHE=${VESTAWIDGET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vestawidget}
SID_SWIFT_VERSION=6.2.3
# swiftlang pulls gcc 16 into sid, so clang (BoringSSL's C++) wants that libstdc++.
SID_ROOT_PACKAGES=swiftlang,libstdc++-16-dev,libsystemd-dev,libsqlite3-dev,libasound2-dev,zlib1g-dev,libqrencode-dev,pkg-config,git,ca-certificates,file
# The target's C libraries and headers: what flapd links (libc, libstdc++, zlib) and the headers
# of those it opens when needed.
sysroot_packages() {
    case "$1" in
        bookworm) echo libc6-dev,libgcc-12-dev,libstdc++-12-dev,libsystemd-dev,libsqlite3-dev,libasound2-dev,zlib1g-dev,libqrencode-dev ;;
        *) echo libc6-dev,libgcc-14-dev,libstdc++-14-dev,libsystemd-dev,libsqlite3-dev,libasound2-dev,zlib1g-dev,libqrencode-dev ;;
    esac
}

# The Debian mirror this machine's apt uses (its deb822 or one-line sources), else Debian's own.
debian_mirror() {
    local uri
    uri=$(sed -n 's/^URIs: *\(http[^ ]*debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
    [ -n "$uri" ] || uri=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\(http[^ ]*debian\)\/* .*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
    echo "${uri:-http://deb.debian.org/debian}"
}

# deb822 sources for SUITE on the mirror.
debian_sources() {
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$(debian_mirror)" "$1"
}

# ready_root FOLDER STAMP: whether FOLDER is complete and was made from STAMP.
ready_root() { [ -f "$1/.vestawidget-root" ] && [ "$(cat "$1/.vestawidget-root")" = "$2" ]; }

# The sid root with Swift 6.2.3, made when missing: some 3 minutes and 3.3 GB.
SID_ROOT="$CROSS_CACHE/sid-swift-$SID_SWIFT_VERSION"
make_sid_root() {
    local stamp="sid $SID_ROOT_PACKAGES"
    ready_root "$SID_ROOT" "$stamp" && return 0
    say "making a Debian unstable root with Swift $SID_SWIFT_VERSION ($SID_ROOT; some 3 minutes, 3.3 GB, once)"
    mkdir -p "$CROSS_CACHE"
    rm -rf "$SID_ROOT" "$SID_ROOT.part"
    # sid's Release file may be past its Valid-Until on a mirror that is a snapshot.
    debian_sources sid | mmdebstrap --quiet --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
        --include="$SID_ROOT_PACKAGES" sid "$SID_ROOT.part" - >&2
    local installed
    installed=$(chroot "$SID_ROOT.part" dpkg-query -W -f '${Version}' swiftlang)
    case "$installed" in
        "$SID_SWIFT_VERSION"-*) ;;
        *) say "Debian unstable's swiftlang is $installed, not $SID_SWIFT_VERSION: the build recipe names $SID_SWIFT_VERSION"; exit 1 ;;
    esac
    # Debian's package has no lib_Testing_Foundation.so, which the tests' Testing and Foundation
    # autolink (a packaging gap): an empty library of that name lets them link.
    chroot "$SID_ROOT.part" sh -c 'cc -shared -o /usr/libexec/swift/lib/swift/linux/lib_Testing_Foundation.so -x c /dev/null'
    echo "$stamp" > "$SID_ROOT.part/.vestawidget-root"
    mv "$SID_ROOT.part" "$SID_ROOT"
}

# in_sid_root COMMAND...: runs COMMAND in the sid root, in the project's folder (mounted at the
# same path, so SwiftPM's paths mean the same inside and out), with the machine's copies of the
# Swift packages and its git settings for github.com, and the folders SID_ROOT_BINDS names (a
# sysroot), each at its own path. The mounts live in a private namespace and go when the command
# ends.
in_sid_root() {
    local binds="$PWD /opt/swift-packages ${SID_ROOT_BINDS:-}"
    unshare -m bash -s "$SID_ROOT" "$PWD" "$binds" "$@" <<'EOF'
set -euo pipefail
root=$1 project=$2 binds=$3; shift 3
mount --make-rprivate /
mkdir -p "$root/proc"
mount -t proc proc "$root/proc"
for folder in $binds; do
    [ -d "$folder" ] || continue
    mkdir -p "$root$folder"
    mount --bind "$folder" "$root$folder"
done
git config --system --list 2>/dev/null | grep '^url\.' | while IFS='=' read -r key value; do
    chroot "$root" git config --system --replace-all "$key" "$value" "^$(printf '%s' "$value" | sed 's/[.[\*^$]/\\&/g')\$"
done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
exec chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 bash -c 'cd "$0" && exec "$@"' "$project" "$@"
EOF
}

# sid's arm64 swiftlang .deb (some 500 MB), downloaded once into the cache.
arm64_swiftlang_deb() {
    local folder="$CROSS_CACHE/debs"
    local found
    found=$(ls "$folder"/swiftlang_"$SID_SWIFT_VERSION"-*_arm64.deb 2>/dev/null | head -n 1 || true)
    if [ -z "$found" ]; then
        say "downloading Debian unstable's arm64 swiftlang $SID_SWIFT_VERSION (some 500 MB, once)"
        local lists
        lists=$(mktemp -d)
        mkdir -p "$lists/lists/partial" "$lists/archives/partial" "$lists/sources.list.d" "$folder"
        debian_sources sid > "$lists/sources.list.d/sid.sources"
        local options=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$lists/sources.list.d" -o "Dir::State::Lists=$lists/lists"
                       -o "Dir::Cache::Archives=$lists/archives" -o APT::Architecture=arm64 -o APT::Architectures=arm64
                       -o Acquire::Check-Valid-Until=false -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
        apt-get "${options[@]}" update -q >/dev/null
        (cd "$folder" && apt-get "${options[@]}" download "swiftlang=$SID_SWIFT_VERSION*" >/dev/null)
        rm -rf "$lists"
        found=$(ls "$folder"/swiftlang_"$SID_SWIFT_VERSION"-*_arm64.deb)
    fi
    echo "$found"
}

# ARM64_SYSROOT for SUITE (trixie): made when missing, some 2 minutes with the download.
arm64_sysroot_for() { echo "$CROSS_CACHE/sysroot-$1-arm64"; }
make_arm64_sysroot() {
    local suite=$1
    local sysroot stamp swiftlang
    sysroot=$(arm64_sysroot_for "$suite")
    swiftlang=$(arm64_swiftlang_deb)
    stamp="$suite $(sysroot_packages "$suite") $(basename "$swiftlang") with DEBIAN/symbols, relative links"
    ready_root "$sysroot" "$stamp" && return 0
    say "making an arm64 sysroot of Debian $suite with Swift $SID_SWIFT_VERSION's aarch64 runtime ($sysroot, once)"
    rm -rf "$sysroot" "$sysroot.part"
    # Extracted, not installed: nothing in it runs, so no emulator is needed to make it.
    debian_sources "$suite" | mmdebstrap --quiet --variant=extract --skip=check/qemu --skip=cleanup/apt/cache \
        --architectures=arm64 --include="$(sysroot_packages "$suite")" "$suite" "$sysroot.part" - >&2
    # Extracting registers no package, so dpkg-shlibdeps would find the libraries and not what
    # they need. The sysroot is made to look like a package build tree instead (its DEBIAN/
    # holds the symbols and shlibs files of every package in it), which dpkg-shlibdeps reads
    # when named with -S: the target's Depends then come from the target's own libraries.
    mkdir -p "$sysroot.part/DEBIAN"
    local deb control
    for deb in "$sysroot.part"/var/cache/apt/archives/*.deb; do
        control=$(mktemp -d)
        dpkg-deb -e "$deb" "$control"
        for file in symbols shlibs; do
            [ -f "$control/$file" ] && cat "$control/$file" >> "$sysroot.part/DEBIAN/$file"
        done
        rm -rf "$control" "$deb"
    done
    # Links to absolute paths (Debian 12's libm.so -> /lib/aarch64-linux-gnu/libm.so.6) would
    # point into this machine's own /lib: made relative, they stay inside the sysroot.
    local link target
    while IFS= read -r link; do
        target=$(readlink "$link")
        ln -sfn "$(realpath -m -s --relative-to="$(dirname "$link")" "$sysroot.part$target")" "$link"
    done < <(find "$sysroot.part" -type l -lname '/*')
    # What an installed root has and lld looks for: /lib and the like as links into /usr.
    for folder in lib bin sbin; do
        [ -e "$sysroot.part/$folder" ] || ln -s "usr/$folder" "$sysroot.part/$folder"
    done
    # The static runtime, the aarch64 Swift modules and clang's headers; not the compiler itself.
    dpkg-deb --fsys-tarfile "$swiftlang" | tar -x -C "$sysroot.part" \
        --exclude='./usr/libexec/swift/lib/swift/embedded' --exclude='./usr/libexec/swift/lib/swift/host' \
        --exclude='./usr/libexec/swift/lib/swift/migrator' \
        ./usr/libexec/swift/lib/swift/ ./usr/libexec/swift/lib/swift_static/ ./usr/libexec/swift/lib/clang/
    # Where the driver looks for them beside the sysroot's /usr/lib.
    ln -s ../libexec/swift/lib/swift_static "$sysroot.part/usr/lib/swift_static"
    ln -s ../libexec/swift/lib/swift "$sysroot.part/usr/lib/swift"
    echo "$stamp" > "$sysroot.part/.vestawidget-root"
    mv "$sysroot.part" "$sysroot"
}

# A SwiftPM destination for aarch64 with SYSROOT, for the sid root's compiler; written to FILE.
# The resource folder is the static runtime's: flapd then needs no Swift library on the Pi.
# OBJECT, an aarch64 object file, is linked into every executable (the glibc 2.36 shim).
write_arm64_destination() {
    local sysroot=$1 file=$2 object=$3
    cat > "$file" <<JSON
{
  "version": 1,
  "sdk": "$sysroot",
  "toolchain-bin-dir": "/usr/libexec/swift/bin",
  "target": "aarch64-unknown-linux-gnu",
  "extra-cc-flags": ["-fPIC"],
  "extra-cpp-flags": ["-fPIC"],
  "extra-swiftc-flags": ["-sdk", "$sysroot", "-resource-dir", "$sysroot/usr/libexec/swift/lib/swift_static",
                         "-use-ld=lld", "-no-toolchain-stdlib-rpath", "-Xlinker", "$object"]
}
JSON
}
