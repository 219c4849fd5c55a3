//go:build !(amd64 || arm64) || purego

package uselite

import "testing"

// expectedKernels is the portable kernel alone: there is no assembly kernel for this platform, or
// the purego build tag excludes them.
func expectedKernels(*testing.T) []string { return []string{KernelGeneric} }
