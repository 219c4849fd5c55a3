package configdoc

import (
	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/services/embedder"
	"github.com/mneme-ai/mneme/services/extractor"
	"github.com/mneme-ai/mneme/services/ingest"
	"github.com/mneme-ai/mneme/services/query"
	"github.com/mneme-ai/mneme/services/reconciler"
)

// Sections lists every configuration type Mneme reads, in the order the document shows them.
func Sections() []Section {
	return []Section{
		{"Shared (every service)", config.Common{}},
		{"Process (mneme run)", app.Config{}},
		{"ingest", ingest.Config{}},
		{"extractor", extractor.Config{}},
		{"embedder", embedder.Config{}},
		{"reconciler", reconciler.Config{}},
		{"query", query.Config{}},
	}
}
