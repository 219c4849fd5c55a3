//go:build !amd64 || purego

package uselite

// bestKernel returns the portable kernel: no assembly kernel exists for this platform (or the
// purego build tag is set).
func bestKernel() gemmKernel { return goKernel{} }
