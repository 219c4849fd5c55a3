package uselite

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme/pkg/embedding/embeddingtest"
)

// The benchmarks embed 20-token texts (b.N texts per benchmark, reported as texts/s). For the
// comparison table of all implementations measured in one run, use bench/cmd/embedbench.

func benchEmbed(b *testing.B, impl Implementation, batch int) {
	m := loadModel(b, impl)
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

func BenchmarkEmbedNaive(b *testing.B)            { benchEmbed(b, Naive, 1) }
func BenchmarkEmbedBlockedSingle(b *testing.B)    { benchEmbed(b, Blocked, 1) }
func BenchmarkEmbedBlockedBatched32(b *testing.B) { benchEmbed(b, Blocked, 32) }
func BenchmarkEmbedSingle(b *testing.B)           { benchEmbed(b, Optimized, 1) }
func BenchmarkEmbedBatched32(b *testing.B)        { benchEmbed(b, Optimized, 32) }
func BenchmarkEmbedBatched256(b *testing.B)       { benchEmbed(b, Optimized, 256) }
