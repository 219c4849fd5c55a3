// Package embedding defines the contract every text embedder in Mneme implements, and where the
// default local model's weights live on disk.
//
// Implementations: package uselite (the default, in-process Universal Sentence Encoder lite, pure Go)
// and the OpenAI-compatible embeddings client in this package.
package embedding

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
)

// Embedder turns texts into L2-normalised vectors. Implementations are safe for concurrent use.
type Embedder interface {
	// Model is the stable model id recorded with every vector, e.g. "use-lite-v1". Vectors with
	// different model ids are not comparable.
	Model() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one vector per text, in order. An empty slice yields an empty result.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ErrModelMissing reports that a local model's weight files are not where the embedder looked.
// Errors wrapping it name the directory; `make deps` (scripts/fetch-model.sh) fetches the weights.
var ErrModelMissing = errors.New("embedding model weights not found: run `make deps` to fetch them (or set MNEME_MODEL_DIR)")

// ModelDirEnv names the environment variable that overrides DefaultModelDir.
const ModelDirEnv = "MNEME_MODEL_DIR"

// DefaultModelDir returns the directory holding the default local model (Universal Sentence Encoder
// lite), chosen by this rule:
//
//  1. $MNEME_MODEL_DIR, when set and not empty;
//  2. otherwise <root>/.cache/models/use-lite, where <root> is the nearest directory, starting at the
//     working directory and walking up, that contains a go.work file (the Mneme repository root) or
//     already contains .cache/models/use-lite;
//  3. otherwise <working directory>/.cache/models/use-lite.
//
// scripts/fetch-model.sh (run by `make deps`) fills the same directory: $MNEME_MODEL_DIR, else
// .cache/models/use-lite under the repository root.
func DefaultModelDir() string {
	if dir := os.Getenv(ModelDirEnv); dir != "" {
		return dir
	}
	const rel = ".cache/models/use-lite"
	wd, err := os.Getwd()
	if err != nil {
		return filepath.FromSlash(rel)
	}
	for dir := wd; ; {
		if isDir(filepath.Join(dir, filepath.FromSlash(rel))) || isFile(filepath.Join(dir, "go.work")) {
			return filepath.Join(dir, filepath.FromSlash(rel))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return filepath.Join(wd, filepath.FromSlash(rel))
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// Cosine is the cosine similarity of two vectors of the same length (0 when either is all zeros). It is
// computed in float64 with explicit conversions, which forbid fused multiply-add: the same inputs give the same
// bits on every architecture, so a replay elsewhere makes the same decisions from it.
func Cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += float64(x * y)
		na += float64(x * x)
		nb += float64(y * y)
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}
