package configdoc_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/configdoc"
)

// TestConfigurationDocIsCurrent fails when a Config field was added, renamed, re-defaulted or re-documented
// without regenerating docs/configuration.md.
func TestConfigurationDocIsCurrent(t *testing.T) {
	want, err := configdoc.Render("../..", configdoc.Sections())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("docs/configuration.md is stale: run `go run ./internal/configdoc/gen` from the repository root")
	}
	for _, line := range strings.Split(string(want), "\n") {
		if strings.HasPrefix(line, "| `MNEME_") && strings.HasSuffix(line, "|  |") {
			t.Errorf("undocumented setting (add a doc comment to its field): %s", line)
		}
	}
}
