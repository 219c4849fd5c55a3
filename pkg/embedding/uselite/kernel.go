package uselite

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
)

// Names of the kernels, for WithKernel and Kernels.
const (
	// KernelAVX512 is the amd64 assembly kernel for CPUs with AVX-512F (12×32 register tile).
	KernelAVX512 = "avx512"
	// KernelAVX2 is the amd64 assembly kernel for CPUs with AVX2 and FMA (6×16 register tile), such
	// as AMD Zen 1–3 and Intel CPUs without AVX-512.
	KernelAVX2 = "avx2"
	// KernelNEON is the arm64 assembly kernel (Advanced SIMD, 6×16 register tile).
	KernelNEON = "neon"
	// KernelGeneric is the portable pure-Go kernel: every platform, and the purego build tag.
	KernelGeneric = "generic"
)

// knownKernels lists every kernel name of any platform, for error messages.
var knownKernels = []string{KernelAVX512, KernelAVX2, KernelNEON, KernelGeneric}

// kernel is one CPU-specific implementation of the arithmetic the forward pass spends its time in:
// the matrix-product tile (over 90% of the floating-point work) and the vector helpers of attention
// and the FFN. Every kernel computes the same function up to float32 rounding.
type kernel struct {
	name string
	gemm gemmKernel
	// dot returns Σ a[i]·b[i] (len(b) ≥ len(a)).
	dot func(a, b []float32) float32
	// axpy adds alpha·x to dst (len(x) ≥ len(dst)).
	axpy func(dst, x []float32, alpha float32)
	// relu sets the negative elements of x to zero.
	relu func(x []float32)
}

var genericKernel = kernel{name: KernelGeneric, gemm: genericTile{}, dot: dot, axpy: axpy, relu: relu}

// availableKernels returns the kernels this CPU and build can run, fastest first; the portable
// kernel is always last. platformKernels is defined per architecture and checks the CPU's features.
func availableKernels() []kernel {
	return append(platformKernels(), genericKernel)
}

// Kernels returns the names of the kernels this CPU and build can run, fastest first. Load uses the
// first unless WithKernel names another; the last is always KernelGeneric.
func Kernels() []string {
	var names []string
	for _, k := range availableKernels() {
		names = append(names, k.name)
	}
	return names
}

// kernelNamed returns the kernel called name, or an error saying whether the name is unknown or
// the kernel needs a CPU feature or architecture this process does not have.
func kernelNamed(name string) (kernel, error) {
	for _, k := range availableKernels() {
		if k.name == name {
			return k, nil
		}
	}
	if slices.Contains(knownKernels, name) {
		return kernel{}, fmt.Errorf("uselite: kernel %q cannot run on this CPU or build (%s/%s); available: %s",
			name, runtime.GOOS, runtime.GOARCH, strings.Join(Kernels(), ", "))
	}
	return kernel{}, fmt.Errorf("uselite: unknown kernel %q (known: %s)", name, strings.Join(knownKernels, ", "))
}
