# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/cloudstack.sh (its globals and helpers): CloudStack's own tests with the series
# applied, on the line's database (cmd_test: scripts/cloudstack.sh test [LINE]).
# shellcheck shell=bash

# The line's own database (scripts/cloudstack-db.sh) on the test server of scripts/mariadb.sh, and
# a db.properties for it: the line's developer template (utils/conf/db.properties) pointed there.
# The series' database tests read it (-Dcks.cloudstack.db.properties).
database() {
    "$ROOT/scripts/cloudstack-db.sh" load "$LINE" >&2
    local parts host port user password
    parts="$(mariadb_url_parts "$("$ROOT/scripts/mariadb.sh" url)")"
    read -r host port _ user password <<< "$parts"
    # The usage database is not used by the tests: it points at cloud too.
    sed -E -e "s#^db\.(cloud|usage|simulator)\.host=.*#db.\1.host=$host#" \
        -e "s#^db\.(cloud|usage|simulator)\.port=.*#db.\1.port=$port#" \
        -e "s#^db\.(cloud|usage|simulator)\.username=.*#db.\1.username=$user#" \
        -e "s#^db\.(cloud|usage|simulator)\.password=.*#db.\1.password=$password#" \
        -e "s#^db\.usage\.name=.*#db.usage.name=cloud#" \
        "$WORK/src/utils/conf/db.properties" > "$WORK/db.properties"
}

# One line: its modules, the series applied, the modules the series patches built against the
# installed unpatched ones and their tests run (JUnit 4 and Mockito, CloudStack's own style, with
# CloudStack's checkstyle) on the line's database, then the shade check.
test_line() {
    cmd_modules "$1"
    cmd_apply "$1"
    local with_database=()
    # A release's own source (scripts/package.sh release): its tests without a database, as CloudStack's CI
    # runs them (the line's database is built from lines.tsv's source, not this one).
    if [ -z "${CKS_CLOUDSTACK_SOURCE:-}" ]; then
        # The docs' snippets of plugin code are main's patched plugin's code.
        if [ "$LINE" = main ]; then
            python3 "$ROOT/scripts/check-cloudstack-snippets.py" "$WORK/src" "$ROOT/docs/cloudstack-integration.md" \
                "$ROOT/docs/fenced-mode.md" >&2
        fi
        database
        with_database=(-Dcks.cloudstack.db.properties="$WORK/db.properties")
    fi
    local start=$SECONDS where=", without a database"
    [ "${#with_database[@]}" -eq 0 ] || where=" on the line's database"
    log "$LINE: building and testing $PATCHED_MODULES$where"
    # Every JVM of the run (surefire's forks included) checks JNI: a warning fails the run below.
    if ! (cd "$WORK/src" && JAVA_TOOL_OPTIONS="-Xcheck:jni" $MVN "${MVN_FLAGS[@]}" -Drat.skip=true \
            -Dspotbugs.skip=true "${with_database[@]}" -pl "$PATCHED_MODULES" verify) \
            > "$WORK/test.log" 2>&1; then
        grep -E "Tests run:|FAIL|ERROR" "$WORK/test.log" | tail -40 >&2
        die "$LINE: CloudStack's patched modules failed (log: $WORK/test.log)"
    fi
    grep -E "Tests run: [0-9]+, Failures" "$WORK/test.log" | grep -v " in " | sed "s/^/$LINE: /" >&2 || true
    local reports=() module
    IFS=, read -ra modules <<< "$PATCHED_MODULES"
    for module in "${modules[@]}"; do reports+=("$WORK/src/$module/target/surefire-reports"); done
    (cd "$ROOT" && scripts/check-jni-warnings.sh "$WORK/test.log" "${reports[@]}") >&2
    log "$LINE: patched modules built and tested in $((SECONDS - start)) s"
    # With the database: its tests all ran; then the plugin without it (a release's own source had none).
    if [ "${#with_database[@]}" -gt 0 ]; then
        database_tests_ran "${reports[@]}"
        plugin_without_database
    fi
    cmd_shade "$LINE"
}

# With the database, every *DatabaseTest of the patched modules ran: one that skips itself (no
# -Dcks.cloudstack.db.properties reached it) would pass unseen.
database_tests_ran() {
    local files=() dir file tests skipped
    for dir in "$@"; do
        for file in "$dir"/TEST-*DatabaseTest.xml; do
            if [ -f "$file" ]; then files+=("$file"); fi
        done
    done
    [ "${#files[@]}" -gt 0 ] || die "$LINE: with the database, no database test ran (reports: $*)"
    tests=$(suite_tests "${files[@]}")
    skipped=$(suite_sum skipped "${files[@]}")
    [ "$tests" -gt 0 ] && [ "$skipped" -eq 0 ] \
        || die "$LINE: with the database, $skipped of $tests database tests were skipped (reports: $*)"
    log "$LINE: database tests: $tests, none skipped"
}

# One count of surefire's reports (each <testsuite ATTRIBUTE="N">), summed: suite_sum ATTRIBUTE FILE...
suite_sum() {
    local attribute="$1"
    shift
    grep -ho '<testsuite [^>]*' "$@" | grep -o " $attribute=\"[0-9]*\"" | tr -dc '0-9\n' | awk '{ n += $1 } END { print n + 0 }'
}

# The tests surefire's reports count, summed.
suite_tests() {
    suite_sum tests "$@"
}

# The plugin's tests as CloudStack's CI runs them: mvn test, no database. None may be skipped, no
# *DatabaseTest may run (they are the cks-database-tests profile's), and the rest must all run.
plugin_without_database() {
    local log="$WORK/test-no-database.log" start=$SECONDS reports="$WORK/src/$PLUGIN/target/surefire-reports"
    local all ran database
    all=$(suite_tests "$reports"/TEST-*.xml)
    database=$(suite_tests "$reports"/TEST-*DatabaseTest.xml)
    if ! (cd "$WORK/src" && JAVA_TOOL_OPTIONS="-Xcheck:jni" $MVN "${MVN_FLAGS[@]}" -Drat.skip=true -Dspotbugs.skip=true \
            -Dcheckstyle.skip=true -pl "$PLUGIN" test) > "$log" 2>&1; then
        grep -E "Tests run:|FAIL|ERROR" "$log" | tail -20 >&2
        die "$LINE: the plugin's tests failed without a database (log: $log)"
    fi
    ran=$(grep -E "Tests run: [0-9]+, Failures" "$log" | grep -v " in " | tail -1)
    grep -q "DatabaseTest" "$log" && die "$LINE: a database test ran without a database (log: $log)"
    [[ "$ran" == *"Tests run: $((all - database)), Failures: 0, Errors: 0, Skipped: 0"* ]] \
        || die "$LINE: without a database expected $((all - database)) tests run, none skipped; got: $ran (log: $log)"
    (cd "$ROOT" && scripts/check-jni-warnings.sh "$log" "$reports") >&2
    log "$LINE: the plugin without a database: $((all - database)) tests, none skipped ($((SECONDS - start)) s; $database more need it)"
}

cmd_test() {
    local chosen=("$@") line
    [ "${#chosen[@]}" -gt 0 ] || mapfile -t chosen < <(lines)
    # A release's own source is what the series is applied to: lines.tsv's later release numbers are not.
    [ -n "${CKS_CLOUDSTACK_SOURCE:-}" ] || cmd_versions
    cmd_library
    if [ -z "${CKS_CLOUDSTACK_SOURCE:-}" ] && ! "$ROOT/scripts/mariadb.sh" status 2>/dev/null; then
        "$ROOT/scripts/mariadb.sh" start >&2
        trap '"$ROOT/scripts/mariadb.sh" stop >&2' EXIT
    fi
    for line in "${chosen[@]}"; do
        ( test_line "$line" )
    done
    # With every line applied: what the series add is one text wherever CloudStack is the same.
    if [ "${#chosen[@]}" -eq "$(lines | wc -l)" ]; then
        python3 "$ROOT/scripts/check-series-lines.py" "$WORK_ROOT" >&2
    fi
}
