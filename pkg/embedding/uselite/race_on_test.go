//go:build race

package uselite

// raceEnabled trims the slowest parity checks: the race detector slows scalar Go code about tenfold.
const raceEnabled = true
