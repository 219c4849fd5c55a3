package uselite

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/embedding"
)

func randomMatrix(r *rand.Rand, rows, cols int) []float32 {
	m := make([]float32, rows*cols)
	for i := range m {
		m[i] = r.Float32()*2 - 1
	}
	return m
}

// unitRoundoff is the float32 unit roundoff, 2⁻²⁴.
const unitRoundoff = 1.0 / (1 << 24)

// sumBound bounds the rounding error of a float32 sum of terms terms of total magnitude abs, in any
// order and with or without fused multiply-adds: each term is rounded at most once when formed and
// the running sum once per addition, so the error is below terms·u·abs to first order (Higham,
// Accuracy and Stability of Numerical Algorithms, §3.1). The factor 1.01 covers the second order.
func sumBound(terms int, abs float64) float64 {
	return 1.01 * float64(terms+1) * unitRoundoff * abs
}

// kernelNeeds says what each kernel needs, for the log of the kernels a run could not check.
var kernelNeeds = map[string]string{
	KernelAVX512:  "needs amd64 with AVX-512F",
	KernelAVX2:    "needs amd64 with AVX2 and FMA",
	KernelNEON:    "needs arm64; scripts/test.sh runs it under qemu-aarch64-static",
	KernelGeneric: "always available",
}

// logUnchecked logs the kernels this CPU and build cannot run, so a passing run says which kernels it did not
// check (a run on an AVX2-only CPU says nothing about the AVX-512 kernel, and the reverse).
func logUnchecked(t *testing.T) {
	t.Helper()
	var skipped []string
	for _, name := range knownKernels {
		if !slices.Contains(Kernels(), name) {
			skipped = append(skipped, name+" ("+kernelNeeds[name]+")")
		}
	}
	if len(skipped) > 0 {
		t.Logf("checked kernels %s; not checked on this CPU and build (%s/%s): %s",
			strings.Join(Kernels(), ", "), runtime.GOOS, runtime.GOARCH, strings.Join(skipped, "; "))
	}
}

// TestKernelsMatchCPU checks that Kernels offers exactly the kernels the CPU's features allow, read
// independently of golang.org/x/sys/cpu (see expectedKernels), fastest first.
func TestKernelsMatchCPU(t *testing.T) {
	want := expectedKernels(t)
	if got := Kernels(); !slices.Equal(got, want) {
		t.Fatalf("Kernels() = %v, want %v", got, want)
	}
}

func TestWithKernel(t *testing.T) {
	for _, name := range Kernels() {
		k, err := kernelNamed(name)
		if err != nil || k.name != name {
			t.Fatalf("kernelNamed(%q) = %q, %v", name, k.name, err)
		}
	}
	for _, name := range knownKernels {
		if slices.Contains(Kernels(), name) {
			continue
		}
		_, err := kernelNamed(name)
		if err == nil || !strings.Contains(err.Error(), "cannot run on this CPU") {
			t.Errorf("kernelNamed(%q) on a CPU without it = %v, want a 'cannot run' error", name, err)
		}
	}
	if _, err := kernelNamed("sse9"); err == nil || !strings.Contains(err.Error(), `unknown kernel "sse9"`) || !strings.Contains(err.Error(), "avx2") {
		t.Errorf("kernelNamed(sse9) = %v, want an error naming the known kernels", err)
	}
}

// TestLoadWithKernel checks that the forced kernel reaches the model, and the options that conflict.
func TestLoadWithKernel(t *testing.T) {
	if got := loadModel(t, Optimized).Implementation(); got != "optimized/"+Kernels()[0] {
		t.Errorf("default Implementation() = %q, want the fastest kernel %q", got, Kernels()[0])
	}
	for _, name := range Kernels() {
		if got, want := loadKernel(t, name).Implementation(), "optimized/"+name; got != want {
			t.Errorf("WithKernel(%q): Implementation() = %q, want %q", name, got, want)
		}
	}
	if got := loadModel(t, Blocked).Implementation(); got != "blocked/generic" {
		t.Errorf("Blocked: Implementation() = %q, want blocked/generic", got)
	}
	conflicts := []struct {
		opts []Option
		want string
	}{
		{[]Option{WithKernel("sse9")}, `unknown kernel "sse9"`},
		{[]Option{WithImplementation(Naive), WithKernel(KernelGeneric)}, "does not apply to the naive implementation"},
	}
	if best := Kernels()[0]; best != KernelGeneric {
		conflicts = append(conflicts, struct {
			opts []Option
			want string
		}{[]Option{WithImplementation(Blocked), WithKernel(best)}, "does not apply to the blocked implementation"})
	}
	for _, tc := range conflicts {
		if _, err := Load(embedding.DefaultModelDir(), tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load = %v, want an error containing %q", err, tc.want)
		}
	}
}

// gemmShapes are m × k × n products with every kind of edge: k of 1–7 (below and around the NEON
// kernel's four-step unroll), k just below, at and above the k block (512) and spanning two blocks
// with a tail; an odd number of 16-column panels (the AVX-512 kernel's one-panel path); m spanning
// the m block (96) with a partial block.
var gemmShapes = [][3]int{
	{12, 1, 16}, {12, 2, 48}, {12, 3, 32}, {24, 5, 80}, {36, 7, 16}, {12, 17, 48}, {108, 63, 32},
	{204, 257, 48}, {12, 511, 16}, {24, 512, 80}, {24, 513, 48}, {12, 1029, 48}, {120, 256, 768},
}

// TestGemmKernelsAgree runs every kernel on random matrices of the shapes above, with row strides
// wider than the rows, and compares each result with a float64 product (within the float32 rounding
// bound of its sum) and with the portable kernel's result (within twice that). A and C carry NaN in
// the padding between rows: a kernel that reads past its k range or writes past its columns shows.
func TestGemmKernelsAgree(t *testing.T) {
	logUnchecked(t)
	r := rand.New(rand.NewPCG(1, 2))
	nan := float32(math.NaN())
	for _, shape := range gemmShapes {
		m, k, n := shape[0], shape[1], shape[2]
		lda, ldc := k+3, n+16
		a := make([]float32, m*lda)
		for i := range a {
			a[i] = nan
		}
		for i := 0; i < m; i++ {
			copy(a[i*lda:i*lda+k], randomMatrix(r, 1, k))
		}
		w, err := newMatrix(k, n, randomMatrix(r, k, n))
		if err != nil {
			t.Fatal(err)
		}
		c0 := randomMatrix(r, m, n) // gemm accumulates into C
		want := make([]float64, m*n)
		bound := make([]float64, m*n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				s, abs := float64(c0[i*n+j]), math.Abs(float64(c0[i*n+j]))
				for kk := 0; kk < k; kk++ {
					p := float64(a[i*lda+kk]) * float64(w.data[kk*n+j])
					s += p
					abs += math.Abs(p)
				}
				want[i*n+j], bound[i*n+j] = s, sumBound(k+1, abs)
			}
		}
		run := func(kern kernel, threads int) []float32 {
			c := make([]float32, m*ldc)
			for i := range c {
				c[i] = nan
			}
			for i := 0; i < m; i++ {
				copy(c[i*ldc:i*ldc+n], c0[i*n:(i+1)*n])
			}
			gemm(kern.gemm, threads, m, a, lda, w, c, ldc)
			return c
		}
		generic := run(genericKernel, 1)
		for _, kern := range availableKernels() {
			for _, threads := range []int{1, 2, 3} {
				c := run(kern, threads)
				name := fmt.Sprintf("%s threads=%d m=%d k=%d n=%d", kern.name, threads, m, k, n)
				for i := 0; i < m; i++ {
					for j := 0; j < ldc; j++ {
						got := c[i*ldc+j]
						if j >= n {
							if !math.IsNaN(float64(got)) {
								t.Fatalf("%s: wrote C[%d][%d] beyond the %d columns", name, i, j, n)
							}
							continue
						}
						if d := math.Abs(float64(got) - want[i*n+j]); !(d <= bound[i*n+j]) {
							t.Fatalf("%s: C[%d][%d] = %v, float64 product %v: error %.3g > bound %.3g", name, i, j, got, want[i*n+j], d, bound[i*n+j])
						}
						if d := math.Abs(float64(got - generic[i*ldc+j])); !(d <= 2*bound[i*n+j]) {
							t.Fatalf("%s: C[%d][%d] = %v, generic kernel %v: difference %.3g > %.3g", name, i, j, got, generic[i*ldc+j], d, 2*bound[i*n+j])
						}
					}
				}
			}
		}
	}
}

// TestKernelHelpers checks every kernel's attention and FFN helpers against plain float64 arithmetic
// on lengths around the vector width.
func TestKernelHelpers(t *testing.T) {
	logUnchecked(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, kern := range availableKernels() {
		for _, n := range []int{0, 1, 7, 15, 16, 17, 31, 64, 100, 128} {
			a, b := randomMatrix(r, 1, n), randomMatrix(r, 1, n+5) // b longer than a, as allowed
			var want, abs float64
			for i := range a {
				want += float64(a[i]) * float64(b[i])
				abs += math.Abs(float64(a[i]) * float64(b[i]))
			}
			if got := kern.dot(a, b); !(math.Abs(float64(got)-want) <= sumBound(n, abs)) {
				t.Errorf("%s dot n=%d: %v, want %v", kern.name, n, got, want)
			}
			x := slices.Clone(a)
			kern.relu(x)
			for i := range x {
				if x[i] != max(a[i], 0) {
					t.Fatalf("%s relu n=%d: x[%d]=%v, want %v", kern.name, n, i, x[i], max(a[i], 0))
				}
			}
			var alpha float32 = 0.37
			y := slices.Clone(a)
			kern.axpy(y, b, alpha)
			for i := range y {
				exact := float64(a[i]) + float64(alpha)*float64(b[i])
				if d := math.Abs(float64(y[i]) - exact); !(d <= sumBound(2, math.Abs(float64(a[i]))+math.Abs(float64(alpha)*float64(b[i])))) {
					t.Fatalf("%s axpy n=%d: y[%d]=%v, want %v", kern.name, n, i, y[i], exact)
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
	for _, kern := range availableKernels() {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", kern.name, threads), func(b *testing.B) {
				for b.Loop() {
					gemm(kern.gemm, threads, m, a, k, w, c, n)
				}
				b.ReportMetric(float64(2*m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
