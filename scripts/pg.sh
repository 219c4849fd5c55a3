#!/usr/bin/env bash
# pg.sh manages a project-local PostgreSQL cluster for development, tests and the demo.
#
#   scripts/pg.sh start    create the cluster when missing, start it, wait until it accepts connections (idempotent)
#   scripts/pg.sh stop     stop this cluster only (idempotent)
#   scripts/pg.sh restart  stop and start, e.g. to apply a new memory size (drops open connections)
#   scripts/pg.sh status   print state, URL and directories; exit 0 when running, 3 when not
#   scripts/pg.sh url      print the connection URL of database mneme
#   scripts/pg.sh psql ... run psql against database mneme (extra arguments go to psql)
#   scripts/pg.sh reset    stop the cluster and delete its data
#
# The cluster lives in <repo>/.local/pg (git-ignored), listens on 127.0.0.1:$MNEME_PG_PORT (default 54329) and on a
# unix socket inside that directory, and trusts local connections; role and database are both "mneme".
# initdb refuses to run as root, so as root the cluster belongs to the postgres user (runuser). When the postgres
# user cannot reach the checkout (e.g. a repo under /root), the data lives in /var/tmp/mneme-pg-<hash of repo path>
# and <repo>/.local/pg is a symlink to it.
#
# Memory settings follow the machine (see write_conf): shared buffers are a quarter of its memory, because the
# buffer pool is the only cache that holds a large HNSW index reliably (the kernel may reclaim cold page cache;
# on the development VMs it pages out what was not touched for half a minute). `start` on a running cluster
# applies what it can by reload and says when a restart is needed.
#
# Environment: MNEME_PG_PORT (default 54329), MNEME_PG_MAJOR (default: newest installed server),
#              MNEME_PG_START_TIMEOUT seconds (default 60),
#              MNEME_PG_MEMORY_MB memory to size the cluster for (default: the machine's, or its cgroup limit).
set -Eeuo pipefail

MNEME_LOG_TAG=pg
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

trap 'die "failed at line $LINENO (exit $?): see the output above"' ERR

PORT="${MNEME_PG_PORT:-54329}"
case "$PORT" in '' | *[!0-9]*) die "MNEME_PG_PORT must be a port number, got '$PORT'" ;; esac
case "${MNEME_PG_MEMORY_MB:-}" in *[!0-9]*) die "MNEME_PG_MEMORY_MB must be a number of MiB, got '$MNEME_PG_MEMORY_MB'" ;; esac
URL="postgres://mneme@127.0.0.1:${PORT}/mneme?sslmode=disable"
LINK="$MNEME_ROOT/.local/pg"
FALLBACK="/var/tmp/mneme-pg-$(short_hash "$MNEME_ROOT")"
START_TIMEOUT="${MNEME_PG_START_TIMEOUT:-60}"

BINDIR="$(pg_bindir)"

need_server() {
  [ -n "$BINDIR" ] && [ -x "$BINDIR/postgres" ] || die "no PostgreSQL server under /usr/lib/postgresql; run scripts/deps.sh first"
}

# base_dir prints the cluster's base directory: the target of .local/pg when it is a symlink, else .local/pg.
base_dir() {
  if [ -L "$LINK" ]; then
    readlink -f "$LINK"
  else
    printf '%s\n' "$LINK"
  fi
}

BASE="$(base_dir)"
DATA="$BASE/data"
LOGFILE="$BASE/postgres.log"

# The unix socket path must fit in sun_path (107 bytes); a deep checkout gets a short per-checkout dir in /tmp.
SOCKDIR="$BASE/run"
if [ $((${#SOCKDIR} + 16)) -gt 100 ]; then
  SOCKDIR="/tmp/mneme-pg-$(short_hash "$MNEME_ROOT")"
fi

# owner prints the user that runs this cluster's server processes.
owner() {
  if [ -e "$DATA/PG_VERSION" ]; then
    stat -c %U "$DATA"
  elif [ "$(id -u)" -eq 0 ]; then
    printf 'postgres\n'
  else
    id -un
  fi
}

# as_owner runs a command as the cluster owner from a directory the owner can enter. It closes fd 9 (the start
# lock) so the postmaster does not inherit the lock and hold it for its whole life.
as_owner() {
  local who
  who="$(owner)"
  if [ "$who" = "$(id -un)" ]; then
    (cd "$BASE" && "$@" 9>&-)
  elif [ "$(id -u)" -eq 0 ]; then
    (cd "$BASE" && runuser -u "$who" -- "$@" 9>&-)
  else
    die "the cluster in $DATA belongs to '$who'; run as '$who' or root, or run 'scripts/pg.sh reset' as root"
  fi
}

running() {
  [ -n "$BINDIR" ] && [ -f "$DATA/PG_VERSION" ] && [ -f "$DATA/postmaster.pid" ] &&
    as_owner "$BINDIR/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

# prepare_base creates the base directory so that the cluster owner can write to it, choosing the /var/tmp
# fallback when the owner cannot reach the checkout.
prepare_base() {
  if [ -e "$BASE" ]; then
    return 0
  fi
  if [ ! -d "$MNEME_ROOT/.local" ]; then
    mkdir -p "$MNEME_ROOT/.local"
    # Root working in someone else's checkout: leave .local to the checkout's owner for the other tools.
    [ "$(id -u)" -ne 0 ] || chown "$(stat -c %u:%g "$MNEME_ROOT")" "$MNEME_ROOT/.local"
  fi
  if [ "$(id -u)" -ne 0 ]; then
    mkdir -p "$BASE"
    return 0
  fi
  getent passwd postgres >/dev/null || die "running as root needs the 'postgres' user (created by the postgresql packages); run scripts/deps.sh"
  mkdir -p "$BASE"
  chown postgres: "$BASE"
  chmod 0755 "$BASE"
  if ! runuser -u postgres -- test -w "$BASE" -a -x "$BASE"; then
    rmdir "$BASE"
    log "user postgres cannot reach $MNEME_ROOT; keeping the cluster in $FALLBACK (linked from .local/pg)"
    mkdir -p "$FALLBACK"
    chown postgres: "$FALLBACK"
    chmod 0755 "$FALLBACK"
    ln -sfn "$FALLBACK" "$LINK"
    BASE="$FALLBACK"
    DATA="$BASE/data"
    LOGFILE="$BASE/postgres.log"
    SOCKDIR="$BASE/run"
  fi
}

# initialize runs initdb with role mneme as bootstrap superuser and trust authentication on local connections.
initialize() {
  local major
  major="$(basename "$(dirname "$BINDIR")")"
  log "creating PostgreSQL $major cluster in $DATA"
  local locale=C
  if locale -a 2>/dev/null | grep -qix 'c\.utf-\?8'; then locale=C.UTF-8; fi
  as_owner "$BINDIR/initdb" -D "$DATA" -U mneme -E UTF8 --locale="$locale" \
    --auth-local=trust --auth-host=trust >"$BASE/initdb.log" 2>&1 ||
    { cat "$BASE/initdb.log" >&2; die "initdb failed"; }
  # Only loopback and the socket: the cluster trusts every local user and must not be reachable from elsewhere.
  as_owner sh -c "cat >'$DATA/pg_hba.conf'" <<'EOF'
# Written by scripts/pg.sh: trust on the unix socket and loopback only (listen_addresses is 127.0.0.1).
local all all trust
host  all all 127.0.0.1/32 trust
host  all all ::1/128 trust
EOF
  printf "\ninclude_if_exists = 'mneme.conf'\n" | as_owner sh -c "cat >>'$DATA/postgresql.conf'"
}

# memory_mb prints the memory, in MiB, the cluster sizes itself for: MNEME_PG_MEMORY_MB when set, else the
# machine's memory or the cgroup's limit when that is lower (1024 when neither can be read).
memory_mb() {
  if [ -n "${MNEME_PG_MEMORY_MB:-}" ]; then
    printf '%s\n' "$MNEME_PG_MEMORY_MB"
    return
  fi
  local mb limit f
  mb="$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo 2>/dev/null || true)"
  for f in /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes; do
    limit="$(cat "$f" 2>/dev/null || true)"
    case "$limit" in '' | *[!0-9]*) continue ;; esac # "max" or unreadable: no limit
    limit=$((limit / 1048576))
    if [ "$limit" -gt 0 ] && { [ -z "$mb" ] || [ "$limit" -lt "$mb" ]; }; then mb="$limit"; fi
  done
  printf '%s\n' "${mb:-1024}"
}

# clamp prints $1 bounded to [$2, $3].
clamp() {
  local v="$1"
  [ "$v" -ge "$2" ] || v="$2"
  [ "$v" -le "$3" ] || v="$3"
  printf '%s\n' "$v"
}

# write_conf (re)writes the settings this script owns, so a changed port or setting applies on the next start.
# Memory: shared_buffers a quarter of memory (256 MB to 8 GB); maintenance_work_mem an eighth (256 MB to 4 GB),
# so an HNSW build keeps its graph in memory (a million 512-d claims needs about 2 GB), with autovacuum held
# to 256 MB per worker; parallel index builds one worker per extra core when /dev/shm can hold the graph.
write_conf() {
  local mem shared maint cache workers shm_mb preload=""
  mem="$(memory_mb)"
  shared="$(clamp $((mem / 4)) 256 8192)"
  maint="$(clamp $((mem / 8)) 256 4096)"
  cache="$(clamp $((mem * 3 / 4)) "$shared" 1048576)"
  workers="$(clamp $(($(nproc 2>/dev/null || echo 1) - 1)) 0 4)"
  # A parallel HNSW build keeps its graph in dynamic shared memory (/dev/shm), which containers often cap at 64 MB.
  shm_mb="$(df -Pm /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }' || true)"
  case "$shm_mb" in '' | *[!0-9]*) shm_mb=0 ;; esac
  [ "$shm_mb" -ge $((maint + 64)) ] || workers=0
  # pg_prewarm's autoprewarm reloads the buffer pool's contents after a restart, so a restart does not leave the
  # HNSW index cold. pg_stat_statements counts each statement's time and buffers, which is how the benchmarks
  # say where a search's Postgres time goes (loadbench); its cost is a hash lookup per statement.
  local libdir lib libs=""
  libdir="$("$BINDIR/pg_config" --pkglibdir 2>/dev/null || echo /nonexistent)"
  for lib in pg_prewarm pg_stat_statements; do
    [ -f "$libdir/$lib.so" ] && libs="${libs:+$libs,}$lib"
  done
  [ -z "$libs" ] || preload="shared_preload_libraries = '$libs'"
  as_owner mkdir -p "$SOCKDIR"
  as_owner sh -c "cat >'$DATA/mneme.conf'" <<EOF
# Written by scripts/pg.sh on every start; edit the script, not this file. Sized for ${mem} MB of memory.
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$SOCKDIR'
max_connections = 200
shared_buffers = ${shared}MB
effective_cache_size = ${cache}MB
maintenance_work_mem = ${maint}MB
autovacuum_work_mem = 256MB
max_parallel_maintenance_workers = $workers
$preload
# Durable (fsync on) because the demo keeps its data; commits do not wait for the WAL flush, which makes
# tests fast and can lose at most the last few hundred milliseconds of commits on a machine crash.
synchronous_commit = off
timezone = 'UTC'
log_timezone = 'UTC'
log_min_messages = warning
log_line_prefix = '%m [%p] %q%u@%d '
EOF
}

# apply_conf rewrites the settings of a running cluster and reloads them. Settings that need a restart
# (shared_buffers, shared_preload_libraries) are named, not applied: a restart drops every open connection.
apply_conf() {
  write_conf
  psql_admin -d postgres -tAc 'SELECT pg_reload_conf()' >/dev/null
  local pending
  pending="$(psql_admin -d postgres -tAc "SELECT string_agg(DISTINCT name, ', ') FROM pg_file_settings
    WHERE sourcefile LIKE '%/mneme.conf' AND NOT applied AND error IS NOT NULL")"
  if [ -n "$pending" ]; then
    log "warning: $pending changed in mneme.conf and take effect only on a restart: run 'scripts/pg.sh restart' (drops open connections)"
  fi
}

wait_ready() {
  local deadline=$(($(date +%s) + START_TIMEOUT))
  until "$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$PORT" -d postgres -U mneme -t 2; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      tail -n 20 "$LOGFILE" >&2 2>/dev/null || true
      die "PostgreSQL did not accept connections on 127.0.0.1:$PORT within ${START_TIMEOUT}s (log: $LOGFILE)"
    fi
    sleep 0.2
  done
}

psql_admin() {
  PGOPTIONS='-c client_min_messages=warning' "$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U mneme "$@"
}

cmd_start() {
  need_server
  prepare_base
  # Serialize concurrent starts (make test and make demo in parallel) on a lock inside the base directory.
  exec 9>>"$BASE/.lock"
  flock -w "$START_TIMEOUT" 9 || die "another scripts/pg.sh holds $BASE/.lock"
  if [ ! -f "$DATA/PG_VERSION" ]; then
    [ ! -e "$DATA" ] || [ -z "$(ls -A "$DATA" 2>/dev/null)" ] || die "$DATA exists but holds no cluster; run 'scripts/pg.sh reset'"
    initialize
  fi
  local have want
  have="$(cat "$DATA/PG_VERSION")"
  want="$(basename "$(dirname "$BINDIR")")"
  [ "$have" = "$want" ] || die "the cluster in $DATA was made by PostgreSQL $have but $want is installed;
  set MNEME_PG_MAJOR=$have, or run 'scripts/pg.sh reset' to start over (deletes the data)"
  if running; then
    local live
    live="$(sed -n 4p "$DATA/postmaster.pid")"
    [ "$live" = "$PORT" ] || die "the cluster is already running on port $live, not $PORT; run 'scripts/pg.sh stop' first"
    wait_ready
    apply_conf
    log "running on 127.0.0.1:$PORT ($DATA)"
  else
    write_conf
    log "starting on 127.0.0.1:$PORT"
    as_owner "$BINDIR/pg_ctl" -D "$DATA" -l "$LOGFILE" -w -t "$START_TIMEOUT" start >/dev/null ||
      { tail -n 20 "$LOGFILE" >&2 2>/dev/null || true; die "pg_ctl start failed (log: $LOGFILE); is port $PORT taken? set MNEME_PG_PORT"; }
    wait_ready
  fi
  if [ "$(psql_admin -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'mneme'")" != 1 ]; then
    psql_admin -d postgres -c 'CREATE DATABASE mneme'
    log "created database mneme"
  fi
  if [ -f "$("$BINDIR/pg_config" --sharedir 2>/dev/null || echo /nonexistent)/extension/vector.control" ]; then
    psql_admin -d mneme -c 'CREATE EXTENSION IF NOT EXISTS vector'
  else
    log "warning: pgvector is not installed for this server; run scripts/deps.sh"
  fi
  log "ready: $URL"
}

cmd_stop() {
  need_server
  if running; then
    as_owner "$BINDIR/pg_ctl" -D "$DATA" -m fast -w -t "$START_TIMEOUT" stop >/dev/null
    log "stopped"
  else
    log "not running"
  fi
}

cmd_status() {
  if [ -n "$BINDIR" ] && running; then
    printf 'running  %s\n' "$URL"
    printf 'pid      %s\n' "$(head -n1 "$DATA/postmaster.pid")"
    printf 'data     %s\n' "$DATA"
    printf 'log      %s\n' "$LOGFILE"
    printf 'socket   %s\n' "$SOCKDIR"
    return 0
  fi
  if [ -f "$DATA/PG_VERSION" ]; then
    printf 'stopped  (data in %s)\n' "$DATA"
  else
    printf 'absent   (scripts/pg.sh start creates it in %s)\n' "$DATA"
  fi
  return 3
}

cmd_reset() {
  if [ -n "$BINDIR" ] && [ -f "$DATA/PG_VERSION" ]; then
    cmd_stop
  fi
  local target
  target="$(base_dir)"
  rm -rf "$target"
  [ ! -L "$LINK" ] || rm -f "$LINK"
  [ "$SOCKDIR" = "$target/run" ] || rm -rf "$SOCKDIR"
  log "deleted $target"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart)
    cmd_stop
    cmd_start
    ;;
  status)
    rc=0
    cmd_status || rc=$?
    exit "$rc"
    ;;
  url) printf '%s\n' "$URL" ;;
  psql)
    shift
    need_server
    exec "$BINDIR/psql" -X -h 127.0.0.1 -p "$PORT" -U mneme -d mneme "$@"
    ;;
  reset) cmd_reset ;;
  *)
    printf 'usage: %s {start|stop|restart|status|url|psql [args]|reset}\n' "$0" >&2
    exit 2
    ;;
esac
