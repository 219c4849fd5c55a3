package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/internal/mcpserver"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/store"
)

// TestMCPChargesTheRateLimitOnce: an MCP tool call is one request of its key, as the same search over /v1
// would be. The MCP endpoint authenticates the request and the /v1 handler its tool call runs in process
// authenticates it again, but only the first check charges the key's bucket: with a burst of 2, two tool calls
// are served and the third MCP request is refused with 429 and Retry-After.
func TestMCPChargesTheRateLimitOnce(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	if _, err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	key, err := auth.CreateWorkspace(ctx, db, "team", "test")
	if err != nil {
		t.Fatal(err)
	}
	// A refill of one token every 1000 s: nothing refills during the test.
	authn := auth.New(db, false, auth.WithRateLimit(0.001, 2))
	var served atomic.Int32
	apiMux := http.NewServeMux()
	// The /v1 search route as its handler starts: the caller is identified (and, over the network, charged).
	apiMux.HandleFunc("POST /v1/workspaces/{ws}/search", func(w http.ResponseWriter, r *http.Request) {
		if _, err := authn.Identify(r, r.PathValue("ws"), false); err != nil {
			auth.WriteError(w, err)
			return
		}
		served.Add(1)
		api.WriteJSON(w, http.StatusOK, api.SearchResponse{Claims: []api.Claim{{ID: "c1", Text: "Alice lives in Berlin"}},
			Context: "Memory:\n- Alice lives in Berlin (since 2025-06-01; by planner, shared)"})
	})
	mux := http.NewServeMux()
	mux.Handle(mcpserver.HTTPPattern, mcpserver.HTTPHandler(authn, apiMux, mcpserver.Options{}, nil))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	endpoint := srv.URL + "/v1/workspaces/team/mcp"
	recall := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall","arguments":{"query":"Where does Alice live?"}}}`
	for i := 1; i <= 2; i++ {
		status, _, body := post(t, endpoint, "planner", key, recall)
		var rpc struct {
			Result mcp.CallToolResult `json:"result"`
		}
		if err := json.Unmarshal(body, &rpc); status != http.StatusOK || err != nil || rpc.Result.IsError || !strings.Contains(text(&rpc.Result), "Alice lives in Berlin") {
			t.Fatalf("tool call %d of a burst of 2: %d %s", i, status, body)
		}
	}
	status, hdr, body := post(t, endpoint, "planner", key, recall)
	if status != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" {
		t.Fatalf("third tool call: %d (Retry-After %q) %s, want 429 with Retry-After", status, hdr.Get("Retry-After"), body)
	}
	if n := served.Load(); n != 2 {
		t.Errorf("the search handler served %d calls, want 2", n)
	}
}
