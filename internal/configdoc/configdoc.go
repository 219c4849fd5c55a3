// Package configdoc renders docs/configuration.md from the services' Config types: every environment variable
// with its default and the doc comment of its field, so the documentation cannot drift from the code
// (a test compares the committed file with a fresh rendering).
package configdoc

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// Section is one service's configuration type.
type Section struct {
	Title string
	// Config is a zero value of the service's Config struct.
	Config any
}

// modulePrefix maps Go import paths to directories relative to the repository root.
const modulePrefix = "github.com/mneme-ai/mneme"

// Render writes the Markdown document. root is the repository root (to read doc comments from source).
func Render(root string, sections []Section) ([]byte, error) {
	docs := map[string]string{} // "importpath.Type.Field" -> comment
	parsed := map[string]bool{}
	var buf bytes.Buffer
	buf.WriteString("# Configuration\n\n")
	buf.WriteString("Every setting is an environment variable read once at start-up; invalid values stop the process with a\n")
	buf.WriteString("message naming the variable. This file is generated from the Config types (`go test ./internal/configdoc`\n")
	buf.WriteString("fails when it is stale; `go run ./internal/configdoc/gen` rewrites it). `MNEME_*` settings shared by every\n")
	buf.WriteString("service are listed once, under \"Shared\".\n")
	seen := map[string]bool{}
	for _, s := range sections {
		var rows []string
		// walk lists t's variables; a struct field with an envPrefix (a shared type such as llm.Endpoint) lists
		// its fields under that prefix, each followed by the doc of the field that holds it (what it is for).
		var walk func(t reflect.Type, prefix, use string) error
		walk = func(t reflect.Type, prefix, use string) error {
			if err := parseDocs(root, t.PkgPath(), docs, parsed); err != nil {
				return err
			}
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				tag, _, _ := strings.Cut(f.Tag.Get("env"), ",")
				if p := f.Tag.Get("envPrefix"); p != "" && f.Type.Kind() == reflect.Struct && tag == "" {
					if err := walk(f.Type, prefix+p, readable(f.Name, docs[t.PkgPath()+"."+t.Name()+"."+f.Name])); err != nil {
						return err
					}
					continue
				}
				if f.Anonymous && f.Type.Kind() == reflect.Struct && tag == "" {
					if err := walk(f.Type, prefix, use); err != nil {
						return err
					}
					continue
				}
				if tag == "" {
					continue
				}
				tag = prefix + tag
				if seen[tag] {
					continue
				}
				seen[tag] = true
				def := f.Tag.Get("envDefault")
				if def == "" {
					def = "*(empty)*"
				} else {
					def = "`" + def + "`"
				}
				doc := readable(f.Name, docs[t.PkgPath()+"."+t.Name()+"."+f.Name])
				if use != "" {
					doc += " " + use
				}
				rows = append(rows, fmt.Sprintf("| `%s` | %s | %s |", tag, def, doc))
			}
			return nil
		}
		if err := walk(reflect.TypeOf(s.Config), "", ""); err != nil {
			return nil, err
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&buf, "\n## %s\n\n| variable | default | meaning |\n|---|---|---|\n%s\n", s.Title, strings.Join(rows, "\n"))
	}
	return buf.Bytes(), nil
}

// parseDocs reads the doc comments of every struct field in the package at importPath.
func parseDocs(root, importPath string, docs map[string]string, parsed map[string]bool) error {
	if parsed[importPath] {
		return nil
	}
	parsed[importPath] = true
	rel, ok := strings.CutPrefix(importPath, modulePrefix)
	if !ok {
		return nil
	}
	dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(rel, "/")))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fld := range st.Fields.List {
				text := ""
				if fld.Doc != nil {
					text = fld.Doc.Text()
				} else if fld.Comment != nil {
					text = fld.Comment.Text()
				}
				text = strings.Join(strings.Fields(text), " ")
				text = strings.ReplaceAll(text, "|", "\\|")
				for _, name := range fld.Names {
					docs[importPath+"."+ts.Name.Name+"."+name.Name] = text
				}
			}
			return true
		})
	}
	return nil
}

// readable drops the Go-style leading field name from a doc comment ("HTTPAddr is where …" → "Where …").
func readable(field, doc string) string {
	rest, ok := strings.CutPrefix(doc, field+" ")
	if !ok {
		return doc
	}
	rest = strings.TrimPrefix(rest, "is ")
	rest = strings.TrimPrefix(rest, "are ")
	if rest == "" {
		return doc
	}
	return strings.ToUpper(rest[:1]) + rest[1:]
}
