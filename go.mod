module github.com/mneme-ai/mneme

go 1.26.0

require (
	github.com/mneme-ai/mneme/pkg v0.0.0-00010101000000-000000000000
	github.com/mneme-ai/mneme/schemas v0.0.0-00010101000000-000000000000
	github.com/mneme-ai/mneme/services/embedder v0.0.0-00010101000000-000000000000
	github.com/mneme-ai/mneme/services/extractor v0.0.0-00010101000000-000000000000
	github.com/mneme-ai/mneme/services/ingest v0.0.0-00010101000000-000000000000
	github.com/mneme-ai/mneme/services/query v0.0.0-00010101000000-000000000000
	github.com/mneme-ai/mneme/services/reconciler v0.0.0-00010101000000-000000000000
)

replace (
	github.com/mneme-ai/mneme/pkg => ./pkg
	github.com/mneme-ai/mneme/schemas => ./schemas
	github.com/mneme-ai/mneme/services/embedder => ./services/embedder
	github.com/mneme-ai/mneme/services/extractor => ./services/extractor
	github.com/mneme-ai/mneme/services/ingest => ./services/ingest
	github.com/mneme-ai/mneme/services/query => ./services/query
	github.com/mneme-ai/mneme/services/reconciler => ./services/reconciler
)
