package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
)

func TestRunPrintsTableAndJSON(t *testing.T) {
	dir := embedding.DefaultModelDir()
	if _, err := uselite.Load(dir); errors.Is(err, embedding.ErrModelMissing) && os.Getenv("MNEME_REQUIRE_MODEL") == "" {
		t.Skipf("USE-lite weights not found in %s (run `make deps`)", dir)
	}
	out := filepath.Join(t.TempDir(), "res", "bench.json")
	var stdout bytes.Buffer
	err := run([]string{"-model-dir", dir, "-impls", "blocked,optimized", "-runs", "1", "-min-time", "1ms",
		"-batch", "4", "-json", out}, &stdout)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "| optimized | optimized/") || !strings.Contains(stdout.String(), "| blocked | blocked/go | batched | 4 |") {
		t.Fatalf("table missing rows:\n%s", stdout.String())
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 4 || rep.Results[0].TextsPerSec <= 0 {
		t.Fatalf("unexpected report: %+v", rep)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
