//go:build amd64 || 386

package uselite

// genericTile is the portable kernel on x86 (amd64 CPUs without AVX2+FMA, the purego build tag):
// 4 rows × 16 columns, one row at a time with its 16 sums in an array while it streams down the
// panel. x86 has 15 usable X registers in Go's ABI and no fused multiply-add below GOAMD64=v3:
// register blocks of scalar locals (4×4, 2×4) make the compiler spill and measured slower than this
// layout, whose sums the CPU keeps close through store-to-load forwarding.
type genericTile struct{}

func (genericTile) rows() int   { return 4 }
func (genericTile) panels() int { return 1 }

func (k genericTile) narrow() gemmKernel { return k }

func (genericTile) tile(kc int, a []float32, lda int, p []float32, _ int, c []float32, ldc int) {
	p = p[:kc*panelWidth]
	for r := 0; r < 4; r++ {
		var acc [panelWidth]float32
		for k, x := range a[r*lda : r*lda+kc] {
			b := (*[panelWidth]float32)(p[k*panelWidth : (k+1)*panelWidth])
			acc[0] += x * b[0]
			acc[1] += x * b[1]
			acc[2] += x * b[2]
			acc[3] += x * b[3]
			acc[4] += x * b[4]
			acc[5] += x * b[5]
			acc[6] += x * b[6]
			acc[7] += x * b[7]
			acc[8] += x * b[8]
			acc[9] += x * b[9]
			acc[10] += x * b[10]
			acc[11] += x * b[11]
			acc[12] += x * b[12]
			acc[13] += x * b[13]
			acc[14] += x * b[14]
			acc[15] += x * b[15]
		}
		row := (*[panelWidth]float32)(c[r*ldc : r*ldc+panelWidth])
		for j := range row {
			row[j] += acc[j]
		}
	}
}
