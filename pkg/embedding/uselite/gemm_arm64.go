//go:build arm64 && !purego

package uselite

import "golang.org/x/sys/cpu"

// neonKernel is the arm64 kernel: 6 rows × 16 columns in 24 of the 32 NEON registers, the A values
// of four steps of k loaded together and used lane by lane by the by-element FMLA, so the only
// loads besides the panel are one 16-byte load per row and four steps.
type neonKernel struct{}

func (neonKernel) rows() int   { return 6 }
func (neonKernel) panels() int { return 1 }

func (k neonKernel) narrow() gemmKernel { return k }

func (neonKernel) tile(kc int, a []float32, lda int, p []float32, _ int, c []float32, ldc int) {
	// The assembly reads a[r·lda : r·lda+kc] for r < 6, p[:kc·16] and c[r·ldc : r·ldc+16], and
	// writes the latter: check them once here so a bug cannot reach outside the slices.
	_ = a[5*lda+kc-1]
	_ = p[kc*panelWidth-1]
	_ = c[5*ldc+panelWidth-1]
	tile6x16NEON(kc, &a[0], lda, &p[0], &c[0], ldc)
}

//go:noescape
func tile6x16NEON(kc int, a *float32, lda int, p *float32, c *float32, ldc int)

//go:noescape
func dotNEON(a, b *float32, n int, sums *[4]float32)

//go:noescape
func axpyNEON(alpha float32, x, y *float32, n int)

// dotNEONSlices returns Σ a[i]·b[i] (len(b) ≥ len(a)).
func dotNEONSlices(a, b []float32) float32 {
	n := len(a) &^ 15
	if n == 0 {
		return dot(a, b)
	}
	_ = b[len(a)-1]
	var s [4]float32
	dotNEON(&a[0], &b[0], n, &s)
	sum := (s[0] + s[1]) + (s[2] + s[3])
	if n < len(a) {
		sum += dot(a[n:], b[n:len(a)])
	}
	return sum
}

// axpyNEONSlices adds alpha·x to dst (len(x) ≥ len(dst)).
func axpyNEONSlices(dst, x []float32, alpha float32) {
	n := len(dst) &^ 15
	if n == 0 {
		axpy(dst, x, alpha)
		return
	}
	_ = x[len(dst)-1]
	axpyNEON(alpha, &x[0], &dst[0], n)
	if n < len(dst) {
		axpy(dst[n:], x[n:len(dst)], alpha)
	}
}

// platformKernels returns the NEON kernel. Advanced SIMD is part of every ARMv8-A CPU that runs
// Linux; the check keeps a CPU that reports otherwise on the portable kernel. Attention's dot
// products and axpy are NEON too (a fifth of the work of a 128-token text would otherwise be scalar);
// ReLU stays in Go (one comparison per 512 multiply-adds of the FFN).
func platformKernels() []kernel {
	if !cpu.ARM64.HasASIMD {
		return nil
	}
	return []kernel{{name: KernelNEON, gemm: neonKernel{}, dot: dotNEONSlices, axpy: axpyNEONSlices, relu: relu}}
}
