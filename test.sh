#!/usr/bin/env bash
# The tests, on a fresh Debian machine as on a developer's: installs with apt-get what they need and is missing, then
# runs them, as .ci/run does (it calls this script).
#
#   Java 17 or later     the build (default-jdk-headless when there is no java)
#   Node.js and npm      the interoperability tests (two npm schema-registry clients, the OpenTelemetry JS SDK) and the PromQL check
#   chromium, chromium-driver   the browser tests (Debian's, at /usr/bin/chromium and /usr/bin/chromedriver)
#   curl                 the image's health check script, run by DockerImageCommandIT
#   promtool             Prometheus' rule checker, from Debian's package prometheus: AlertRulesTest checks and unit-tests
#                        docker/prometheus/alerts.yml with it (required here: -Dpromtool.required=true). Installing the
#                        package enables a Prometheus service; the tests only need promtool, and nothing uses that service
#
# Installing needs root or sudo; without either, the script names the packages and stops. Then: ./mvnw -B verify
# (unit and integration tests, the fault-injection suite and the hostile corpus; arguments of this script go to it,
# e.g. ./test.sh -Dit.test=CrashRecoveryIT), the fault figures (app/target/fault-figures.txt), and the benchmark
# harness in quick mode (asserts nothing about speed; fails only if the harness breaks). Exit status: Maven's, else
# the harness's.
#
#   ./test.sh --dry-run   says what it would install and run, and does neither
#
# CHROMIUM_BIN and CHROMEDRIVER_BIN (default /usr/bin/chromium, /usr/bin/chromedriver) are where the browser tests
# look; set them only to test this script.
set -euo pipefail
cd "$(dirname "$0")"

dry_run=false
if [ "${1:-}" = "--dry-run" ]; then
    dry_run=true
    shift
fi
chromium_bin="${CHROMIUM_BIN:-/usr/bin/chromium}"
chromedriver_bin="${CHROMEDRIVER_BIN:-/usr/bin/chromedriver}"

# Runs a command, or with --dry-run only prints it.
run() {
    echo "+ $*"
    if [ "$dry_run" = false ]; then
        "$@"
    fi
}

packages=()
command -v java >/dev/null 2>&1 || packages+=(default-jdk-headless)
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
[ -x "$chromium_bin" ] || packages+=(chromium)
[ -x "$chromedriver_bin" ] || packages+=(chromium-driver)
command -v curl >/dev/null 2>&1 || packages+=(curl)
command -v promtool >/dev/null 2>&1 || packages+=(prometheus)

if [ ${#packages[@]} -gt 0 ]; then
    echo "test.sh: installing what the tests need: ${packages[*]}"
    if [ "$(id -u)" -eq 0 ]; then
        as_root=()
    elif command -v sudo >/dev/null 2>&1; then
        as_root=(sudo)
    else
        echo "test.sh: neither root nor sudo: install ${packages[*]} (apt-get install ${packages[*]}), then run it again" >&2
        exit 1
    fi
    run "${as_root[@]}" apt-get update -qq
    run "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"
else
    echo "test.sh: Java, Node.js, npm, Chromium, its driver, curl and promtool are installed"
fi

if [ "$dry_run" = false ]; then
    java_version=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [ "${java_version%%.*}" -lt 17 ]; then
        echo "test.sh: the build needs Java 17 or later; java is $java_version ($(command -v java))" >&2
        exit 1
    fi
    java -version 2>&1 | head -1
    echo "node $(node --version)"
    "$chromium_bin" --version
    promtool --version 2>&1 | head -1
fi

# The fault-injection suite and the hostile corpus (app/src/test/java/.../faults/*IT) run in verify's integration-test
# phase, on brokers and the service as processes of the shaded jar; their figures are repeated at the very end.
status=0
run rm -f app/target/fault-figures.txt
run ./mvnw -B verify -Dpromtool.required=true "$@" || status=$?
if [ -f app/target/fault-figures.txt ] && [ "$dry_run" = false ]; then
    echo
    echo "==== fault-injection figures (app/target/fault-figures.txt) ===="
    cat app/target/fault-figures.txt
fi

# The benchmark harness, tiny sizes (docs/benchmarks.md): shows every suite still runs end to end.
if [ $status -eq 0 ]; then
    echo
    echo "==== benchmark harness, quick mode (figures mean nothing) ===="
    run java -jar bench/target/agent-outcomes-bench.jar all --quick || status=$?
fi
exit $status
