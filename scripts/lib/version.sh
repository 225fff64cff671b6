# The version a build carries, from the repository (docs/install.md, "Versions"):
# - a commit tagged vX.Y.Z builds X.Y.Z;
# - any other commit builds X.Y.Z+gitYYYYMMDD.N.SHA, where X.Y.Z is the last vX.Y.Z tag before it
#   (debian/changelog's newest version when there is none), N the commits since then and SHA the
#   commit: dpkg sorts it after X.Y.Z and before the next release, and N keeps two builds of one
#   day in order;
# - VESTAWIDGET_VERSION, when set, is taken as it is (a second build for a test, a hotfix).
# debian/changelog's newest version, read without dpkg-dev (which a fresh machine may lack).
changelog_version() { sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog; }

project_version() {
    if [ -n "${VESTAWIDGET_VERSION:-}" ]; then
        echo "$VESTAWIDGET_VERSION"
        return
    fi
    local exact base count date sha
    if ! git rev-parse --git-dir > /dev/null 2>&1; then
        changelog_version
        return
    fi
    if exact=$(git describe --tags --exact-match --match 'v[0-9]*' 2> /dev/null); then
        echo "${exact#v}"
        return
    fi
    if base=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2> /dev/null); then
        count=$(git rev-list --count "$base..HEAD")
        base=${base#v}
    else
        base=$(changelog_version)
        count=$(git rev-list --count HEAD)
    fi
    date=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d)
    sha=$(git rev-parse --short=7 HEAD)
    echo "$base+git$date.$count.$sha"
}
