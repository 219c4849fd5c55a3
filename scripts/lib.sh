# shellcheck shell=bash
# Shared helpers for scripts/*.sh. Source it; it defines functions and variables only.

# MNEME_ROOT is the repository root: the parent of the directory holding this file.
MNEME_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"

# log prints one progress line prefixed with the calling script's tag (set MNEME_LOG_TAG).
log() { printf '%s: %s\n' "${MNEME_LOG_TAG:-mneme}" "$*" >&2; }

# die prints an error line and exits non-zero.
die() { printf '%s: ERROR: %s\n' "${MNEME_LOG_TAG:-mneme}" "$*" >&2; exit 1; }

# as_root runs a command as root: directly when we are root, through sudo otherwise.
# sudo may ask for a password only when stdin is a terminal; under CI (no stdin) it must not prompt.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    if [ -t 0 ]; then
      sudo -- "$@"
    else
      sudo -n -- "$@" || die "sudo needs a password but there is no terminal; run as root or configure passwordless sudo"
    fi
  else
    die "need root to run '$*' but not root and sudo is not installed; run this script as root"
  fi
}

# pg_major prints the major version of the newest PostgreSQL server installed under /usr/lib/postgresql,
# or MNEME_PG_MAJOR when set. Prints nothing when no server is installed.
pg_major() {
  if [ -n "${MNEME_PG_MAJOR:-}" ]; then
    printf '%s\n' "$MNEME_PG_MAJOR"
    return
  fi
  local d best=""
  for d in /usr/lib/postgresql/*/bin/postgres; do
    [ -x "$d" ] || continue
    d="${d#/usr/lib/postgresql/}"
    d="${d%%/*}"
    if [ -z "$best" ] || [ "$d" -gt "$best" ]; then best="$d"; fi
  done
  [ -n "$best" ] && printf '%s\n' "$best"
  return 0
}

# pg_bindir prints the bin directory of the server chosen by pg_major (empty when none).
pg_bindir() {
  local major
  major="$(pg_major)"
  [ -n "$major" ] && printf '/usr/lib/postgresql/%s/bin\n' "$major"
  return 0
}

# short_hash prints a 12-hex-digit digest of its argument (used to name per-checkout directories).
short_hash() { printf '%s' "$1" | sha256sum | cut -c1-12; }
