module github.com/mneme-ai/mneme/services/extractor

go 1.26.0

require github.com/mneme-ai/mneme/pkg v0.0.0-00010101000000-000000000000

require (
	github.com/cenkalti/backoff/v4 v4.3.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	go.opentelemetry.io/otel v1.47.0 // indirect
	go.opentelemetry.io/otel/metric v1.47.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace (
	github.com/mneme-ai/mneme/pkg => ../../pkg
	github.com/mneme-ai/mneme/schemas => ../../schemas
)
