package uselite

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-ai/mneme/pkg/embedding"
)

func TestLoadMissingWeights(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir)
	if !errors.Is(err, embedding.ErrModelMissing) {
		t.Fatalf("Load(empty dir) = %v, want ErrModelMissing", err)
	}
	if !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "make deps") {
		t.Errorf("error should name the directory and `make deps`: %v", err)
	}
	// A directory with the vocabulary but no graph names the missing file.
	if err := os.WriteFile(filepath.Join(dir, vocabFile), []byte(`[["a",0]]`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir)
	if !errors.Is(err, embedding.ErrModelMissing) || !strings.Contains(err.Error(), modelFile) {
		t.Fatalf("Load(no model.json) = %v, want ErrModelMissing naming %s", err, modelFile)
	}
}

func TestLoadRejectsCorruptShards(t *testing.T) {
	src := embedding.DefaultModelDir()
	if _, err := os.Stat(filepath.Join(src, modelFile)); err != nil {
		loadModel(t, Optimized) // skips or fails with the standard message
	}
	dir := t.TempDir()
	for _, name := range []string{modelFile, vocabFile, "group1-shard1of7", "group1-shard2of7", "group1-shard3of7",
		"group1-shard4of7", "group1-shard5of7", "group1-shard6of7"} {
		if err := os.Symlink(filepath.Join(src, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	// The last shard is truncated.
	if err := os.WriteFile(filepath.Join(dir, "group1-shard7of7"), make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || errors.Is(err, embedding.ErrModelMissing) || !strings.Contains(err.Error(), "too short") {
		t.Fatalf("Load(truncated shard) = %v, want a corrupt-download error", err)
	}
}

func TestLoadRejectsUnexpectedGraph(t *testing.T) {
	src := embedding.DefaultModelDir()
	if _, err := os.Stat(filepath.Join(src, modelFile)); err != nil {
		loadModel(t, Optimized) // skips or fails with the standard message
	}
	raw, err := os.ReadFile(filepath.Join(src, modelFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	const target = "TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/qkv_transform_single/Conv2D"
	found := false
	for _, n := range doc["modelTopology"].(map[string]any)["node"].([]any) {
		if node := n.(map[string]any); strings.HasSuffix(node["name"].(string), target) {
			node["op"] = "DepthwiseConv2dNative"
			found = true
		}
	}
	if !found {
		t.Fatalf("model.json has no node %s", target)
	}
	edited, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, modelFile), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{vocabFile, "group1-shard1of7", "group1-shard2of7", "group1-shard3of7",
		"group1-shard4of7", "group1-shard5of7", "group1-shard6of7", "group1-shard7of7"} {
		if err := os.Symlink(filepath.Join(src, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Load(dir)
	if err == nil || !strings.Contains(err.Error(), "want Conv2D") {
		t.Fatalf("Load(graph with an unexpected op) = %v, want an error naming the node", err)
	}
}

func TestEmbedContract(t *testing.T) {
	m := loadModel(t, Optimized)
	if m.Model() != ModelID || m.Dim() != Dim {
		t.Fatalf("Model()=%q Dim()=%d", m.Model(), m.Dim())
	}
	ctx := context.Background()
	out, err := m.Embed(ctx, nil)
	if err != nil || len(out) != 0 {
		t.Fatalf("Embed(nil) = %v, %v", out, err)
	}
	texts := []string{"", "hello", "", strings.Repeat("word ", 400), "hello"}
	out, err = m.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		var n float64
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("text %d: non-finite value", i)
			}
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-4 {
			t.Errorf("text %d: squared norm %v, want 1", i, n)
		}
	}
	if c := cosine(out[1], toF64(out[4])); c < 0.999999 {
		t.Errorf("same text, different vectors in one batch: cosine %v", c)
	}
	// Truncation: only the first MaxTokens tokens count.
	ids := m.Tokenizer().Encode(texts[3])
	if len(ids) <= MaxTokens {
		t.Fatalf("long text has only %d tokens", len(ids))
	}
	longer, err := m.Embed(ctx, []string{texts[3] + " and then many more different words at the end"})
	if err != nil {
		t.Fatal(err)
	}
	if c := cosine(out[3], toF64(longer[0])); c < 0.999999 {
		t.Errorf("text beyond %d tokens changed the vector: cosine %v", MaxTokens, c)
	}
}

func TestEmbedBatchSplitting(t *testing.T) {
	m := loadModel(t, Optimized)
	small, err := Load(embedding.DefaultModelDir(), WithMaxBatchTokens(1), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"one", "two words", strings.Repeat("many tokens here ", 30), "last"}
	a, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := small.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if c := cosine(a[i], toF64(b[i])); c < 0.99999 {
			t.Errorf("text %d: batch split changed the vector: cosine %v", i, c)
		}
	}
}

func TestEmbedCancelled(t *testing.T) {
	m := loadModel(t, Optimized)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, []string{"hello"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Embed(cancelled ctx) = %v, want context.Canceled", err)
	}
}

func TestEmbedConcurrent(t *testing.T) {
	m := loadModel(t, Optimized)
	texts := []string{"Alice moved to Berlin.", "Bob likes green tea.", "The meeting is at 10:30."}
	want, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < 5; r++ {
				got, err := m.Embed(context.Background(), texts[g%len(texts):])
				if err != nil {
					errs <- err
					return
				}
				for i := range got {
					if c := cosine(got[i], toF64(want[g%len(texts)+i])); c < 0.99999 {
						t.Errorf("concurrent Embed differs: cosine %v", c)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func toF64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}
