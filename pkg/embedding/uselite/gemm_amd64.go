//go:build amd64 && !purego

package uselite

import "golang.org/x/sys/cpu"

// avx2Kernel is the amd64 kernel: 6 rows × 16 columns held in twelve YMM accumulators, one fused
// multiply-add per accumulator and step of k.
type avx2Kernel struct{}

func (avx2Kernel) rows() int   { return 6 }
func (avx2Kernel) panels() int { return 1 }

func (k avx2Kernel) narrow() gemmKernel { return k }

func (avx2Kernel) tile(kc int, a []float32, lda int, p []float32, _ int, c []float32, ldc int) {
	// The assembly reads a[r·lda : r·lda+kc] for r < 6, p[:kc·16] and c[r·ldc : r·ldc+16]: check
	// them once here so a bug cannot read or write outside the slices.
	_ = a[5*lda+kc-1]
	_ = p[kc*panelWidth-1]
	_ = c[5*ldc+panelWidth-1]
	tile6x16AVX2(kc, &a[0], lda, &p[0], &c[0], ldc)
}

// avx512x16Kernel uses AVX-512: 12 rows × 16 columns, one ZMM accumulator per row, A broadcast
// by the FMAs from memory.
type avx512x16Kernel struct{}

func (avx512x16Kernel) rows() int   { return 12 }
func (avx512x16Kernel) panels() int { return 1 }

func (k avx512x16Kernel) narrow() gemmKernel { return k }

func (avx512x16Kernel) tile(kc int, a []float32, lda int, p []float32, _ int, c []float32, ldc int) {
	_ = a[11*lda+kc-1]
	_ = p[kc*panelWidth-1]
	_ = c[11*ldc+panelWidth-1]
	tile12x16AVX512(kc, &a[0], lda, &p[0], &c[0], ldc)
}

// avx512Kernel uses AVX-512 on two panels at once: 12 rows × 32 columns in 24 ZMM accumulators, so
// each broadcast A value feeds two FMAs.
type avx512Kernel struct{}

func (avx512Kernel) rows() int   { return 12 }
func (avx512Kernel) panels() int { return 2 }

func (avx512Kernel) narrow() gemmKernel { return avx512x16Kernel{} }

func (avx512Kernel) tile(kc int, a []float32, lda int, p []float32, pstride int, c []float32, ldc int) {
	_ = a[11*lda+kc-1]
	_ = p[pstride+kc*panelWidth-1]
	_ = c[11*ldc+2*panelWidth-1]
	tile12x32AVX512(kc, &a[0], lda, &p[0], pstride, &c[0], ldc)
}

//go:noescape
func tile12x32AVX512(kc int, a *float32, lda int, p *float32, pstride int, c *float32, ldc int)

//go:noescape
func tile12x16AVX512(kc int, a *float32, lda int, p *float32, c *float32, ldc int)

//go:noescape
func tile6x16AVX2(kc int, a *float32, lda int, p *float32, c *float32, ldc int)

//go:noescape
func dotAVX2(a, b *float32, n int) float32

//go:noescape
func axpyAVX2(alpha float32, x, y *float32, n int)

//go:noescape
func reluAVX2(x *float32, n int)

// platformKernels returns the amd64 assembly kernels this CPU supports, fastest first. The AVX-512
// kernel shares the AVX2 vector helpers (every CPU with AVX-512F has AVX2 and FMA; x/sys/cpu also
// checks that the operating system saves the wider registers).
func platformKernels() []kernel {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return nil
	}
	avx2 := kernel{name: KernelAVX2, gemm: avx2Kernel{}, dot: dotAVX2Slices, axpy: axpyAVX2Slices, relu: reluAVX2Slices}
	if !cpu.X86.HasAVX512F {
		return []kernel{avx2}
	}
	avx512 := avx2
	avx512.name, avx512.gemm = KernelAVX512, avx512Kernel{}
	return []kernel{avx512, avx2}
}

// reluAVX2Slices sets the negative elements of x to zero.
func reluAVX2Slices(x []float32) {
	n := len(x) &^ 15
	if n > 0 {
		reluAVX2(&x[0], n)
	}
	relu(x[n:])
}

// dotAVX2Slices returns Σ a[i]·b[i] (len(b) ≥ len(a)).
func dotAVX2Slices(a, b []float32) float32 {
	n := len(a) &^ 15
	if n == 0 {
		return dot(a, b)
	}
	_ = b[len(a)-1]
	s := dotAVX2(&a[0], &b[0], n)
	if n < len(a) {
		s += dot(a[n:], b[n:len(a)])
	}
	return s
}

// axpyAVX2Slices adds alpha·x to dst (len(x) ≥ len(dst)).
func axpyAVX2Slices(dst, x []float32, alpha float32) {
	n := len(dst) &^ 15
	if n == 0 {
		axpy(dst, x, alpha)
		return
	}
	_ = x[len(dst)-1]
	axpyAVX2(alpha, &x[0], &dst[0], n)
	if n < len(dst) {
		axpy(dst[n:], x[n:len(dst)], alpha)
	}
}
