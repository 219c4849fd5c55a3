//go:build amd64 && !purego

package uselite

import "golang.org/x/sys/cpu"

// avx2Kernel is the amd64 kernel: 6 rows × 16 columns held in twelve YMM accumulators, one fused
// multiply-add per accumulator and step of k.
type avx2Kernel struct{}

func (avx2Kernel) name() string { return "avx2" }
func (avx2Kernel) rows() int    { return 6 }

func (avx2Kernel) tile(kc int, a []float32, lda int, p []float32, c []float32, ldc int) {
	// The assembly reads a[r·lda : r·lda+kc] for r < 6, p[:kc·16] and c[r·ldc : r·ldc+16]: check
	// them once here so a bug cannot read or write outside the slices.
	_ = a[5*lda+kc-1]
	_ = p[kc*panelWidth-1]
	_ = c[5*ldc+panelWidth-1]
	tile6x16AVX2(kc, &a[0], lda, &p[0], &c[0], ldc)
}

//go:noescape
func tile6x16AVX2(kc int, a *float32, lda int, p *float32, c *float32, ldc int)

// bestKernel returns the fastest kernel this CPU supports.
func bestKernel() gemmKernel {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		return avx2Kernel{}
	}
	return goKernel{}
}
