#!/usr/bin/env bash
# lint.sh: gofmt, go vet, staticcheck and a go mod tidy check in every module; fails on any finding.
set -Eeuo pipefail
MNEME_LOG_TAG=lint
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$MNEME_ROOT"
STATICCHECK="honnef.co/go/tools/cmd/staticcheck@v0.8.2"
modules=(./schemas ./pkg ./services/ingest ./services/extractor ./services/embedder ./services/reconciler ./services/query . ./bench ./deploy)
status=0
unformatted="$(gofmt -l $(git ls-files '*.go'))"
if [ -n "$unformatted" ]; then
  log "gofmt needed:"; printf '  %s\n' $unformatted >&2; status=1
fi
for m in "${modules[@]}"; do
  (cd "$m" && go vet ./...) || status=1
  (cd "$m" && go run "$STATICCHECK" ./...) || status=1
  (cd "$m" && go mod tidy -diff) || { log "go mod tidy would change $m"; status=1; }
done
exit $status
