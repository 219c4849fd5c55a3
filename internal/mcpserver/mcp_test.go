package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/internal/app/apptest"
	"github.com/mneme-ai/mneme/internal/mcpserver"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/client"
)

// TestMCP drives every tool and the subject resource through the SDK's client over both transports against
// the real stack (in-process NATS JetStream, Postgres, every service) in production mode — keys required —
// and checks the refusals: no key, a wrong key, another workspace's key, a key bound to another agent, and
// erasures a bound key may not make.
func TestMCP(t *testing.T) {
	policy := filepath.Join(t.TempDir(), "policy.json")
	// A change of someone's role waits for confirmation: confirm_claim has something to confirm.
	if err := os.WriteFile(policy, []byte(`{"version":"mcp-test-1","rules":[{"predicate":"role","await_confirmation":{}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	sys := apptest.Start(t, map[string]string{"MNEME_DEV_MODE": "false", "MNEME_RECONCILER_POLICY_FILE": policy})
	ctx := context.Background()
	type keys struct{ any, planner string }
	issued := map[string]keys{}
	for _, ws := range []string{"over-stdio", "over-http", "other"} {
		k, err := auth.CreateWorkspace(ctx, sys.App.DB(), ws, "test")
		if err != nil {
			t.Fatal(err)
		}
		p, err := auth.IssueKey(ctx, sys.App.DB(), ws, "planner")
		if err != nil {
			t.Fatal(err)
		}
		issued[ws] = keys{k, p}
	}
	bin := buildMneme(t)
	stdio := func(t *testing.T, ws, agent, key string) *mcp.ClientSession {
		return connect(t, &mcp.CommandTransport{Command: mcpCommand(bin, sys.BaseURL, ws, agent, key)})
	}
	overHTTP := func(t *testing.T, ws, agent, key string) *mcp.ClientSession {
		return connect(t, httpTransport(sys.BaseURL, ws, agent, key))
	}

	t.Run("stdio", func(t *testing.T) {
		exercise(t, stdio(t, "over-stdio", "planner", issued["over-stdio"].any), "over-stdio")
	})
	t.Run("http", func(t *testing.T) {
		exercise(t, overHTTP(t, "over-http", "planner", issued["over-http"].any), "over-http")
		// Stateless: one tools/call needs no initialize before it (the README's curl example).
		status, _, body := post(t, sys.BaseURL+"/v1/workspaces/over-http/mcp", "planner", issued["over-http"].any,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"recall","arguments":{"query":"Where does Alice live?"}}}`)
		var rpc struct {
			Result mcp.CallToolResult `json:"result"`
		}
		if err := json.Unmarshal(body, &rpc); status != http.StatusOK || err != nil || rpc.Result.IsError || !strings.Contains(text(&rpc.Result), "Alice lives in Berlin") {
			t.Errorf("a lone tools/call: %d %s", status, body)
		}
	})

	t.Run("http refusals", func(t *testing.T) {
		endpoint := sys.BaseURL + "/v1/workspaces/over-http/mcp"
		for _, c := range []struct {
			name, endpoint, agent, key string
			status                     int
			field, says                string
		}{
			{"no key", endpoint, "planner", "", http.StatusUnauthorized, "Authorization", "Authorization header is required"},
			{"wrong key", endpoint, "planner", "mnk_not-a-key", http.StatusUnauthorized, "Authorization", "not a valid key"},
			{"no agent", endpoint, "", issued["over-http"].any, http.StatusUnauthorized, api.HeaderAgent, "header is required"},
			{"another workspace's key", endpoint, "planner", issued["other"].any, http.StatusForbidden, "Authorization", `not valid for workspace "over-http"`},
			{"a key bound to another agent", endpoint, "scheduler", issued["over-http"].planner, http.StatusForbidden, api.HeaderAgent, "bound to another agent"},
			// The same answer whether the workspace exists or not: a key learns nothing about other workspaces.
			{"unknown workspace", sys.BaseURL + "/v1/workspaces/nowhere/mcp", "planner", issued["over-http"].any, http.StatusForbidden, "Authorization", `not valid for workspace "nowhere"`},
		} {
			t.Run(c.name, func(t *testing.T) {
				status, hdr, body := postInitialize(t, c.endpoint, c.agent, c.key)
				var e api.Error
				_ = json.Unmarshal(body, &e)
				if status != c.status || e.Error.Field != c.field || !strings.Contains(e.Error.Message, c.says) {
					t.Fatalf("got %d %s, want %d naming %s and saying %q", status, body, c.status, c.field, c.says)
				}
				if status == http.StatusUnauthorized && hdr.Get("WWW-Authenticate") == "" {
					t.Errorf("401 without WWW-Authenticate")
				}
				// The SDK's client cannot open a session either.
				tr := httpTransport(sys.BaseURL, "", c.agent, c.key)
				tr.Endpoint = c.endpoint
				if cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, tr, nil); err == nil {
					cs.Close()
					t.Errorf("the SDK client connected")
				}
			})
		}
		// A message beyond the bound is refused before it is decoded.
		huge := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall","arguments":{"query":"` + strings.Repeat("x", 10<<20) + `"}}}`
		if status, _, body := post(t, endpoint, "planner", issued["over-http"].any, huge); status != http.StatusRequestEntityTooLarge {
			t.Errorf("a 10 MiB message: %d %.200s", status, body)
		}
		// A key bound to planner may not erase another agent's claims or the workspace; nothing is erased.
		checkBoundKeyErasures(t, overHTTP(t, "over-http", "planner", issued["over-http"].planner), sys.BaseURL, "over-http", issued["over-http"].any)
	})

	t.Run("stdio refusals", func(t *testing.T) {
		for _, c := range []struct{ name, key, says string }{
			{"no key", "", "401 unauthenticated (field Authorization): the Authorization header is required"},
			{"wrong key", "mnk_not-a-key", "401 unauthenticated (field Authorization): the credential is not a valid key"},
			{"another workspace's key", issued["other"].any, `403 permission_denied (field Authorization): the credential is not valid for workspace "over-stdio"`},
		} {
			t.Run(c.name, func(t *testing.T) {
				cs := stdio(t, "over-stdio", "planner", c.key)
				res := call(t, cs, "recall", map[string]any{"query": "Where does Alice live?"})
				if !res.IsError || !strings.Contains(text(res), c.says) {
					t.Fatalf("recall: error %v %q, want %q", res.IsError, text(res), c.says)
				}
			})
		}
		checkBoundKeyErasures(t, stdio(t, "over-stdio", "planner", issued["over-stdio"].planner), sys.BaseURL, "over-stdio", issued["over-stdio"].any)

		// A misconfigured process says what to fix and exits.
		cmd := mcpCommand(bin, sys.BaseURL, "", "planner", "")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "-workspace (MNEME_WORKSPACE): workspace id is empty") {
			t.Errorf("mneme mcp without a workspace: %v, stderr %q", err, stderr.String())
		}
	})
}

// exercise calls every tool and reads a subject resource, as agent planner with a key valid for any agent.
func exercise(t *testing.T, cs *mcp.ClientSession, ws string) {
	ctx := context.Background()
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool
	}
	want := []string{"answer", "confirm_claim", "erase", "erasure_status", "recall", "remember", "remember_claims", "subject_timeline"}
	if got := slices.Sorted(func(yield func(string) bool) {
		for n := range tools {
			if !yield(n) {
				return
			}
		}
	}); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	// ok calls a tool that must succeed and checks its structured result against the tool's output schema.
	ok := func(name string, args map[string]any, out any) string {
		t.Helper()
		res := call(t, cs, name, args)
		if res.IsError {
			t.Fatalf("%s %v: %s", name, args, text(res))
		}
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		checkOutputSchema(t, tools[name], b)
		if out != nil {
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s: structured result %s: %v", name, b, err)
			}
		}
		return text(res)
	}
	refused := func(name string, args map[string]any, says string) {
		t.Helper()
		res := call(t, cs, name, args)
		if !res.IsError || !strings.Contains(text(res), says) {
			t.Errorf("%s %v: error %v %q, want an error saying %q", name, args, res.IsError, text(res), says)
		}
	}

	var acc api.AcceptedResponse
	msg := ok("remember_claims", map[string]any{"claims": []map[string]any{
		{"subject": "Alice", "predicate": "lives in", "object": "Paris", "valid_from": "2024-01-10"},
		{"subject": "Alice", "predicate": "lives in", "object": "Berlin", "valid_from": "2025-06-01T00:00:00Z"},
		{"subject": "Alice", "predicate": "role", "object": "engineer", "valid_from": "2024-01-01"},
	}}, &acc)
	if len(acc.IDs) != 3 || !strings.Contains(msg, "Remembered 3 claim(s)") {
		t.Fatalf("remember_claims: %q %+v", msg, acc)
	}
	ok("remember", map[string]any{"content": "I moved to Lisbon last week.", "speaker": "Bob", "turn_id": "bob-1", "session_id": "s1"}, &acc)
	if again := ok("remember", map[string]any{"content": "I moved to Lisbon last week.", "speaker": "Bob", "turn_id": "bob-1", "session_id": "s1"}, nil); !strings.Contains(again, "already remembered") {
		t.Errorf("remember twice: %q", again)
	}

	var sr api.SearchResponse
	eventually(t, "recall finds Alice in Berlin", func() bool {
		return strings.Contains(ok("recall", map[string]any{"query": "Where does Alice live?"}, &sr), "Alice lives in Berlin")
	})
	if txt := ok("recall", map[string]any{"query": "Where does Alice live?", "k": 5, "token_budget": 200}, &sr); strings.Contains(txt, "Paris") || sr.ContextTokens > 200 {
		t.Errorf("recall now shows a superseded value or exceeds the budget: %q (%d tokens)", txt, sr.ContextTokens)
	}
	if txt := ok("recall", map[string]any{"query": "Where does Alice live?", "as_of": "2024-06-01"}, nil); !strings.Contains(txt, "Paris") || strings.Contains(txt, "Berlin") {
		t.Errorf("recall as of 2024-06-01: %q, want Paris only", txt)
	}
	var ar api.AnswerResponse
	if txt := ok("answer", map[string]any{"question": "Where does Alice live?"}, &ar); !strings.Contains(ar.Answer, "Berlin") || !strings.HasPrefix(txt, ar.Answer) {
		t.Errorf("answer: %q (%+v)", txt, ar)
	}
	if ok("answer", map[string]any{"question": "Where did Alice live?", "as_of": "2024-06-01T00:00:00Z"}, &ar); !strings.Contains(ar.Answer, "Paris") {
		t.Errorf("answer as of 2024-06-01: %q, want Paris", ar.Answer)
	}
	eventually(t, "the claim extracted from Bob's turn is found", func() bool {
		return strings.Contains(ok("recall", map[string]any{"query": "Where does Bob live?"}, nil), "Lisbon")
	})

	// A role change waits for confirmation; confirm_claim admits it.
	ok("remember_claims", map[string]any{"claims": []map[string]any{{"subject": "Alice", "predicate": "role", "object": "manager", "valid_from": "2025-01-01"}}}, nil)
	var subj api.SubjectResponse
	var manager string
	eventually(t, "the role change is held pending", func() bool {
		ok("subject_timeline", map[string]any{"subject": "Alice", "slot": "role"}, &subj)
		manager = entryID(subj, "role", "manager", "pending")
		return manager != ""
	})
	if txt := ok("subject_timeline", map[string]any{"subject": "alice", "slot": "role"}, nil); !strings.Contains(txt, "manager: pending") || !strings.Contains(txt, "current: engineer") {
		t.Errorf("timeline text before confirmation:\n%s", txt)
	}
	var conf api.ConfirmResponse
	ok("confirm_claim", map[string]any{"claim_id": manager}, &conf)
	if conf.ClaimID != manager {
		t.Errorf("confirmed %q, want %q", conf.ClaimID, manager)
	}
	eventually(t, "the confirmed role becomes current", func() bool {
		ok("subject_timeline", map[string]any{"subject": "Alice"}, &subj)
		return entryID(subj, "role", "manager", "active") != "" && entryID(subj, "role", "engineer", "superseded") != ""
	})
	if txt := ok("subject_timeline", map[string]any{"subject": "Alice", "as_of": "2024-06-01", "decisions_limit": 5}, &subj); !strings.Contains(txt, "current: Paris") ||
		!strings.Contains(txt, "Paris: superseded, valid 2024-01-10 → 2025-06-01") || !strings.Contains(txt, "superseded by Berlin") {
		t.Errorf("timeline as of 2024-06-01:\n%s", txt)
	}

	// The subject's timeline as a resource, from the advertised template.
	var templates []string
	for rt, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		templates = append(templates, rt.URITemplate)
	}
	if want := "mneme://workspaces/" + ws + "/subjects/{subject_key}"; !slices.Equal(templates, []string{want}) {
		t.Errorf("resource templates %v, want [%s]", templates, want)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.SubjectURI(ws, "alice")})
	if err != nil {
		t.Fatal(err)
	}
	var res api.SubjectResponse
	if len(rr.Contents) != 1 || rr.Contents[0].MIMEType != "application/json" || json.Unmarshal([]byte(rr.Contents[0].Text), &res) != nil {
		t.Fatalf("resource contents: %+v", rr.Contents)
	}
	if entryID(res, "lives_in", "Berlin", "active") == "" || entryID(res, "lives_in", "Paris", "superseded") == "" || res.SubjectKey != "alice" {
		t.Errorf("resource timeline: %+v", res)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.SubjectURI(ws, "nobody")}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("reading an unknown subject: %v", err)
	}

	// Refused arguments name the field, from the server's checks and from the API's.
	refused("recall", map[string]any{"query": "x", "k": 500}, "invalid arguments: k must be between 1 and 100; got 500")
	refused("remember_claims", map[string]any{"claims": []map[string]any{{"subject": "A", "predicate": "p", "object": "o", "valid_from": "yesterday"}}},
		"claims[0].valid_from must be an RFC 3339 time")
	refused("subject_timeline", map[string]any{"subject": "Nobody"}, "404 not_found (field subject_key)")
	refused("confirm_claim", map[string]any{"claim_id": "00000000-0000-5000-8000-000000000000"}, "404 not_found (field id)")
	refused("erase", map[string]any{"kind": "agent"}, "target is required for kind agent")
	refused("answer", map[string]any{"question": "Where?", "size": 3}, `unknown argument "size"`)

	// Erasure: forget Bob, then the erasure's record.
	var er api.Erasure
	if txt := ok("erase", map[string]any{"kind": "subject", "target": "Bob"}, &er); er.Status != "completed" || er.ClaimsErased < 1 || !strings.Contains(txt, "completed") {
		t.Fatalf("erase: %q %+v", txt, er)
	}
	var st api.Erasure
	ok("erasure_status", map[string]any{"erasure_id": er.ErasureID}, &st)
	if st.ErasureID != er.ErasureID || st.Status != "completed" || st.RequestedBy != "planner" {
		t.Errorf("erasure_status: %+v", st)
	}
	if txt := ok("recall", map[string]any{"query": "Where does Bob live?"}, nil); strings.Contains(txt, "Lisbon") {
		t.Errorf("Bob's claim survived the erasure: %q", txt)
	}
}

// checkBoundKeyErasures: through a session whose key is bound to planner, erasing scheduler's claims or the
// workspace is refused with the HTTP API's reason, and scheduler's claim survives.
func checkBoundKeyErasures(t *testing.T, cs *mcp.ClientSession, baseURL, ws, anyKey string) {
	t.Helper()
	ctx := context.Background()
	sched, err := client.New(baseURL, "scheduler", client.WithKey(anyKey))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sched.Claims(ctx, ws, api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "Carol", Predicate: "works at", Object: "Initech"}}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "scheduler's claim is searchable", func() bool {
		r, err := sched.Search(ctx, ws, api.SearchRequest{Query: "Where does Carol work?"})
		return err == nil && strings.Contains(r.Context, "Initech")
	})
	for _, c := range []struct {
		args map[string]any
		says string
	}{
		{map[string]any{"kind": "agent", "target": "scheduler"}, "403 permission_denied (field target): an agent key may only erase its own agent's claims"},
		{map[string]any{"kind": "workspace"}, "403 permission_denied (field kind): erasing a whole workspace needs an admin key"},
	} {
		res := call(t, cs, "erase", c.args)
		if !res.IsError || !strings.Contains(text(res), c.says) {
			t.Errorf("erase %v with a key bound to planner: error %v %q, want %q", c.args, res.IsError, text(res), c.says)
		}
	}
	r, err := sched.Search(ctx, ws, api.SearchRequest{Query: "Where does Carol work?"})
	if err != nil || !strings.Contains(r.Context, "Initech") {
		t.Errorf("scheduler's claim after refused erasures: %v %+v", err, r)
	}
}

func entryID(s api.SubjectResponse, slot, object, status string) string {
	for _, sl := range s.Slots {
		if sl.SlotKey != slot {
			continue
		}
		for _, e := range sl.Timeline {
			if e.Object == object && e.Status == status && e.RetiredAt == nil {
				return e.ClaimID
			}
		}
	}
	return ""
}

func checkOutputSchema(t *testing.T, tool *mcp.Tool, structured []byte) {
	t.Helper()
	b, err := json.Marshal(tool.OutputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: output schema: %v", tool.Name, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: output schema: %v", tool.Name, err)
	}
	var v any
	if err := json.Unmarshal(structured, &v); err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(v); err != nil {
		t.Errorf("%s: structured result does not match the advertised output schema: %v\n%s", tool.Name, err, structured)
	}
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func connect(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mneme-test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// buildMneme builds the mneme binary the stdio transport runs, as an MCP client configuration would.
func buildMneme(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mneme")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/mneme")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/mneme: %v\n%s", err, out)
	}
	return bin
}

// mcpCommand is `mneme mcp` configured through the environment, the way MCP clients configure servers.
func mcpCommand(bin, url, ws, agent, key string) *exec.Cmd {
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "MNEME_URL="+url, "MNEME_WORKSPACE="+ws, "MNEME_AGENT="+agent, "MNEME_KEY="+key)
	return cmd
}

// httpTransport is the SDK's streamable HTTP client transport with Mneme's headers on every request.
func httpTransport(baseURL, ws, agent, key string) *mcp.StreamableClientTransport {
	return &mcp.StreamableClientTransport{
		Endpoint:   baseURL + "/v1/workspaces/" + ws + "/mcp",
		HTTPClient: &http.Client{Transport: headers{agent: agent, key: key}},
		MaxRetries: -1,
	}
}

type headers struct{ agent, key string }

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if h.agent != "" {
		r.Header.Set(api.HeaderAgent, h.agent)
	}
	if h.key != "" {
		r.Header.Set("Authorization", "Bearer "+h.key)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// postInitialize sends an MCP initialize request by hand and returns the status, headers and body.
func postInitialize(t *testing.T, endpoint, agent, key string) (int, http.Header, []byte) {
	t.Helper()
	return post(t, endpoint, agent, key, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`)
}

// post sends one JSON-RPC message to an MCP endpoint by hand, as curl would.
func post(t *testing.T, endpoint, agent, key, body string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := headers{agent: agent, key: key}.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 90s: %s", what)
		}
		<-tick.C
	}
}
