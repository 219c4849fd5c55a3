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
log "suite took $((SECONDS - start))s"
if [ ${#failed[@]} -gt 0 ]; then
  die "tests failed in: ${failed[*]}"
fi
log "all modules passed"
