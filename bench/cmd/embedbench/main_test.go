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

func requireModel(t *testing.T) string {
	t.Helper()
	dir := embedding.DefaultModelDir()
	if _, err := uselite.Load(dir); errors.Is(err, embedding.ErrModelMissing) && os.Getenv("MNEME_REQUIRE_MODEL") == "" {
		t.Skipf("USE-lite weights not found in %s (run `make deps`)", dir)
	}
	return dir
}

// TestRunPrintsOneRowPerKernel runs every kernel this CPU has plus the naive baseline, briefly, and
// checks the table and the JSON: one row per kernel in the order asked, both modes measured in
// every round, the generic kernel's ratio to itself exactly 1, a load average per round.
func TestRunPrintsOneRowPerKernel(t *testing.T) {
	dir := requireModel(t)
	kernels := uselite.Kernels() // the last is always generic
	out := filepath.Join(t.TempDir(), "res", "bench.json")
	var stdout bytes.Buffer
	err := run([]string{"-model-dir", dir, "-kernels", strings.Join(kernels, ","), "-naive", "-runs", "2",
		"-min-time", "1ms", "-batch", "4", "-json", out}, &stdout)
	if err != nil {
		t.Fatal(err)
	}
	table := stdout.String()
	for _, name := range append([]string{naiveName}, kernels...) {
		if strings.Count(table, "\n| "+name+" | ") != 1 {
			t.Errorf("table should have exactly one row for %s:\n%s", name, table)
		}
	}
	if !strings.Contains(table, "| generic | ") || !strings.Contains(table, "| 1.0× / 1.0× |") {
		t.Errorf("generic row should show ratio 1.0× / 1.0×:\n%s", table)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(kernels)+1 || len(rep.Rounds) != 2 {
		t.Fatalf("want %d rows and 2 rounds, got %d rows and %d rounds", len(kernels)+1, len(rep.Results), len(rep.Rounds))
	}
	for i, res := range rep.Results {
		wantKernel := naiveName
		if i > 0 {
			wantKernel = kernels[i-1]
		}
		if res.Kernel != wantKernel {
			t.Errorf("row %d is %q, want %q", i, res.Kernel, wantKernel)
		}
		if i > 0 && res.Implementation != "optimized/"+wantKernel {
			t.Errorf("row %s ran %q: the kernel was not forced", wantKernel, res.Implementation)
		}
		for _, mr := range []ModeResult{res.Single, res.Batched} {
			if len(mr.Runs) != 2 || mr.TextsPerSec <= 0 || mr.P50Millis <= 0 || mr.RatioVsGeneric <= 0 {
				t.Errorf("row %s: incomplete measurement %+v", res.Kernel, mr)
			}
		}
		if res.Single.Batch != 1 || res.Batched.Batch != 4 {
			t.Errorf("row %s: texts per call %d / %d, want 1 / 4", res.Kernel, res.Single.Batch, res.Batched.Batch)
		}
	}
	if g := rep.Results[len(rep.Results)-1]; g.Single.RatioVsGeneric != 1 || g.Batched.RatioVsGeneric != 1 {
		t.Errorf("generic vs itself: %v / %v, want 1 / 1", g.Single.RatioVsGeneric, g.Batched.RatioVsGeneric)
	}
	for _, rd := range rep.Rounds {
		if rd.LoadAvg == "" || rd.Started.IsZero() {
			t.Errorf("round without load average or start: %+v", rd)
		}
	}
}

// TestRunKernelFromEnv checks that $MNEME_USELITE_KERNEL chooses the kernels when -kernels is not
// given, and that a kernel name this CPU cannot run is refused with the name in the error.
func TestRunKernelFromEnv(t *testing.T) {
	dir := requireModel(t)
	t.Setenv(KernelEnv, uselite.KernelGeneric)
	var stdout bytes.Buffer
	if err := run([]string{"-model-dir", dir, "-runs", "1", "-min-time", "1ms", "-batch", "2"}, &stdout); err != nil {
		t.Fatal(err)
	}
	// Rows start with "| "; the header is one of them, the separator line starts with "|-".
	if out := stdout.String(); strings.Count(out, "\n| ") != 2 || !strings.Contains(out, "\n| generic | ") {
		t.Errorf("want the header and the generic row only:\n%s", out)
	}
	t.Setenv(KernelEnv, "sse9")
	err := run([]string{"-model-dir", dir, "-runs", "1", "-min-time", "1ms"}, &stdout)
	if err == nil || !strings.Contains(err.Error(), `"sse9"`) {
		t.Errorf("run with %s=sse9: %v, want an error naming the kernel", KernelEnv, err)
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
