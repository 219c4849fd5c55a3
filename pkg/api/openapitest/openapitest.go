// Package openapitest reads the OpenAPI document (schemas/openapi.yaml) for tests that check the API's
// responses against it.
package openapitest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/mneme-ai/mneme/schemas"
)

const openapiURL = "https://schemas.mneme.io/openapi.json"

// Doc loads schemas/openapi.yaml as a JSON-like tree.
func Doc(t testing.TB) map[string]any {
	t.Helper()
	b, err := schemas.FS.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	return doc
}

// Components compiles the named component schemas of the OpenAPI document (JSON Schema 2020-12, formats
// asserted).
func Components(t testing.TB, names ...string) map[string]*jsonschema.Schema {
	t.Helper()
	// Round-trip through JSON so the compiler sees JSON types (YAML decodes integers as int).
	raw, err := json.Marshal(Doc(t))
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(openapiURL, v); err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Schema{}
	for _, n := range names {
		s, err := c.Compile(openapiURL + "#/components/schemas/" + n)
		if err != nil {
			t.Fatalf("compile %s: %v", n, err)
		}
		out[n] = s
	}
	return out
}
