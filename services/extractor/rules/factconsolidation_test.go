package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
)

// factConsolidationPath is MemoryAgentBench's FactConsolidation data, read in place (never copied).
var factConsolidationPath = filepath.Join("..", "..", "..", "..", "shared", "data", "memoryagentbench", "factconsolidation_6k.json")

// TestFactConsolidationLines checks that every numbered fact of the benchmark's context becomes a structured
// claim carrying the line number as sequence. It skips when the data is not present.
func TestFactConsolidationLines(t *testing.T) {
	b, err := os.ReadFile(factConsolidationPath)
	if err != nil {
		t.Skipf("FactConsolidation data not available: %v", err)
	}
	var rows []struct {
		Context string `json:"context"`
	}
	if err := json.Unmarshal(b, &rows); err != nil || len(rows) == 0 {
		t.Fatalf("decode %s: %v", factConsolidationPath, err)
	}
	lines := regexp.MustCompile(`(?m)^\d+\. `).FindAllString(rows[0].Context, -1)
	cs := New().ExtractTurn(event.TurnAcceptedV1{TurnID: "t", Role: "user", Content: rows[0].Context, OccurredAt: time.Now()})
	covered := map[int64]bool{}
	for _, c := range cs {
		if c.Fallback || c.Sequence == nil {
			t.Errorf("unstructured claim %+v", c)
			continue
		}
		covered[*c.Sequence] = true
	}
	if len(covered) != len(lines) {
		t.Errorf("%d of %d fact lines gave a structured claim", len(covered), len(lines))
	}
}
