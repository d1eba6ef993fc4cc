//go:build !linux && !darwin && !purego

package keccak

// hasSHA3: this OS is not asked; the portable permutation runs.
func hasSHA3() bool { return false }
