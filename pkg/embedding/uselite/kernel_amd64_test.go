//go:build amd64 && !purego

package uselite

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// expectedKernels reads the CPU's features from /proc/cpuinfo (Linux lists there only the features
// the kernel has enabled, AVX-512 state saving included) and derives the kernels it allows.
func expectedKernels(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("CPU features read from /proc/cpuinfo, which only Linux has")
	}
	raw, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("cannot read /proc/cpuinfo: %v", err)
	}
	var flags []string
	for _, line := range strings.Split(string(raw), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			flags = strings.Fields(v)
			break
		}
	}
	if flags == nil {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	has := func(f string) bool { return slices.Contains(flags, f) }
	switch {
	case has("avx512f") && has("avx2") && has("fma"):
		return []string{KernelAVX512, KernelAVX2, KernelGeneric}
	case has("avx2") && has("fma"):
		return []string{KernelAVX2, KernelGeneric}
	}
	return []string{KernelGeneric}
}
