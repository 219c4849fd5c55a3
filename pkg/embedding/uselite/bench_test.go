package uselite

import (
	"context"
	"fmt"
	"testing"

	"github.com/mneme-ai/mneme/pkg/embedding/embeddingtest"
)

// The benchmarks embed 20-token texts (b.N texts per benchmark, reported as texts/s). For the
// comparison table of all kernels measured in one run, use bench/cmd/embedbench.

func benchEmbed(b *testing.B, m *Model, batch int) {
	texts := embeddingtest.Texts(256, 20, func(s string) int { return len(m.Tokenizer().Encode(s)) })
	ctx := context.Background()
	b.ResetTimer()
	done := 0
	for done < b.N {
		n := min(batch, b.N-done)
		start := done % len(texts)
		end := min(start+n, len(texts))
		if _, err := m.Embed(ctx, texts[start:end]); err != nil {
			b.Fatal(err)
		}
		done += end - start
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "texts/s")
}

func BenchmarkEmbedNaive(b *testing.B)      { benchEmbed(b, loadModel(b, Naive), 1) }
func BenchmarkEmbedSingle(b *testing.B)     { benchEmbed(b, loadModel(b, Optimized), 1) }
func BenchmarkEmbedBatched32(b *testing.B)  { benchEmbed(b, loadModel(b, Optimized), 32) }
func BenchmarkEmbedBatched256(b *testing.B) { benchEmbed(b, loadModel(b, Optimized), 256) }

// BenchmarkEmbedKernels forces every kernel this CPU can run, one text per call and 32 per call.
func BenchmarkEmbedKernels(b *testing.B) {
	for _, name := range Kernels() {
		for _, batch := range []int{1, 32} {
			b.Run(fmt.Sprintf("%s/batch=%d", name, batch), func(b *testing.B) { benchEmbed(b, loadKernel(b, name), batch) })
		}
	}
}
