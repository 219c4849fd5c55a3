package uselite

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func kernels() []gemmKernel {
	ks := []gemmKernel{goKernel{}}
	if best := bestKernel(); best.name() != "go" {
		ks = append(ks, extraKernels()...)
	}
	return ks
}

func randomMatrix(r *rand.Rand, rows, cols int) []float32 {
	m := make([]float32, rows*cols)
	for i := range m {
		m[i] = r.Float32()*2 - 1
	}
	return m
}

func TestGemmKernelsMatchNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, shape := range [][3]int{{12, 256, 768}, {24, 512, 1536}, {36, 1536, 512}, {108, 300, 32}, {12, 1, 16}} {
		m, k, n := shape[0], shape[1], shape[2]
		a := randomMatrix(r, m, k)
		w, err := newMatrix(k, n, randomMatrix(r, k, n))
		if err != nil {
			t.Fatal(err)
		}
		want := naiveMatMul(a, m, w)
		for _, kern := range kernels() {
			for _, threads := range []int{1, 2, 3} {
				c := make([]float32, m*n)
				for i := range c {
					c[i] = 1 // gemm accumulates
				}
				gemm(kern, threads, m, a, k, w, c, n)
				for i := range c {
					if d := math.Abs(float64(c[i] - 1 - want[i])); d > 1e-3*math.Max(1, math.Abs(float64(want[i]))) {
						t.Fatalf("%s threads=%d %v: c[%d]=%v want %v", kern.name(), threads, shape, i, c[i]-1, want[i])
					}
				}
			}
		}
	}
}

// BenchmarkGemm measures the kernels on the FFN shape of a batch of 32 twenty-token texts.
func BenchmarkGemm(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const m, k, n = 648, 512, 1536
	a := randomMatrix(r, m, k)
	w, _ := newMatrix(k, n, randomMatrix(r, k, n))
	c := make([]float32, m*n)
	for _, kern := range kernels() {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", kern.name(), threads), func(b *testing.B) {
				for b.Loop() {
					gemm(kern, threads, m, a, k, w, c, n)
				}
				b.ReportMetric(float64(2*m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

func TestSIMDHelpers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 15, 16, 17, 64, 100, 128} {
		a, b := randomMatrix(r, 1, n), randomMatrix(r, 1, n)
		if got, want := dotSIMD(a, b), dot(a, b); math.Abs(float64(got-want)) > 1e-4 {
			t.Errorf("dotSIMD n=%d: %v, want %v", n, got, want)
		}
		r1, r2 := append([]float32(nil), a...), append([]float32(nil), a...)
		reluSIMD(r1)
		relu(r2)
		for i := range r1 {
			if r1[i] != r2[i] || r1[i] < 0 {
				t.Fatalf("reluSIMD n=%d: x[%d]=%v, want %v", n, i, r1[i], r2[i])
			}
		}
		y1, y2 := append([]float32(nil), b...), append([]float32(nil), b...)
		axpySIMD(y1, a, 0.37)
		axpy(y2, a, 0.37)
		for i := range y1 {
			if math.Abs(float64(y1[i]-y2[i])) > 1e-5 {
				t.Fatalf("axpySIMD n=%d: y[%d]=%v, want %v", n, i, y1[i], y2[i])
			}
		}
	}
}
