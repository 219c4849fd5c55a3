package api_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/schemas"
)

// TestErasureWire states the erasure record on the wire. Every record has a scope (erasures.scope is NOT NULL,
// default all), so "scope" is always sent, like the ids, the requester and the counts; what a record may lack
// (the agent of a private scope, the hash of a target, the completion time) is left out rather than sent empty.
// The reconciler's copy of this type sent scope always and the client's copy omitted it when empty; this is
// the one type both now use.
func TestErasureWire(t *testing.T) {
	requested := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	completed := requested.Add(2 * time.Second)
	cases := []struct {
		name string
		rec  api.Erasure
		want string
	}{
		{"a completed erasure of an agent's own private claims", api.Erasure{
			ErasureID: "0b8f5a4e-3f9c-4c1e-9d2a-6c1f2e3d4b5a", Workspace: "team", Kind: api.EraseSubject, Scope: "private",
			ScopeAgent: "agent-a", TargetHash: "3f2a", RequestedBy: "agent-a", RequestedAt: requested, Status: "completed",
			CompletedAt: &completed, ClaimsErased: 3, MessagesPurged: 5,
		}, `{"erasure_id":"0b8f5a4e-3f9c-4c1e-9d2a-6c1f2e3d4b5a","workspace":"team","kind":"subject","scope":"private",` +
			`"scope_agent":"agent-a","target_hash":"3f2a","requested_by":"agent-a","requested_at":"2026-03-01T10:00:00Z",` +
			`"status":"completed","completed_at":"2026-03-01T10:00:02Z","claims_erased":3,"messages_purged":5}`},
		{"a workspace erasure still running", api.Erasure{
			ErasureID: "0b8f5a4e-3f9c-4c1e-9d2a-6c1f2e3d4b5b", Workspace: "team", Kind: api.EraseWorkspace, Scope: "all",
			RequestedBy: "admin", RequestedAt: requested, Status: "requested",
		}, `{"erasure_id":"0b8f5a4e-3f9c-4c1e-9d2a-6c1f2e3d4b5b","workspace":"team","kind":"workspace","scope":"all",` +
			`"requested_by":"admin","requested_at":"2026-03-01T10:00:00Z","status":"requested","claims_erased":0,"messages_purged":0}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.rec)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, b, c.want)
		}
		var back api.Erasure
		if err := json.Unmarshal([]byte(c.want), &back); err != nil || back.Scope != c.rec.Scope || back.ClaimsErased != c.rec.ClaimsErased {
			t.Errorf("%s: decoding the wire form gave %+v, %v", c.name, back, err)
		}
	}

	// The OpenAPI document promises the same: the keys every record carries are required.
	required := openapiRequired(t, "Erasure")
	always := []string{"erasure_id", "workspace", "kind", "scope", "requested_by", "requested_at", "status", "claims_erased", "messages_purged"}
	slices.Sort(required)
	slices.Sort(always)
	if !slices.Equal(required, always) {
		t.Errorf("openapi.yaml Erasure.required = %v, want %v", required, always)
	}
}

// TestConfirmAndErasureRequestWire: the confirmation answer carries its three fields; an erasure request
// without a target (a workspace erasure) sends only its kind.
func TestConfirmAndErasureRequestWire(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{api.ConfirmResponse{Status: "accepted", ClaimID: "c1", ConfirmationID: "e1"}, `{"status":"accepted","claim_id":"c1","confirmation_id":"e1"}`},
		{api.ErasureRequest{Kind: api.EraseWorkspace}, `{"kind":"workspace"}`},
		{api.ErasureRequest{Kind: api.EraseAgent, Target: "agent-b"}, `{"kind":"agent","target":"agent-b"}`},
	} {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("%T: got %s (%v), want %s", c.v, b, err, c.want)
		}
	}
	if got := openapiRequired(t, "ConfirmResponse"); len(got) != 3 {
		t.Errorf("openapi.yaml ConfirmResponse.required = %v, want its three fields", got)
	}
}

// openapiRequired reads the required list of a component schema of schemas/openapi.yaml.
func openapiRequired(t *testing.T, component string) []string {
	t.Helper()
	b, err := schemas.FS.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Required []string `yaml:"required"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	s, ok := doc.Components.Schemas[component]
	if !ok {
		t.Fatalf("openapi.yaml has no component %s", component)
	}
	return s.Required
}
