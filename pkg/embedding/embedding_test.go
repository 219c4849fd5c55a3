package embedding

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultModelDir(t *testing.T) {
	t.Run("env override", func(t *testing.T) {
		t.Setenv(ModelDirEnv, "/opt/models/use")
		if got := DefaultModelDir(); got != "/opt/models/use" {
			t.Fatalf("DefaultModelDir() = %q", got)
		}
	})
	t.Run("repository root", func(t *testing.T) {
		t.Setenv(ModelDirEnv, "")
		root := realTempDir(t)
		if err := os.WriteFile(filepath.Join(root, "go.work"), []byte("go 1.26\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(root, "services", "embedder")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(sub)
		want := filepath.Join(root, ".cache", "models", "use-lite")
		if got := DefaultModelDir(); got != want {
			t.Fatalf("DefaultModelDir() = %q, want %q", got, want)
		}
	})
	t.Run("existing cache", func(t *testing.T) {
		t.Setenv(ModelDirEnv, "")
		root := realTempDir(t)
		want := filepath.Join(root, ".cache", "models", "use-lite")
		if err := os.MkdirAll(want, 0o755); err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(root, "deploy")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(sub)
		if got := DefaultModelDir(); got != want {
			t.Fatalf("DefaultModelDir() = %q, want %q", got, want)
		}
	})
}

// realTempDir is t.TempDir with symlinks resolved, so it compares equal to os.Getwd inside it.
func realTempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCosine(t *testing.T) {
	for _, tc := range []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 0}, []float32{0, 1}, 0},
		{[]float32{3, 4}, []float32{6, 8}, 1},
		{[]float32{1, 0}, []float32{-1, 0}, -1},
		{[]float32{1, 1}, []float32{1, 0}, 1 / math.Sqrt2},
		{[]float32{0, 0}, []float32{1, 0}, 0},
	} {
		if got := Cosine(tc.a, tc.b); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Cosine(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
