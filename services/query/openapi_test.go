package query

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/api/openapitest"
)

// TestOpenAPIRoutes checks that every route the query service serves is in the OpenAPI document, with the
// same method.
func TestOpenAPIRoutes(t *testing.T) {
	doc := openapitest.Doc(t)
	paths, _ := doc["paths"].(map[string]any)
	routes := (&Service{}).routes()
	for _, r := range routes {
		method, path, _ := strings.Cut(r.pattern, " ")
		item, ok := paths[path].(map[string]any)
		if !ok {
			t.Errorf("route %s is not in openapi.yaml", r.pattern)
			continue
		}
		if _, ok := item[strings.ToLower(method)]; !ok {
			t.Errorf("route %s: openapi.yaml lacks method %s", r.pattern, method)
		}
	}
	if len(routes) != 4 {
		t.Fatalf("routes %v", routes)
	}
}

// TestOpenAPIResponses validates real responses of the server, for every read endpoint and for errors,
// against the OpenAPI component schemas: the document and the Go types cannot drift apart unnoticed.
func TestOpenAPIResponses(t *testing.T) {
	sch := openapitest.Components(t, "SearchRequest", "SearchResponse", "AnswerRequest", "AnswerResponse", "SubjectResponse", "ClaimResponse", "Error")
	h := newHarness(t)
	l := buildLives(h)
	x := l.f.add(fclaim{Subject: "Project Apollo", Predicate: "deadline", Object: "March 3", ValidFrom: day("2024-02-01")})
	y := l.f.add(fclaim{Subject: "Project Apollo", Predicate: "deadline", Object: "March 10", ValidFrom: day("2024-02-01")})
	l.f.dispute(day("2024-02-02"), x, y)

	call := func(method, path, body, schema string, status int) {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), method, h.srv.URL+path, strings.NewReader(body))
		req.Header.Set(api.HeaderAgent, "agent-a")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != status {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch[schema].Validate(v); err != nil {
			t.Errorf("%s %s does not match %s:\n%s\n%v", method, path, schema, b, err)
		}
		if body != "" {
			req, _ := jsonschema.UnmarshalJSON(strings.NewReader(body))
			reqSchema := strings.Replace(schema, "Response", "Request", 1)
			if s, ok := sch[reqSchema]; ok && status == 200 {
				if err := s.Validate(req); err != nil {
					t.Errorf("request %s does not match %s: %v", body, reqSchema, err)
				}
			}
		}
	}
	call("POST", "/v1/workspaces/team/search", `{"query":"Where did Alice live before?","k":5}`, "SearchResponse", 200)
	call("POST", "/v1/workspaces/team/search", `{"query":"Project Apollo deadline","as_of":"2024-03-01T00:00:00Z"}`, "SearchResponse", 200)
	call("POST", "/v1/workspaces/team/answer", `{"question":"Where does Alice live?"}`, "AnswerResponse", 200)
	call("POST", "/v1/workspaces/team/answer", `{"question":"What is the deadline of Project Apollo?"}`, "AnswerResponse", 200)
	call("POST", "/v1/workspaces/team/answer", `{"question":"Nothing known here"}`, "AnswerResponse", 200)
	call("GET", "/v1/workspaces/team/subjects/alice", "", "SubjectResponse", 200)
	call("GET", "/v1/workspaces/team/subjects/project_apollo?known_at=2024-03-01T00:00:00Z", "", "SubjectResponse", 200)
	call("GET", "/v1/workspaces/team/claims/"+l.paris, "", "ClaimResponse", 200)
	call("GET", "/v1/workspaces/team/claims/"+l.rome, "", "ClaimResponse", 200)
	// A page that leaves more behind carries decisions_next.
	call("GET", "/v1/workspaces/team/claims/"+l.paris+"?decisions_limit=1&inputs_limit=1", "", "ClaimResponse", 200)
	call("GET", "/v1/workspaces/team/claims/"+l.paris+"?decisions_limit=0&inputs_limit=0", "", "ClaimResponse", 200)
	call("GET", "/v1/workspaces/team/subjects/alice?slot=lives_in&decisions_limit=1&inputs_limit=0", "", "SubjectResponse", 200)
	call("GET", "/v1/workspaces/team/claims/"+l.paris+"?decisions_limit=501", "", "Error", 400)
	call("GET", "/v1/workspaces/team/subjects/alice?decisions_cursor=x", "", "Error", 400)
	call("POST", "/v1/workspaces/team/search", `{"query":"x","k":-1}`, "Error", 400)
	call("GET", "/v1/workspaces/nope/subjects/alice", "", "Error", 404)
	call("GET", "/v1/workspaces/team/claims/x", "", "Error", 400)
}
