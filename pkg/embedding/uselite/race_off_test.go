//go:build !race

package uselite

const raceEnabled = false
