package mcpserver

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// tools pairs every tool's input schema with its input type.
var tools = []struct {
	name   string
	schema *jsonschema.Schema
	in     any
}{
	{"remember", rememberSchema, rememberIn{}},
	{"remember_claims", rememberClaimsSchema, rememberClaimsIn{}},
	{"remember_claims.claims[]", claimSchema, claimIn{}},
	{"recall", recallSchema, recallIn{}},
	{"answer", answerSchema, answerIn{}},
	{"subject_timeline", timelineSchema, timelineIn{}},
	{"confirm_claim", confirmSchema, confirmIn{}},
	{"erase", eraseSchema, eraseIn{}},
	{"erasure_status", erasureStatusSchema, erasureStatusIn{}},
}

// TestSchemasMatchInputs: the properties a schema advertises are exactly the JSON fields the handler decodes,
// the required ones exactly those without omitempty, and every property says what it is for — so a model
// reading the schema can fill in every field the handler reads, and nothing the handler would drop.
func TestSchemasMatchInputs(t *testing.T) {
	for _, tc := range tools {
		var fields, required []string
		typ := reflect.TypeOf(tc.in)
		for i := range typ.NumField() {
			name, opts, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			fields = append(fields, name)
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
		}
		slices.Sort(fields)
		slices.Sort(required)
		req := slices.Sorted(slices.Values(tc.schema.Required))
		if props := propertyNames(tc.schema); !slices.Equal(props, fields) {
			t.Errorf("%s: schema properties %v, input fields %v", tc.name, props, fields)
		}
		if !slices.Equal(req, required) {
			t.Errorf("%s: schema requires %v, input requires %v", tc.name, req, required)
		}
		for name, p := range tc.schema.Properties {
			if len(p.Description) < 10 {
				t.Errorf("%s.%s has no description a model can use", tc.name, name)
			}
		}
		if b, _ := json.Marshal(tc.schema); !strings.Contains(string(b), `"additionalProperties":false`) {
			t.Errorf("%s: schema accepts unknown properties: %s", tc.name, b)
		}
	}
}

// TestDecodeArgsRefusals: each refused argument is named by its path, with the limit and what was sent.
func TestDecodeArgsRefusals(t *testing.T) {
	long := strings.Repeat("é", maxQueryChars+1)
	cases := []struct {
		name   string
		schema *jsonschema.Schema
		args   string
		field  string
		says   []string
	}{
		{"missing required", recallSchema, `{"k":3}`, "query", []string{"query is required"}},
		{"null required", recallSchema, `{"query":null}`, "query", []string{"query is required"}},
		{"empty string", recallSchema, `{"query":""}`, "query", []string{"query must not be empty"}},
		{"too long in characters", recallSchema, `{"query":"` + long + `"}`, "query", []string{"4097 characters", "limit is 4096"}},
		{"wrong type", recallSchema, `{"query":"x","k":"ten"}`, "k", []string{"k must be a number", `"ten"`}},
		{"not whole", recallSchema, `{"query":"x","k":2.5}`, "k", []string{"k must be a whole number", "2.5"}},
		{"above maximum", recallSchema, `{"query":"x","k":500}`, "k", []string{"k must be between 1 and 100", "500"}},
		{"below minimum", recallSchema, `{"query":"x","token_budget":0}`, "token_budget", []string{"between 1 and 8000", "got 0"}},
		{"huge integer", recallSchema, `{"query":"x","k":1e400}`, "k", []string{"k is not a number this server can hold"}},
		{"unknown argument", recallSchema, `{"query":"x","top_k":3}`, "top_k", []string{`unknown argument "top_k"`, "k, known_at, query"}},
		{"boolean", recallSchema, `{"query":"x","include_history":"yes"}`, "include_history", []string{"true or false"}},
		{"enum", eraseSchema, `{"kind":"everything"}`, "kind", []string{`"subject", "agent", "workspace"`, `"everything"`}},
		{"uuid", confirmSchema, `{"claim_id":"0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a1z"}`, "claim_id", []string{"a UUID such as"}},
		{"nested item", rememberClaimsSchema, `{"claims":[{"subject":"A","predicate":"p","object":"o"},{"subject":"A","predicate":"p"}]}`,
			"claims[1].object", []string{"claims[1].object is required"}},
		{"nested range", rememberClaimsSchema, `{"claims":[{"subject":"A","predicate":"p","object":"o","confidence":1.5}]}`,
			"claims[0].confidence", []string{"between 0 and 1"}},
		{"empty array", rememberClaimsSchema, `{"claims":[]}`, "claims", []string{"at least 1 item"}},
		{"not an object", recallSchema, `["x"]`, "", []string{"must be a JSON object"}},
		{"NUL", answerSchema, `{"question":"a\u0000b"}`, "question", []string{"NUL"}},
		{"trailing value", answerSchema, `{"question":"a"} {}`, "", []string{"more than one JSON value"}},
		{"invalid JSON", answerSchema, `{"question":`, "", []string{"not valid JSON"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out map[string]any
			err := decodeArgs(json.RawMessage(c.args), c.schema, &out)
			ae, ok := err.(*argError)
			if !ok {
				t.Fatalf("got %v, want an argument error", err)
			}
			if ae.Field != c.field {
				t.Errorf("field %q, want %q (%s)", ae.Field, c.field, ae.Msg)
			}
			for _, s := range c.says {
				if !strings.Contains(ae.Msg, s) {
					t.Errorf("message %q does not say %q", ae.Msg, s)
				}
			}
		})
	}
}

// TestDecodeArgsAccepts: valid arguments decode into the handler's input; absent arguments mean {}.
func TestDecodeArgsAccepts(t *testing.T) {
	var in rememberClaimsIn
	err := decodeArgs(json.RawMessage(`{"claims":[{"subject":"Alice","predicate":"lives in","object":"Berlin","functional":true,
		"valid_from":"2025-06-01","sequence":-3,"scope":"private","confidence":0.5,"negated":false,"source":""}]}`), rememberClaimsSchema, &in)
	if err != nil {
		t.Fatal(err)
	}
	c := in.Claims[0]
	if c.Subject != "Alice" || c.Functional == nil || !*c.Functional || c.Sequence == nil || *c.Sequence != -3 || c.Confidence == nil || *c.Confidence != 0.5 || c.Scope != "private" {
		t.Errorf("decoded %+v", c)
	}
	var none erasureStatusIn
	if err := decodeArgs(nil, erasureStatusSchema, &none); err == nil || !strings.Contains(err.Error(), "erasure_id is required") {
		t.Errorf("absent arguments: %v", err)
	}
}

func TestParseTime(t *testing.T) {
	for in, want := range map[string]string{
		"2024-06-01":                "2024-06-01T00:00:00Z",
		"2024-06-01T12:30:00+02:00": "2024-06-01T10:30:00Z",
		"2024-06-01T12:30:00.5Z":    "2024-06-01T12:30:00.5Z",
	} {
		got, err := parseTime("as_of", in)
		if err != nil || got.Format("2006-01-02T15:04:05.999999999Z07:00") != want {
			t.Errorf("parseTime(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"yesterday", "2024-13-01", "06/01/2024", "2024-06-01 12:00"} {
		if _, err := parseTime("claims[2].valid_from", bad); err == nil || !strings.HasPrefix(err.Error(), "claims[2].valid_from must be") {
			t.Errorf("parseTime(%q): %v", bad, err)
		}
	}
}

// FuzzDecodeArgs: no input panics the decoder, and whatever it accepts matches the schema when checked again
// and decodes into the handler's type.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"query":"x","k":3}`, `{"claims":[{"subject":"A","predicate":"p","object":"o"}]}`,
		`{"kind":"subject","target":"Alice"}`, `{"query":"é","as_of":"2024-06-01"}`, `null`, `[`, `{"k":1e999}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, tc := range tools {
			out := reflect.New(reflect.TypeOf(tc.in)).Interface()
			err := decodeArgs(json.RawMessage(raw), tc.schema, out)
			if err != nil {
				if _, ok := err.(*argError); !ok {
					t.Fatalf("%s: %T %v is not an argument error", tc.name, err, err)
				}
				continue
			}
			var v any
			dec := json.NewDecoder(strings.NewReader(raw))
			dec.UseNumber()
			if strings.TrimSpace(raw) == "" || strings.TrimSpace(raw) == "null" {
				v = map[string]any{}
			} else if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: accepted %q, which does not decode: %v", tc.name, raw, err)
			}
			if err := check("", tc.schema, v); err != nil {
				t.Fatalf("%s: accepted %q, which fails the schema: %v", tc.name, raw, err)
			}
		}
	})
}
