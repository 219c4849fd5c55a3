#!/usr/bin/env bash
# test.sh runs the whole suite: every module of the workspace, with the flags given (make test passes
# -race -count=1 -timeout ...). Tests use the project-local Postgres (scripts/pg.sh) and in-process NATS.
set -Eeuo pipefail
MNEME_LOG_TAG=test
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$MNEME_ROOT"

export MNEME_TEST_DATABASE_URL="${MNEME_TEST_DATABASE_URL:-$(bash scripts/pg.sh url)}"
modules=(./schemas ./pkg ./services/ingest ./services/extractor ./services/embedder ./services/reconciler ./services/query . ./bench ./deploy)
flags=("$@")
[ ${#flags[@]} -gt 0 ] || flags=(-race -count=1)
# Tests write what a person should look at afterwards (the timeline page's screenshots) to t.ArtifactDir(),
# which go test deletes unless -artifacts is given. Keep them under .local/test-artifacts (git-ignored), in
# go test's _artifacts/ tree (go1.26 names each test's directory by a number only; the tests log the paths
# they write); each suite starts from an empty directory, so what is there is the last run's. A caller's
# own -outputdir wins (and then -artifacts is theirs to give).
artifacts="$MNEME_ROOT/.local/test-artifacts"
if [[ " ${flags[*]} " != *" -outputdir"* && " ${flags[*]} " != *" --outputdir"* ]]; then
  rm -rf "$artifacts"
  mkdir -p "$artifacts"
  flags+=(-artifacts -outputdir "$artifacts")
fi

# Build first so a compile error is reported once, clearly, before any test runs.
for m in "${modules[@]}"; do
  (cd "$m" && go vet ./...) || die "go vet failed in $m"
done

failed=()
start=$SECONDS
for m in "${modules[@]}"; do
  log "go test ${flags[*]} in $m"
  if ! (cd "$m" && go test "${flags[@]}" ./...); then
    failed+=("$m")
  fi
done
# The arm64 (NEON) kernel of the local embedder has no other check on a machine of another architecture:
# cross-compile the embedding package's tests for arm64 and run its kernel tests and the reference parity
# vectors under qemu user-mode emulation (Debian's qemu-user-static, installed by scripts/deps.sh). Emulation
# checks correctness only; it says nothing about speed. Without an emulator the step is skipped with a
# message, unless MNEME_REQUIRE_EMULATION=1 (default: the value of MNEME_REQUIRE_MODEL, which make test
# sets), when it fails.
arm64_emulated() {
  local require="${MNEME_REQUIRE_EMULATION:-${MNEME_REQUIRE_MODEL:-}}"
  case "$(uname -m)" in
    aarch64 | arm64)
      log "arm64 host: the regular run above already tested the NEON kernel natively"
      return 0
      ;;
  esac
  local emu=""
  if command -v qemu-aarch64-static >/dev/null 2>&1; then
    emu="$(command -v qemu-aarch64-static)"
  elif command -v qemu-aarch64 >/dev/null 2>&1; then
    emu="$(command -v qemu-aarch64)"
  fi
  if [ -z "$emu" ]; then
    if [ "$require" = 1 ]; then
      log "no qemu-aarch64-static (or qemu-aarch64) on PATH: run scripts/deps.sh (make deps) to install qemu-user-static,"
      log "or set MNEME_REQUIRE_EMULATION=0 to skip the emulated arm64 tests"
      return 1
    fi
    log "SKIP arm64 embedding tests under emulation: qemu-aarch64-static not found (install qemu-user-static; make deps does)"
    return 0
  fi
  local tmp rc=0
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/mneme-arm64.XXXXXX")"
  log "arm64: go vet and go test -c for GOARCH=arm64 in ./pkg/embedding/uselite, run under $(basename "$emu")"
  if ! (cd pkg && GOOS=linux GOARCH=arm64 go vet ./embedding/uselite/... &&
    GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go test -c -o "$tmp/uselite.arm64.test" ./embedding/uselite); then
    rm -rf "$tmp"
    return 1
  fi
  # The kernel tests, the tokenizer, and the parity vectors: every text for the NEON kernel, batched and
  # one per call; the short texts for the portable kernel (-test.short; the same Go code is checked on every
  # text natively, and TestGemmKernelsAgree checks its arm64 build on every shape). The naive baseline is
  # left out: architecture-independent Go, and slow under emulation. About a minute on 2 quiet cores.
  local run='^(TestKernelsMatchCPU|TestWithKernel|TestLoadWithKernel|TestGemmKernelsAgree|TestKernelHelpers|TestTokenizerMatchesReference|TestParityWithReference)$/^(neon|generic)$'
  (cd pkg/embedding/uselite && "$emu" "$tmp/uselite.arm64.test" -test.run "$run" -test.short -test.count=1 -test.timeout=15m) || rc=1
  rm -rf "$tmp"
  return $rc
}
arm64_start=$SECONDS
if arm64_emulated; then
  log "arm64 emulated tests took $((SECONDS - arm64_start))s"
else
  failed+=("./pkg/embedding/uselite (GOARCH=arm64 under emulation)")
fi

log "suite took $((SECONDS - start))s"
if [ -d "$artifacts/_artifacts" ]; then
  log "test artifacts (screenshots) kept under $artifacts/_artifacts"
fi
if [ ${#failed[@]} -gt 0 ]; then
  die "tests failed in: ${failed[*]}"
fi
log "all modules passed"
