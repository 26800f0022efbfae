# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# What cks-state-start and cks-state-doctor both check, sourced by each (POSIX sh). The caller sets
# $root: empty on a server, a scratch root in the tests.

share="$root/usr/share/cks-state"
cloudstack_lib="$root/usr/share/cloudstack-management/lib"
defaults="$root/etc/default/cloudstack-management"
run="$root/run/cks-state"
env_file="$run/cloudstack-management.env"
# What goes on the class path and into the JVM, as the server sees them (no $root).
overlay_jar=/usr/share/cks-state/lib/cks-state-overlay.jar
library_jar=/usr/share/cks-state/lib/cks-state.jar
native_library=/usr/lib/cks-state/libcks_state.so
cli_jar=/usr/share/cks-state/cli/cks-state-cli.jar
server_db_properties="$root/etc/cloudstack/management/db.properties"

# Root's, and writable by no one else: the file and every folder above it. Prints why not.
trusted() {
    path="$1"
    while [ -n "$path" ] && [ "$path" != "/" ] && [ "$path" != "$root" ]; do
        [ -e "$path" ] || { echo "$path is missing"; return 1; }
        [ -L "$path" ] && { echo "$path is a symbolic link"; return 1; }
        owner="$(stat -c %u "$path")"
        mode="$(stat -c %a "$path")"
        [ "$owner" = 0 ] || { echo "$path belongs to uid $owner, not root"; return 1; }
        case "$mode" in
            *[2367]? | *[2367]) echo "$path is writable by group or others (mode $mode)"; return 1 ;;
        esac
        path="${path%/*}"
    done
    return 0
}

# The installed CloudStack release: the version in the name of cloudstack-management's jar. Prints it,
# or why there is none.
installed_release() {
    set -- "$cloudstack_lib"/cloudstack-*.jar
    if [ "$#" -ne 1 ] || [ ! -f "$1" ]; then
        echo "expected one $cloudstack_lib/cloudstack-<version>.jar (cloudstack-management's), found $(ls "$cloudstack_lib" 2>/dev/null | grep -c '^cloudstack-.*\.jar$')"
        return 1
    fi
    release="${1##*/cloudstack-}"
    echo "${release%.jar}"
}

# The release the package's overlay was built for, or why there is none.
built_release() {
    [ -r "$share/cloudstack-release" ] || { echo "$share/cloudstack-release is missing (is the cks-state package whole?)"; return 1; }
    head -n 1 "$share/cloudstack-release"
}

# The value of KEY ($1) in an environment file ($2) as systemd reads it (KEY=value, or the value in one
# pair of quotes; the last one wins). Parsed, never run: the caller is root and the file is the server's.
env_value() {
    sed -n "s/^[[:space:]]*$1=//p" "$2" | tail -n 1 \
        | sed -e 's/^"\(.*\)"[[:space:]]*$/\1/' -e "s/^'\\(.*\\)'[[:space:]]*\$/\\1/"
}

# CloudStack's own CLASSPATH and JAVA_OPTS (line 1 and 2), from its /etc/default file.
stock_settings() {
    [ -r "$defaults" ] || { echo "$defaults is missing"; return 1; }
    printf '%s\n%s\n' "$(env_value CLASSPATH "$defaults")" "$(env_value JAVA_OPTS "$defaults")"
}
