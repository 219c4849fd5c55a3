package event_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/schemas"
)

// TestGoldenExamples validates every golden example against its schema and round-trips each event example
// through the registered Go type: a field the Go type drops, renames or adds makes the round trip differ.
func TestGoldenExamples(t *testing.T) {
	examples, err := schemas.Examples()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, ex := range examples {
		t.Run(ex.Path, func(t *testing.T) {
			if err := schemas.Validate(ex.SchemaID, ex.JSON); err != nil {
				t.Fatalf("example does not satisfy %s: %v", ex.SchemaID, err)
			}
			if !strings.HasPrefix(ex.SchemaID, "io.mneme.") || strings.HasPrefix(ex.SchemaID, "io.mneme.api.") {
				return
			}
			seen[ex.SchemaID] = true
			env, err := event.Decode(ex.JSON)
			if err != nil {
				t.Fatal(err)
			}
			if env.Type != ex.SchemaID {
				t.Fatalf("example type %q lives beside schema %q", env.Type, ex.SchemaID)
			}
			payload, err := env.Payload()
			if err != nil {
				t.Fatal(err)
			}
			again, err := event.New(env.Type, env.ID, env.Source, env.Workspace, env.Time, payload)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(again)
			if err != nil {
				t.Fatal(err)
			}
			if err := schemas.Validate(ex.SchemaID, b); err != nil {
				t.Fatalf("re-encoded event does not satisfy its schema: %v", err)
			}
			assertSameJSON(t, ex.JSON, b)
		})
	}
	for _, typ := range event.Types() {
		if !seen[typ] {
			t.Errorf("event type %s has no golden example under schemas/", typ)
		}
	}
}

// TestGoFieldsMatchSchemas checks that every JSON field of each payload type is declared by its schema and
// every field the schema declares exists in the Go type.
func TestGoFieldsMatchSchemas(t *testing.T) {
	for _, typ := range event.Types() {
		t.Run(typ, func(t *testing.T) {
			if _, err := schemas.Schema(typ); err != nil {
				t.Fatalf("no schema for registered type: %v", err)
			}
			v, _ := event.NewPayload(typ)
			goFields := jsonFields(reflect.TypeOf(v).Elem())
			schemaFields := dataProperties(t, typ)
			if !reflect.DeepEqual(goFields, schemaFields) {
				t.Fatalf("field drift between Go type and schema:\n go:     %v\n schema: %v", goFields, schemaFields)
			}
		})
	}
}

func jsonFields(rt reflect.Type) []string {
	var out []string
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		if f.Anonymous {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// dataProperties lists the property names the schema allows under "data", following $ref and allOf.
func dataProperties(t *testing.T, typ string) []string {
	t.Helper()
	docs := map[string]map[string]any{}
	files, err := schemas.SchemaFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, _ := schemas.FS.ReadFile(f)
		var d map[string]any
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		docs[d["$id"].(string)] = d
	}
	resolve := func(ref string) map[string]any {
		id, ptr, _ := strings.Cut(ref, "#")
		node := any(docs[id])
		for _, part := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
			if part == "" {
				continue
			}
			node = node.(map[string]any)[part]
		}
		return node.(map[string]any)
	}
	set := map[string]bool{}
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		if ref, ok := n["$ref"].(string); ok {
			walk(resolve(ref))
		}
		if all, ok := n["allOf"].([]any); ok {
			for _, a := range all {
				walk(a.(map[string]any))
			}
		}
		if props, ok := n["properties"].(map[string]any); ok {
			for k := range props {
				set[k] = true
			}
		}
	}
	data := docs[typ]["properties"].(map[string]any)["data"].(map[string]any)
	walk(data)
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func assertSameJSON(t *testing.T, want, got []byte) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(want, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		wa, _ := json.MarshalIndent(a, "", " ")
		gb, _ := json.MarshalIndent(b, "", " ")
		t.Fatalf("round trip differs\nwant: %s\ngot:  %s", wa, gb)
	}
}
