#!/usr/bin/env bash
# lint.sh: gofmt, go vet, staticcheck and a go mod tidy check in every module, and the service modules' import
# boundaries (see docs/architecture.md, "Modules"); fails on any finding.
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
# Import boundaries, checked on what each service module links (go list -deps). No service links another service
# module, tests included (the whole pipeline is assembled in the root module: internal/app, internal/e2e). The
# embedder and the extractor touch neither Postgres nor a NATS server, so their production code must not link pgx
# or nats-server (their tests may start an in-process server).
svc_module=github.com/mneme-ai/mneme/services
for svc in ingest extractor embedder reconciler query; do
  deps="$(cd "./services/$svc" && go list -deps ./...)" || { status=1; continue; }
  testdeps="$(cd "./services/$svc" && go list -deps -test ./...)" || { status=1; continue; }
  others="$(printf '%s\n' "$testdeps" | sed 's/ .*//' | grep "^$svc_module/" | grep -v "^$svc_module/$svc\(/\|$\|[ ._]\)" | sort -u || true)"
  if [ -n "$others" ]; then
    log "services/$svc links other service modules (a service may import pkg and schemas only; tests that need several services belong in internal/e2e):"
    printf '  %s\n' $others >&2; status=1
  fi
  case "$svc" in
  embedder|extractor)
    banned="$(printf '%s\n' "$deps" | grep -E '^github\.com/(jackc/pgx|nats-io/nats-server)' | sort -u || true)"
    if [ -n "$banned" ]; then
      log "services/$svc links Postgres or NATS server packages, which it must not use (find the importer with: cd services/$svc && go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./...):"
      printf '  %s\n' $banned >&2; status=1
    fi
    ;;
  esac
done
exit $status
