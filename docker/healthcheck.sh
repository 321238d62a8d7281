#!/bin/sh
# The image's health check (HEALTHCHECK, and compose's with an argument): GET a health path, /health/live unless
# another is given (compose asks /health/ready), on this container's own HTTP port (AGENT_OUTCOMES_HTTP_PORT, else
# 8080). Health needs no credentials. The service speaks HTTPS when it listens beyond loopback, as the image does,
# unless http.tls.enabled=false: HTTPS is tried first, then plain HTTP. The certificate names the hosts the instances
# are reached at, not 127.0.0.1, and this request carries nothing secret, so it is not verified (-k). Exit 0: healthy.
set -eu

path="${1:-/health/live}"
port="${AGENT_OUTCOMES_HTTP_PORT:-8080}"

curl -fsk -o /dev/null --max-time 5 "https://127.0.0.1:${port}${path}" 2>/dev/null \
    || exec curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:${port}${path}"
