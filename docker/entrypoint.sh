#!/bin/sh
# The image's entry point: java -jar agent-outcomes.jar "$@", with the OpenTelemetry Java agent attached when
# OTEL_JAVAAGENT_ENABLED=true. JAVA_OPTS adds JVM options. DockerImageCommandIT runs this script with the image's
# command and environment, against the shaded jar of the build (APP_JAR).
set -eu

APP_JAR="${APP_JAR:-/opt/agent-outcomes/agent-outcomes.jar}"
OTEL_JAVAAGENT_JAR="${OTEL_JAVAAGENT_JAR:-/opt/otel/opentelemetry-javaagent.jar}"

if [ "${OTEL_JAVAAGENT_ENABLED:-false}" = "true" ]; then
    if [ ! -f "$OTEL_JAVAAGENT_JAR" ]; then
        echo "agent-outcomes: OTEL_JAVAAGENT_ENABLED=true but there is no agent at $OTEL_JAVAAGENT_JAR" >&2
        exit 64
    fi
    # shellcheck disable=SC2086 # JAVA_OPTS is a list of options
    exec java ${JAVA_OPTS:-} -javaagent:"$OTEL_JAVAAGENT_JAR" -jar "$APP_JAR" "$@"
fi
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} -jar "$APP_JAR" "$@"
