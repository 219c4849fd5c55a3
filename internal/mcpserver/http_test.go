package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
)

// TestInProcessTransport: a call reaches the process's own handler with the caller's headers and body, its
// answer comes back as over a socket, and a route this process does not serve is a clear error rather than
// a 404 the model would read as "no such subject".
func TestInProcessTransport(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/workspaces/{ws}/search", func(w http.ResponseWriter, r *http.Request) {
		var req api.SearchRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		api.WriteJSON(w, http.StatusOK, api.SearchResponse{Context: strings.Join([]string{r.PathValue("ws"), r.Header.Get(api.HeaderAgent),
			r.Header.Get("Authorization"), req.Query}, "|")})
	})
	mux.HandleFunc("POST /v1/workspaces/{ws}/claims/{id}/confirm", func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body) // a body-less POST still has a readable body, as from net/http's server
		if err != nil || len(b) != 0 {
			t.Errorf("confirm body %q %v", b, err)
		}
		api.WriteError(w, http.StatusForbidden, api.CodeForbidden, "id", "no")
	})
	c, err := client.New(inProcessBase, "planner", client.WithKey("mnk_k"), client.WithHTTPClient(&http.Client{Transport: &inProcess{mux: mux}}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := c.Search(ctx, "team", api.SearchRequest{Query: "Where does Alice live?"})
	if err != nil || res.Context != "team|planner|Bearer mnk_k|Where does Alice live?" {
		t.Fatalf("search: %+v %v", res, err)
	}
	_, err = c.Confirm(ctx, "team", "0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11")
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Status != http.StatusForbidden || ce.Body.Field != "id" {
		t.Errorf("confirm: %v", err)
	}
	_, err = c.Claims(ctx, "team", api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "A", Predicate: "p", Object: "o"}}})
	if !errors.Is(err, errNotServed) || !strings.Contains(describe(err), "POST /v1/workspaces/team/claims is not served by this process") {
		t.Errorf("unserved route: %v / %s", err, describe(err))
	}
}
