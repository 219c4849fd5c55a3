#!/usr/bin/env bash
# deps.sh makes a Debian 12 / Ubuntu machine ready to build, test and demo Mneme:
# PostgreSQL server binaries, pgvector for that server, Node.js+npm (used only to fetch the embedding model),
# qemu-user-static (scripts/test.sh runs the embedder's arm64 tests under emulation on other machines) and the
# model itself (scripts/fetch-model.sh).
#
# It checks before it installs, so a second run only looks and returns in seconds. It runs as root or as a
# user with sudo, never prompts (CI has no stdin), and stops at the first failure with a message.
#
# Environment:
#   MNEME_PG_MAJOR        PostgreSQL major version to use or install (default: newest installed, else 15 when the
#                         archive has it, else the distribution's default)
#   MNEME_DEBIAN_MIRROR   Debian archive URI to fetch the pgvector source package from when no binary package exists
#                         (default: the URI of this machine's Debian entry in its apt sources)
#   MNEME_PGVECTOR_SUITE  Debian suite whose pgvector source package is built (default: trixie)
#   MNEME_SKIP_MODEL=1    do not fetch the embedding model
set -Eeuo pipefail

MNEME_LOG_TAG=deps
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export DEBIAN_FRONTEND=noninteractive

trap 'die "failed at line $LINENO (exit $?): see the output above"' ERR

apt_updated=0

# apt_update refreshes the package lists once per run, and only when something has to be installed.
apt_update() {
  [ "$apt_updated" -eq 1 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: this script supports Debian and Ubuntu; install the missing pieces by hand"
  log "refreshing apt package lists"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null >/dev/null ||
    die "apt-get update failed; check the machine's apt sources and network"
  apt_updated=1
}

# apt_install installs packages without prompts, keeping existing configuration files.
apt_install() {
  apt_update
  log "installing $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@" </dev/null >/dev/null ||
    die "apt-get install $* failed"
}

# has_candidate reports whether the configured archives offer a binary package.
has_candidate() {
  apt_update
  local c
  c="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2; exit}')"
  [ -n "$c" ] && [ "$c" != "(none)" ]
}

# debian_mirror prints "URI<TAB>SIGNED-BY" of this machine's Debian archive entry for its own release, read from
# the apt sources (deb822 .sources and one-line .list files). Fails when none is found.
debian_mirror() {
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -r "$keyring" ] || keyring=""
  if [ -n "${MNEME_DEBIAN_MIRROR:-}" ]; then
    printf '%s\t%s\n' "$MNEME_DEBIAN_MIRROR" "$keyring"
    return 0
  fi
  local id="" codename=""
  # shellcheck disable=SC1091
  id="$(. /etc/os-release && printf '%s' "${ID:-}")"
  # shellcheck disable=SC1091
  codename="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")"
  [ "$id" = debian ] && [ -n "$codename" ] || return 1
  local found=""
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    found="$(awk -v suite="$codename" -v dflt="$keyring" '
      BEGIN { RS = ""; FS = "\n" }
      {
        types = ""; uris = ""; suites = ""; signed = ""; enabled = "yes"
        for (i = 1; i <= NF; i++) {
          line = $i
          if (line ~ /^[ \t]*#/) continue
          k = line; sub(/:.*/, "", k); v = line; sub(/^[^:]*:[ \t]*/, "", v)
          k = tolower(k)
          if (k == "types") types = v
          else if (k == "uris") uris = v
          else if (k == "suites") suites = v
          else if (k == "signed-by") signed = v
          else if (k == "enabled") enabled = tolower(v)
        }
        if (enabled == "no" || (" " types " ") !~ / deb /) next
        n = split(suites, s, /[ \t]+/)
        for (j = 1; j <= n; j++) if (s[j] == suite) {
          split(uris, u, /[ \t]+/)
          if (signed !~ /^\//) signed = dflt
          printf "%s\t%s\n", u[1], signed
          exit
        }
      }' "$f")"
    [ -n "$found" ] && break
  done
  if [ -z "$found" ]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -r "$f" ] || continue
      found="$(awk -v suite="$codename" -v dflt="$keyring" '
        $1 == "deb" {
          i = 2; signed = dflt
          if ($i ~ /^\[/) {
            while (i <= NF) {
              if ($i ~ /^\[?signed-by=/) { signed = $i; sub(/^\[?signed-by=/, "", signed); sub(/\]$/, "", signed) }
              if ($i ~ /\]$/) { i++; break }
              i++
            }
          }
          if ($(i + 1) == suite) { printf "%s\t%s\n", $i, signed; exit }
        }' "$f")"
      [ -n "$found" ] && break
    done
  fi
  [ -n "$found" ] || return 1
  printf '%s\n' "$found"
}

# build_pgvector builds Debian's pgvector source package against the local server's headers and installs it.
# The source index is fetched into a private apt state directory, so the machine's apt sources and package lists
# are never changed and no binary package can be upgraded from the newer suite.
build_pgvector() {
  local major="$1" pgconfig="/usr/lib/postgresql/$1/bin/pg_config"
  local suite="${MNEME_PGVECTOR_SUITE:-trixie}"
  local mirror uri keyring
  mirror="$(debian_mirror)" || die "no binary package postgresql-$major-pgvector and no Debian archive entry in the apt sources
  to fetch pgvector's source from; set MNEME_DEBIAN_MIRROR to a Debian archive URI and run again"
  uri="${mirror%%$'\t'*}"
  keyring="${mirror#*$'\t'}"

  local need=()
  # The server's pg_config ships with the server package; the headers and PGXS come with the -dev package.
  if [ ! -x "$pgconfig" ] || [ ! -f "$("$pgconfig" --includedir-server)/postgres.h" ] || [ ! -f "$("$pgconfig" --pgxs)" ]; then
    need+=("postgresql-server-dev-$major")
  fi
  command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 || need+=(build-essential)
  command -v dpkg-source >/dev/null 2>&1 || need+=(dpkg-dev)
  [ "${#need[@]}" -eq 0 ] || apt_install "${need[@]}"
  [ -f "$("$pgconfig" --includedir-server)/postgres.h" ] || die "server headers missing after installing postgresql-server-dev-$major"

  local tmp
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/mneme-pgvector.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT
  mkdir -p "$tmp/apt/sources.list.d" "$tmp/apt/lists/partial" "$tmp/apt/cache/archives/partial" "$tmp/src"
  : >"$tmp/apt/sources.list"
  {
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n' "$uri" "$suite"
    [ -n "$keyring" ] && printf 'Signed-By: %s\n' "$keyring"
  } >"$tmp/apt/sources.list.d/mneme-pgvector-src.sources"
  local aptopts=(
    -o "Dir::Etc::SourceList=$tmp/apt/sources.list"
    -o "Dir::Etc::SourceParts=$tmp/apt/sources.list.d"
    -o "Dir::State::Lists=$tmp/apt/lists"
    -o "Dir::Cache=$tmp/apt/cache"
    -o "Dir::Cache::Archives=$tmp/apt/cache/archives"
    -o "APT::Sandbox::User=$(id -un)"
  )
  log "fetching the pgvector source package from $suite (source index only; no binaries from $suite)"
  apt-get "${aptopts[@]}" -q update </dev/null >"$tmp/apt-update.log" 2>&1 ||
    { cat "$tmp/apt-update.log" >&2; die "could not read the $suite source index from $uri"; }
  (cd "$tmp/src" && apt-get "${aptopts[@]}" -q source pgvector </dev/null >"$tmp/apt-source.log" 2>&1) ||
    { cat "$tmp/apt-source.log" >&2; die "apt-get source pgvector failed"; }
  local dir
  dir="$(find "$tmp/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)"
  [ -n "$dir" ] || die "apt-get source pgvector produced no source directory"
  log "building ${dir##*/} against PostgreSQL $major"
  # with_llvm=no: skip JIT bitcode, which needs clang and gains nothing for these functions.
  make -C "$dir" -j"$(nproc)" PG_CONFIG="$pgconfig" with_llvm=no >"$tmp/build.log" 2>&1 ||
    { tail -n 40 "$tmp/build.log" >&2; die "building pgvector failed"; }
  as_root make -C "$dir" install PG_CONFIG="$pgconfig" with_llvm=no >"$tmp/install.log" 2>&1 ||
    { tail -n 40 "$tmp/install.log" >&2; die "installing pgvector failed"; }
  rm -rf "$tmp"
  trap - EXIT
}

start_ns=$(date +%s%N)

# --- PostgreSQL server -------------------------------------------------------------------------------------------
major="$(pg_major)"
if [ -z "$major" ] || [ ! -x "/usr/lib/postgresql/$major/bin/postgres" ]; then
  want="${MNEME_PG_MAJOR:-15}"
  if has_candidate "postgresql-$want"; then
    apt_install "postgresql-$want"
  elif [ -z "${MNEME_PG_MAJOR:-}" ]; then
    apt_install postgresql
  else
    die "PostgreSQL $want is not installed and the archive has no postgresql-$want package"
  fi
  major="$(pg_major)"
  [ -n "$major" ] && [ -x "/usr/lib/postgresql/$major/bin/postgres" ] || die "PostgreSQL server binaries missing after install"
fi
log "PostgreSQL $major present ($("/usr/lib/postgresql/$major/bin/postgres" --version | awk '{print $3}'))"

# --- pgvector -----------------------------------------------------------------------------------------------------
# The extension directory is <sharedir>/extension; Debian's layout is fixed, so no pg_config is needed to look.
control="/usr/share/postgresql/$major/extension/vector.control"
if [ ! -f "$control" ]; then
  if has_candidate "postgresql-$major-pgvector"; then
    apt_install "postgresql-$major-pgvector"
  else
    log "no binary package postgresql-$major-pgvector; building pgvector from Debian's source package"
    build_pgvector "$major"
  fi
  [ -f "$control" ] || die "pgvector installed but $control is missing"
fi
log "pgvector $(sed -n "s/^default_version *= *'\(.*\)'.*/\1/p" "$control") present"

# --- small tools the other scripts use ------------------------------------------------------------------------
tools=()
command -v curl >/dev/null 2>&1 || tools+=(curl)
[ -r /etc/ssl/certs/ca-certificates.crt ] || tools+=(ca-certificates)
command -v node >/dev/null 2>&1 || tools+=(nodejs)
command -v npm >/dev/null 2>&1 || tools+=(npm)
# qemu user-mode emulation runs the embedder's arm64 (NEON) tests on a machine of another architecture.
case "$(uname -m)" in
  aarch64 | arm64) ;;
  *) command -v qemu-aarch64-static >/dev/null 2>&1 || tools+=(qemu-user-static) ;;
esac
[ "${#tools[@]}" -eq 0 ] || apt_install "${tools[@]}"
log "node $(node --version) and npm $(npm --version 2>/dev/null) present"

# --- headless browser for the timeline page test ------------------------------------------------------------------
# The page test (internal/e2e) drives Debian's chromium through the DevTools protocol; Ubuntu ships it only as
# a snap, so there the test finds whatever chromium or google-chrome is on PATH.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then
  if has_candidate chromium; then
    apt_install chromium
  else
    log "no chromium package in the archive: the page test will fail under make test until a chromium is on PATH"
  fi
fi
command -v chromium >/dev/null 2>&1 && log "$(chromium --version 2>/dev/null | head -n1) present"

# --- WordNet's nouns for the rule extractor (pkg/wordnet) ----------------------------------------------------------
if [ ! -f /usr/share/wordnet/data.noun ]; then
  if has_candidate wordnet-base; then
    apt_install wordnet-base
  else
    log "no wordnet-base package in the archive: the rule extractor will run without kinds of things, and make test fails"
  fi
fi
[ -f /usr/share/wordnet/data.noun ] && log "WordNet nouns present in /usr/share/wordnet"

# Go is not installed from the archive: the distributions' Go is older than go.mod requires.
if command -v go >/dev/null 2>&1; then
  log "$(go version | awk '{print $3}') present"
else
  die "Go not found on PATH: install Go 1.26 or newer (https://go.dev/dl/) and run again"
fi

# --- embedding model ----------------------------------------------------------------------------------------------
if [ "${MNEME_SKIP_MODEL:-}" = 1 ]; then
  log "model fetch skipped (MNEME_SKIP_MODEL=1)"
elif [ -f "$MNEME_ROOT/scripts/fetch-model.sh" ]; then
  (cd "$MNEME_ROOT" && bash scripts/fetch-model.sh) || die "scripts/fetch-model.sh failed"
else
  log "scripts/fetch-model.sh not found; model not fetched"
fi

elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
log "ready in $((elapsed_ms / 1000)).$(printf %03d $((elapsed_ms % 1000)))s"
