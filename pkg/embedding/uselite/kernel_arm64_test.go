//go:build arm64 && !purego

package uselite

import "testing"

// expectedKernels is NEON then the portable kernel: Advanced SIMD is part of every ARMv8-A CPU
// that runs Linux (and of the CPU qemu emulates).
func expectedKernels(*testing.T) []string { return []string{KernelNEON, KernelGeneric} }
