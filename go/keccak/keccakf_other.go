//go:build !amd64 || purego

package keccak

const generatedBuilt = false

const generatedFunctions = 0

func kernelsHere() []string { return []string{"portable"} }

// useKernel names the permutation in use: the portable one here.
var useKernel = "portable"

var kernelName = useKernel

func permute(a *[25]uint64) { keccakF1600Generic(a) }

func absorb(a *[25]uint64, block *[rate]byte) { absorbGeneric(a, block) }
