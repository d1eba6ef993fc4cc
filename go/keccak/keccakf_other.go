//go:build (!amd64 && !arm64) || purego

package keccak

const generatedBuilt = false

const generatedFunctions = 0

func kernelsHere() []kernel { return []kernel{portable} }

// useKernel is the permutation in use: the portable one here.
var useKernel = portable

func permute(a *[25]uint64) { keccakF1600Generic(a) }

func absorb(a *[25]uint64, block *[rate]byte) { absorbGeneric(a, block) }

func absorbBlocks(a *[25]uint64, p []byte) []byte { return absorbEach(a, p) }

func batchKernelsHere() []kernel { return []kernel{oneAtATime} }

// useBatchKernel is the multi-state kernel in use: none here.
var useBatchKernel = oneAtATime

func batchStates() int { return 1 }

func absorbBatch(states *[mostStates * 25]uint64, blocks *[mostStates]*byte) {
	panic("keccak: no multi-state kernel in this build")
}

func permuteBatch(states *[mostStates * 25]uint64) {
	panic("keccak: no multi-state kernel in this build")
}
