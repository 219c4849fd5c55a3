#!/usr/bin/env bash
# stack.sh starts and stops the local Mneme process (all services + embedded NATS) that `make up` runs.
#   scripts/stack.sh up     start bin/mneme in the background unless it already runs; wait for /readyz
#   scripts/stack.sh down   stop exactly the process `up` started (by its pid file)
# Environment: MNEME_HTTP_ADDR (default 127.0.0.1:8080), MNEME_READY_TIMEOUT seconds (default 120).
set -Eeuo pipefail
MNEME_LOG_TAG=stack
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cd "$MNEME_ROOT"
PIDFILE=.local/mneme.pid
LOGFILE=.local/mneme.log
ADDR="${MNEME_HTTP_ADDR:-127.0.0.1:8080}"
TIMEOUT="${MNEME_READY_TIMEOUT:-120}"
mkdir -p .local

running() {
  [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null
}

ready() {
  curl -fsS --max-time 2 "http://$ADDR/readyz" >/dev/null 2>&1
}

case "${1:-}" in
  up)
    if running && ready; then
      log "mneme already running (pid $(cat "$PIDFILE")) at http://$ADDR"
      exit 0
    fi
    if running; then
      log "mneme (pid $(cat "$PIDFILE")) is not ready; restarting it"
      "$0" down
    fi
    [ -x bin/mneme ] || die "bin/mneme is missing: run make build"
    export MNEME_DATABASE_URL="${MNEME_DATABASE_URL:-$(bash scripts/pg.sh url)}"
    export MNEME_HTTP_ADDR="$ADDR"
    export MNEME_NATS_STORE_DIR="${MNEME_NATS_STORE_DIR:-$MNEME_ROOT/.local/nats}"
    setsid nohup bin/mneme run -target=all >>"$LOGFILE" 2>&1 </dev/null &
    echo $! >"$PIDFILE"
    log "started mneme (pid $!), log in $LOGFILE; waiting for http://$ADDR/readyz"
    deadline=$((SECONDS + TIMEOUT))
    until ready; do
      if ! running; then
        tail -n 30 "$LOGFILE" >&2 || true
        rm -f "$PIDFILE"
        die "mneme exited during start-up (log above)"
      fi
      if [ $SECONDS -ge $deadline ]; then
        tail -n 30 "$LOGFILE" >&2 || true
        die "mneme was not ready within ${TIMEOUT}s (log above)"
      fi
      sleep 0.5
    done
    log "mneme ready at http://$ADDR (NATS at nats://127.0.0.1:4222)"
    ;;
  down)
    if ! running; then
      rm -f "$PIDFILE"
      log "mneme is not running"
      exit 0
    fi
    pid="$(cat "$PIDFILE")"
    kill -TERM "$pid"
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "mneme (pid $pid) did not stop within 20s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$PIDFILE"
    log "mneme stopped"
    ;;
  *)
    echo "usage: $0 {up|down}" >&2
    exit 2
    ;;
esac
