package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/services/extractor/rules"
)

// A synthetic conversation in LoCoMo's format (the real data is read from ../shared/data, never copied).
const synthetic = `[{"sample_id":"conv-x","conversation":{"speaker_a":"Ann","speaker_b":"Bo",
 "session_1_date_time":"1:56 pm on 8 May, 2023",
 "session_1":[{"speaker":"Ann","dia_id":"D1:1","text":"Hey Bo! How are you?"},
              {"speaker":"Bo","dia_id":"D1:2","text":"I moved to Berlin last week."},
              {"speaker":"Ann","dia_id":"D1:3","text":"The weather was lovely at the lake."}],
 "session_2_date_time":"10:00 am on 9 June, 2023",
 "session_2":[{"speaker":"Bo","dia_id":"D2:1","text":"My favorite color is green."}]},
 "qa":[{"question":"Where does Bo live?","answer":"Berlin","evidence":["D1:2"],"category":4},
       {"question":"What is Bo's favorite color?","answer":"green","evidence":["D2:1","D1:1"],"category":4}]}]`

func TestRun(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "locomo.json")
	if err := os.WriteFile(data, []byte(synthetic), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results.json")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), rules.New(), nil, data, out, 1, 0, 2048, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "| conv-x | 2 | 4 |") {
		t.Errorf("table:\n%s", stdout.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res Results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	tot := res.Total
	// Evidence: D1:2 (structured), D2:1 (structured), D1:1 (a greeting: nothing).
	if tot.Turns != 4 || tot.EvidenceTurns != 3 || tot.EvidenceStructure != 2 || tot.EvidenceAny != 2 || tot.StructuredClaims != 2 {
		t.Errorf("totals %+v", tot)
	}
}
