//go:build !(amd64 || 386)

package uselite

// genericTile is the portable kernel for architectures with 32 floating-point registers (arm64,
// riscv64, ppc64le, …): 4 rows × 16 columns, computed as four 4×4 blocks whose 16 sums are separate
// local variables, so the compiler keeps them in registers. On arm64 the inner loop is 8 loads and
// 16 fused multiply-adds (FMADDS) per step of k, where a [16]float32 accumulator (the x86 layout)
// costs a load and a store around every multiply-add. Chosen from the compiler's output: no arm64
// hardware was at hand to time it.
type genericTile struct{}

func (genericTile) rows() int   { return 4 }
func (genericTile) panels() int { return 1 }

func (k genericTile) narrow() gemmKernel { return k }

func (genericTile) tile(kc int, a []float32, lda int, p []float32, _ int, c []float32, ldc int) {
	a0 := a[:kc]
	a1 := a[lda : lda+kc][:len(a0)]
	a2 := a[2*lda : 2*lda+kc][:len(a0)]
	a3 := a[3*lda : 3*lda+kc][:len(a0)]
	for q := 0; q < panelWidth; q += 4 {
		var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 float32
		pq := p[q:]
		for k, x := range a0 {
			b := (*[4]float32)(pq[k*panelWidth:])
			b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
			c00 += x * b0
			c01 += x * b1
			c02 += x * b2
			c03 += x * b3
			x = a1[k]
			c10 += x * b0
			c11 += x * b1
			c12 += x * b2
			c13 += x * b3
			x = a2[k]
			c20 += x * b0
			c21 += x * b1
			c22 += x * b2
			c23 += x * b3
			x = a3[k]
			c30 += x * b0
			c31 += x * b1
			c32 += x * b2
			c33 += x * b3
		}
		addQuad(c[q:], c00, c01, c02, c03)
		addQuad(c[ldc+q:], c10, c11, c12, c13)
		addQuad(c[2*ldc+q:], c20, c21, c22, c23)
		addQuad(c[3*ldc+q:], c30, c31, c32, c33)
	}
}

// addQuad adds v0…v3 to dst[0:4].
func addQuad(dst []float32, v0, v1, v2, v3 float32) {
	d := (*[4]float32)(dst)
	d[0] += v0
	d[1] += v1
	d[2] += v2
	d[3] += v3
}
