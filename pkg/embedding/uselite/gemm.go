package uselite

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// panelWidth is the number of columns in one packed panel of a weight matrix: two AVX2 registers or
// one AVX-512 register of float32.
const panelWidth = 16

// Cache blocking of the matrix product: a kc×panelWidth slice of a packed panel (16 KiB) stays in L1
// while every row block of A passes over it; an mc×kc block of A (96 KiB) stays in L2 while the panels
// pass over it.
var (
	blockK = 512
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

// gemmKernel computes one tile: C[0:rows()][0:16·panels()] += A[0:rows()][0:kc] · P[0:kc][…], where
// A and C have row strides lda and ldc, and P holds panels() adjacent packed panels, the first at
// p[0:], the next at p[pstride:], each read kc rows deep.
type gemmKernel interface {
	rows() int
	panels() int
	// narrow returns a kernel with the same rows() and one panel, for matrices with an odd panel count.
	narrow() gemmKernel
	tile(kc int, a []float32, lda int, p []float32, pstride int, c []float32, ldc int)
}

// gemm computes C[0:m][0:b.cols] += A[0:m][0:b.rows] · B using up to threads goroutines (the caller
// included). m must be a multiple of rowAlign.
//
// The work is cut into chunks — a block of blockM rows × a group of panels — that the goroutines take
// in turn, so a goroutine slowed down by other load on the machine does not hold the others up. Big
// batches are cut by rows only (each A block is read once, B streams past it); small ones (a single
// text) by columns as well, so both cores have work.
func gemm(kern gemmKernel, threads, m int, a []float32, lda int, b *matrix, c []float32, ldc int) {
	if m%rowAlign != 0 {
		panic(fmt.Sprintf("uselite: gemm rows %d not a multiple of %d", m, rowAlign))
	}
	if (b.cols/panelWidth)%kern.panels() != 0 {
		kern = kern.narrow()
	}
	units := b.cols / panelWidth / kern.panels()
	rowBlocks := (m + blockM - 1) / blockM
	workers := threads
	// Below ~1 MFLOP the goroutine hand-off costs more than it saves.
	if m*b.rows*b.cols < 1<<19 {
		workers = 1
	}
	if workers <= 1 {
		gemmChunk(kern, 0, m, a, lda, b, c, ldc, 0, units)
		return
	}
	// Aim for at least two chunks per goroutine.
	colGroups := min(units, max(1, (2*workers+rowBlocks-1)/rowBlocks))
	chunks := rowBlocks * colGroups
	var next atomic.Int32
	work := func() {
		for {
			ch := int(next.Add(1)) - 1
			if ch >= chunks {
				return
			}
			rb, cg := ch/colGroups, ch%colGroups
			i0 := rb * blockM
			gemmChunk(kern, i0, min(i0+blockM, m), a, lda, b, c, ldc, units*cg/colGroups, units*(cg+1)/colGroups)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < min(workers, chunks); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// gemmChunk computes rows [i0, i1) of C for the columns covered by units [u0, u1) of kern.panels()
// panels each.
func gemmChunk(kern gemmKernel, i0, i1 int, a []float32, lda int, b *matrix, c []float32, ldc int, u0, u1 int) {
	mr, np := kern.rows(), kern.panels()
	K := b.rows
	stride := K * panelWidth
	for k0 := 0; k0 < K; k0 += blockK {
		kc := min(blockK, K-k0)
		for ib := i0; ib < i1; ib += blockM {
			ie := min(ib+blockM, i1)
			for p := u0 * np; p < u1*np; p += np {
				panel := b.packed[p*stride+k0*panelWidth:]
				for i := ib; i < ie; i += mr {
					kern.tile(kc, a[i*lda+k0:], lda, panel, stride, c[i*ldc+p*panelWidth:], ldc)
				}
			}
		}
	}
}
