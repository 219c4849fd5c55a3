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

// platformKernels returns the NEON kernel. Advanced SIMD is part of every ARMv8-A CPU that runs
// Linux; the check keeps a CPU that reports otherwise on the portable kernel. The attention and
// ReLU helpers stay in Go (the compiler fuses their multiply-adds on arm64): they are a few per
// cent of the work.
func platformKernels() []kernel {
	if !cpu.ARM64.HasASIMD {
		return nil
	}
	return []kernel{{name: KernelNEON, gemm: neonKernel{}, dot: dot, axpy: axpy, relu: relu}}
}
