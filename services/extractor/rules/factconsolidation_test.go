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

// factConsolidationData is MemoryAgentBench's FactConsolidation data, read in place (never copied): under
// ../shared/data beside the repository, or $MNEME_SHARED_DATA.
func factConsolidationData() string {
	dir := filepath.Join("..", "..", "..", "..", "shared", "data")
	if d := os.Getenv("MNEME_SHARED_DATA"); d != "" {
		dir = d
	}
	return filepath.Join(dir, "memoryagentbench", "factconsolidation_6k.json")
}

// TestFactConsolidationLines checks that every numbered fact of the benchmark's context becomes a structured
// claim carrying the line number as sequence. It skips when the data is not present, unless
// MNEME_REQUIRE_DATA=1 (make test sets it when the data is there), when it fails.
func TestFactConsolidationLines(t *testing.T) {
	factConsolidationPath := factConsolidationData()
	b, err := os.ReadFile(factConsolidationPath)
	if err != nil {
		if os.Getenv("MNEME_REQUIRE_DATA") == "1" {
			t.Fatalf("FactConsolidation data missing with MNEME_REQUIRE_DATA=1: %v", err)
		}
		t.Skipf("FactConsolidation data not available (MNEME_REQUIRE_DATA=1 makes this a failure): %v", err)
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
