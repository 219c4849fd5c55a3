package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/app/apptest"
	"github.com/mneme-ai/mneme/pkg/api"
)

// TestIngestProgressesBehindConstantQueries: in the all-in-one process with the query-priority gate on
// (MNEME_QUERY_PRIORITY=true), ingest units wait for queries in flight — and searchers that query without a pause still never
// stop ingest: every accepted turn reaches the projection, and the gate's metrics show that ingest units did
// wait for queries and ran once their deferral expired.
func TestIngestProgressesBehindConstantQueries(t *testing.T) {
	sys := apptest.Start(t, map[string]string{"MNEME_QUERY_PRIORITY": "true", "MNEME_INGEST_MAX_DEFER": "20ms"})
	const ws, agent = "priority", "planner"
	headers := map[string]string{api.HeaderAgent: agent}
	turn := func(i int) api.TurnsRequest {
		return api.TurnsRequest{Turns: []api.TurnInput{{TurnID: "t" + strconv.Itoa(i), SessionID: "s" + strconv.Itoa(i%3), Role: "user",
			Speaker: "Alice", Content: fmt.Sprintf("Person%d lives in Town%d. Person%d works at Company%d.", i, i, i, i)}}}
	}
	if code := postJSON(t, sys.BaseURL+"/v1/workspaces/"+ws+"/turns", headers, turn(0)); code != http.StatusAccepted {
		t.Fatalf("POST turns: %d", code)
	}
	eventually(t, 90*time.Second, "the first turn's claims (the workspace searchable)", func() bool { return claimsIn(t, sys.DBURL, ws) > 0 })

	ctx, cancel := context.WithCancel(context.Background())
	var searchers sync.WaitGroup
	var searches, failed atomic.Int64
	for s := range 4 {
		searchers.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				if search(sys.BaseURL+"/v1/workspaces/"+ws+"/search", agent, fmt.Sprintf("Where does Person%d live?", (s+i)%20)) == http.StatusOK {
					searches.Add(1)
				} else {
					failed.Add(1)
				}
			}
		})
	}
	defer func() { cancel(); searchers.Wait() }()

	const turns = 20
	for i := 1; i <= turns; i++ {
		if code := postJSON(t, sys.BaseURL+"/v1/workspaces/"+ws+"/turns", headers, turn(i)); code != http.StatusAccepted {
			t.Fatalf("POST turn %d: %d", i, code)
		}
	}
	eventually(t, 3*time.Minute, "every accepted turn's claims in the projection while searches never pause", func() bool {
		return turnsWithClaims(t, sys.DBURL, ws) == turns+1
	})
	cancel()
	searchers.Wait()
	if failed.Load() > 0 {
		t.Errorf("%d of %d searches failed", failed.Load(), failed.Load()+searches.Load())
	}
	exposition := scrape(t, sys.BaseURL)
	units, deferred, expired := metricValue(exposition, "mneme_priority_ingest_units_total"), metricValue(exposition, "mneme_priority_ingest_deferred_total"),
		metricValue(exposition, "mneme_priority_ingest_expired_total")
	if units <= 0 || deferred <= 0 || expired <= 0 {
		t.Errorf("gate counters units %g, deferred %g, expired %g after %d searches beside ingest: want all > 0 (ingest waited for queries and was not starved)\n%s",
			units, deferred, expired, searches.Load(), grepLines(exposition, "mneme_priority"))
	}
	t.Logf("%d searches during ingest; gate: %s", searches.Load(), strings.ReplaceAll(grepLines(exposition, "mneme_priority"), "\n", "; "))
}

// search posts one search and returns its status (0 when the request failed); safe off the test goroutine.
func search(url, agent, query string) int {
	body, err := json.Marshal(api.SearchRequest{Query: query})
	if err != nil {
		return 0
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.HeaderAgent, agent)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// turnsWithClaims counts the turns of ws that have at least one claim in the projection.
func turnsWithClaims(t *testing.T, dbURL, ws string) int {
	t.Helper()
	return countRows(t, dbURL, `SELECT count(DISTINCT t.turn) FROM claims c
		CROSS JOIN LATERAL jsonb_array_elements_text(c.provenance->'turn_ids') AS t(turn) WHERE c.workspace_id = $1`, ws)
}

// metricValue is the value of an unlabelled series in a Prometheus exposition (-1 when absent).
func metricValue(exposition, name string) float64 {
	for _, line := range strings.Split(exposition, "\n") {
		rest, ok := strings.CutPrefix(line, name)
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '{') {
			continue
		}
		if i := strings.LastIndexByte(rest, ' '); i >= 0 {
			if v, err := strconv.ParseFloat(rest[i+1:], 64); err == nil {
				return v
			}
		}
	}
	return -1
}
