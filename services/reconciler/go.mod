module github.com/mneme-ai/mneme/services/reconciler

go 1.26.0

require (
	github.com/mneme-ai/mneme/pkg v0.0.0-00010101000000-000000000000
	github.com/mneme-ai/mneme/schemas v0.0.0-00010101000000-000000000000
)

replace (
	github.com/mneme-ai/mneme/pkg => ../../pkg
	github.com/mneme-ai/mneme/schemas => ../../schemas
)
