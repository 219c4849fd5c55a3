// Command gen rewrites docs/configuration.md from the Config types. Run from the repository root:
//
//	go run ./internal/configdoc/gen
package main

import (
	"fmt"
	"os"

	"github.com/mneme-ai/mneme/internal/configdoc"
)

func main() {
	b, err := configdoc.Render(".", configdoc.Sections())
	if err == nil {
		err = os.WriteFile("docs/configuration.md", b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "configdoc:", err)
		os.Exit(1)
	}
}
