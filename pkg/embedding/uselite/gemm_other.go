//go:build !amd64 || purego

package uselite

// bestKernel returns the portable kernel: no assembly kernel exists for this platform (or the
// purego build tag is set).
func bestKernel() gemmKernel { return goKernel{} }

func extraKernels() []gemmKernel { return nil }

func dotSIMD(a, b []float32) float32 { return dot(a, b) }

func axpySIMD(dst, x []float32, alpha float32) { axpy(dst, x, alpha) }

func reluSIMD(x []float32) { relu(x) }
