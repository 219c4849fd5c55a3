// Package schemas holds Mneme's wire contracts: one JSON Schema per event type and version
// (<domain>/v1/<event>.json, $id and title = the CloudEvents type), the inbox/HTTP request schemas
// (api/v1/*.json), golden examples beside them (examples/*.json) and the OpenAPI document (openapi.yaml).
// A v1 schema never changes incompatibly; a breaking change is a v2 plus an upcaster.
package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FS holds every schema, example and the OpenAPI document.
//
//go:embed */v1/*.json */v1/examples/*.json openapi.yaml
var FS embed.FS

// EnvelopeID is the $id of the shared CloudEvents envelope schema that event schemas reference.
const EnvelopeID = "https://schemas.mneme.io/cloudevents/v1/envelope.json"

var (
	compileOnce sync.Once
	compiled    map[string]*jsonschema.Schema
	compileErr  error
)

// SchemaFiles returns the paths of every schema file (not examples) in FS.
func SchemaFiles() ([]string, error) {
	var out []string
	err := fs.WalkDir(FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".json") || strings.Contains(path, "/examples/") {
			return nil
		}
		out = append(out, path)
		return nil
	})
	return out, err
}

func compileAll() {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	files, err := SchemaFiles()
	if err != nil {
		compileErr = err
		return
	}
	ids := map[string]string{}
	for _, f := range files {
		b, err := FS.ReadFile(f)
		if err != nil {
			compileErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			compileErr = fmt.Errorf("schemas: %s: %w", f, err)
			return
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if id == "" {
			compileErr = fmt.Errorf("schemas: %s has no $id", f)
			return
		}
		if err := c.AddResource(id, doc); err != nil {
			compileErr = fmt.Errorf("schemas: %s: %w", f, err)
			return
		}
		ids[id] = f
	}
	compiled = map[string]*jsonschema.Schema{}
	for id := range ids {
		s, err := c.Compile(id)
		if err != nil {
			compileErr = fmt.Errorf("schemas: compile %s: %w", id, err)
			return
		}
		compiled[id] = s
	}
}

// Schema returns the compiled schema whose $id is id: an event type ("io.mneme.turn.v1.accepted") or a
// request schema id ("io.mneme.api.v1.turns_request").
func Schema(id string) (*jsonschema.Schema, error) {
	compileOnce.Do(compileAll)
	if compileErr != nil {
		return nil, compileErr
	}
	s, ok := compiled[id]
	if !ok {
		return nil, fmt.Errorf("schemas: no schema with $id %q", id)
	}
	return s, nil
}

// IDs lists the $id of every compiled schema.
func IDs() ([]string, error) {
	compileOnce.Do(compileAll)
	if compileErr != nil {
		return nil, compileErr
	}
	out := make([]string, 0, len(compiled))
	for id := range compiled {
		out = append(out, id)
	}
	return out, nil
}

// Validate checks the JSON document b against the schema with the given $id. The error names the failing
// location (JSON pointer) and the rule.
func Validate(id string, b []byte) error {
	s, err := Schema(id)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	return s.Validate(doc)
}

// ValidateValue checks an already decoded JSON value (from json.Unmarshal into any, with UseNumber).
func ValidateValue(id string, v any) error {
	s, err := Schema(id)
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// Example is one golden example file.
type Example struct {
	Path string
	// SchemaID is the $id of the schema the example must satisfy (the sibling schema file).
	SchemaID string
	JSON     json.RawMessage
}

// Examples returns every golden example with the $id of the schema it belongs to: examples/<name>.json and
// examples/<name>.<variant>.json belong to the schema file <name>.json in the parent directory.
func Examples() ([]Example, error) {
	var out []Example
	err := fs.WalkDir(FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(path, "/examples/") || !strings.HasSuffix(path, ".json") {
			return err
		}
		dir, file, _ := strings.Cut(path, "/examples/")
		name, _, _ := strings.Cut(strings.TrimSuffix(file, ".json"), ".")
		sb, err := FS.ReadFile(dir + "/" + name + ".json")
		if err != nil {
			return fmt.Errorf("schemas: example %s has no schema %s/%s.json", path, dir, name)
		}
		var head struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(sb, &head); err != nil {
			return err
		}
		b, err := FS.ReadFile(path)
		if err != nil {
			return err
		}
		out = append(out, Example{Path: path, SchemaID: head.ID, JSON: b})
		return nil
	})
	return out, err
}
