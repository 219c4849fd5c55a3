package uselite

import (
	"fmt"
	"sync"
)

// panelWidth is the number of columns in one packed panel of a weight matrix: two AVX registers of
// eight float32 each, and four 4-wide blocks for the pure-Go kernel.
const panelWidth = 16

// Cache blocking of the matrix product: a kc×panelWidth slice of a packed panel (16 KiB) stays in L1
// while every row block of A passes over it; an mc×kc block of A (96 KiB) stays in L2 while the panels
// pass over it.
const (
	blockK = 256
	blockM = 96
)

// rowAlign is the row count that activation buffers are padded to, so every kernel (4 or 6 rows per
// tile) always works on whole tiles.
const rowAlign = 12

// matrix is a weight matrix kept in two layouts: row-major for the naive implementation, and packed
// into column panels for the blocked kernels.
type matrix struct {
	rows, cols int
	data       []float32 // rows × cols, row-major
	// packed holds panel p (columns p·16 … p·16+15) at packed[p·rows·16:], row k of the panel at
	// offset k·16: the kernels read one panel sequentially.
	packed []float32
}

func newMatrix(rows, cols int, data []float32) (*matrix, error) {
	if cols%panelWidth != 0 {
		return nil, fmt.Errorf("uselite: matrix with %d columns is not a multiple of %d", cols, panelWidth)
	}
	m := &matrix{rows: rows, cols: cols, data: data, packed: make([]float32, rows*cols)}
	for p := 0; p < cols/panelWidth; p++ {
		panel := m.packed[p*rows*panelWidth : (p+1)*rows*panelWidth]
		for k := 0; k < rows; k++ {
			copy(panel[k*panelWidth:(k+1)*panelWidth], data[k*cols+p*panelWidth:k*cols+(p+1)*panelWidth])
		}
	}
	return m, nil
}

// gemmKernel computes one tile: C[0:rows()][0:16] += A[0:rows()][0:kc] · P[0:kc][0:16], where A
// and C have row strides lda and ldc and P is a slice of a packed panel.
type gemmKernel interface {
	name() string
	rows() int
	tile(kc int, a []float32, lda int, p []float32, c []float32, ldc int)
}

// gemm computes C[0:m][0:b.cols] += A[0:m][0:b.rows] · B using up to threads goroutines, each
// owning a range of B's panels (so of C's columns). m must be a multiple of rowAlign.
func gemm(kern gemmKernel, threads, m int, a []float32, lda int, b *matrix, c []float32, ldc int) {
	if m%rowAlign != 0 {
		panic(fmt.Sprintf("uselite: gemm rows %d not a multiple of %d", m, rowAlign))
	}
	panels := b.cols / panelWidth
	workers := min(threads, panels)
	// Below ~1 MFLOP the goroutine hand-off costs more than it saves.
	if m*b.rows*b.cols < 1<<19 {
		workers = 1
	}
	if workers <= 1 {
		gemmPanels(kern, m, a, lda, b, c, ldc, 0, panels)
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		p0, p1 := panels*w/workers, panels*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			gemmPanels(kern, m, a, lda, b, c, ldc, p0, p1)
		}()
	}
	wg.Wait()
}

func gemmPanels(kern gemmKernel, m int, a []float32, lda int, b *matrix, c []float32, ldc int, p0, p1 int) {
	mr := kern.rows()
	K := b.rows
	for k0 := 0; k0 < K; k0 += blockK {
		kc := min(blockK, K-k0)
		for i0 := 0; i0 < m; i0 += blockM {
			i1 := min(i0+blockM, m)
			for p := p0; p < p1; p++ {
				panel := b.packed[p*K*panelWidth+k0*panelWidth : p*K*panelWidth+(k0+kc)*panelWidth]
				for i := i0; i < i1; i += mr {
					kern.tile(kc, a[i*lda+k0:], lda, panel, c[i*ldc+p*panelWidth:], ldc)
				}
			}
		}
	}
}

// goKernel is the portable kernel: 4 rows × 16 columns, computed as four 4×4 register blocks.
type goKernel struct{}

func (goKernel) name() string { return "go" }
func (goKernel) rows() int    { return 4 }

func (goKernel) tile(kc int, a []float32, lda int, p []float32, c []float32, ldc int) {
	a0 := a[0*lda : 0*lda+kc]
	a1 := a[1*lda : 1*lda+kc]
	a2 := a[2*lda : 2*lda+kc]
	a3 := a[3*lda : 3*lda+kc]
	p = p[:kc*panelWidth]
	for j := 0; j < panelWidth; j += 4 {
		var c00, c01, c02, c03 float32
		var c10, c11, c12, c13 float32
		var c20, c21, c22, c23 float32
		var c30, c31, c32, c33 float32
		for k := range kc {
			b := p[k*panelWidth+j : k*panelWidth+j+4 : k*panelWidth+j+4]
			b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
			x := a0[k]
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
		r := c[0*ldc+j : 0*ldc+j+4 : 0*ldc+j+4]
		r[0], r[1], r[2], r[3] = r[0]+c00, r[1]+c01, r[2]+c02, r[3]+c03
		r = c[1*ldc+j : 1*ldc+j+4 : 1*ldc+j+4]
		r[0], r[1], r[2], r[3] = r[0]+c10, r[1]+c11, r[2]+c12, r[3]+c13
		r = c[2*ldc+j : 2*ldc+j+4 : 2*ldc+j+4]
		r[0], r[1], r[2], r[3] = r[0]+c20, r[1]+c21, r[2]+c22, r[3]+c23
		r = c[3*ldc+j : 3*ldc+j+4 : 3*ldc+j+4]
		r[0], r[1], r[2], r[3] = r[0]+c30, r[1]+c31, r[2]+c32, r[3]+c33
	}
}
