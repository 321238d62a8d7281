#!/bin/sh
# Makes the TLS keystore docker/compose.yaml mounts into both instances: a self-signed certificate naming how the
# instances reach each other (agent-outcomes-1, agent-outcomes-2), localhost and 127.0.0.1, with its key, in
# docker/tls/http.p12, and the certificate alone in docker/tls/http.crt for Prometheus to trust. The keystore's
# password is AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD, the variable compose passes to the instances; it is read from
# the environment, never put on a command line. Needs keytool (any JDK). TLS_DIR writes elsewhere (the tests).
# TLS_HOSTS names other hosts instead of compose's two, comma-separated (docs/operations.md#containers gives the
# Kubernetes pods').
set -eu

: "${AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD:?set it first: the password of the keystore, which compose passes to the instances}"
TLS_DIR="${TLS_DIR:-$(dirname "$0")/tls}"
TLS_HOSTS="${TLS_HOSTS:-agent-outcomes-1,agent-outcomes-2}"

san=""
for host in $(echo "$TLS_HOSTS" | tr ',' ' '); do
    san="${san}dns:${host},"
done
san="${san}dns:localhost,ip:127.0.0.1"

mkdir -p "$TLS_DIR"
rm -f "$TLS_DIR/http.p12" "$TLS_DIR/http.crt"
keytool -genkeypair -alias agent-outcomes -keyalg EC -groupname secp256r1 -validity 825 -dname CN=agent-outcomes \
    -ext "SAN=$san" \
    -storetype PKCS12 -keystore "$TLS_DIR/http.p12" -storepass:env AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD
keytool -exportcert -rfc -alias agent-outcomes -keystore "$TLS_DIR/http.p12" \
    -storepass:env AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD -file "$TLS_DIR/http.crt"
# The instances run as user 10001 and Prometheus as its own: both read the files; the keystore is password-protected.
chmod 644 "$TLS_DIR/http.p12" "$TLS_DIR/http.crt"
echo "Wrote $TLS_DIR/http.p12 and $TLS_DIR/http.crt"
