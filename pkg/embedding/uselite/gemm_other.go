//go:build !(amd64 || arm64) || purego

package uselite

// platformKernels returns no kernel: this platform (or the purego build tag) has only the portable one.
func platformKernels() []kernel { return nil }
