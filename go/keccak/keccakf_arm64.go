//go:build arm64 && !purego

package keccak

// haveSHA3: whether the OS says the CPU has the SHA3 instructions (EOR3, RAX1, XAR, BCAX);
// hasSHA3 is per OS (sha3_*_arm64.go).
var haveSHA3 = hasSHA3()

const generatedBuilt = true

// The generated functions the package calls: the absorb136 entry of arm64-sha3, and the
// permute and absorb136 entries of arm64-sha3-x2 (the linker drops the others).
const generatedFunctions = 3

// kernelsHere lists the permutations this CPU runs, the chosen one first.
func kernelsHere() []kernel {
	if haveSHA3 {
		return []kernel{arm64SHA3, portable}
	}
	return []kernel{portable}
}

// useKernel is the permutation chosen at start-up; tests set it to force one.
var useKernel = kernelsHere()[0]

func absorb(a *[25]uint64, block *[rate]byte) {
	if useKernel == arm64SHA3 {
		sponge_keccakf1600_arm64_sha3_absorb136(a, block)
		return
	}
	absorbGeneric(a, block)
}

// absorbBlocks absorbs the whole blocks at the start of p, one call a block, and returns the
// rest.
func absorbBlocks(a *[25]uint64, p []byte) []byte { return absorbEach(a, p) }

func permute(a *[25]uint64) {
	if useKernel == arm64SHA3 {
		sponge_keccakf1600_arm64_sha3(a)
		return
	}
	keccakF1600Generic(a)
}

// batchKernelsHere lists the multi-state kernels this CPU runs, the chosen one first, and
// last oneAtATime (Sum256 in turn).
func batchKernelsHere() []kernel {
	if haveSHA3 {
		return []kernel{arm64SHA3x2, oneAtATime}
	}
	return []kernel{oneAtATime}
}

// useBatchKernel is the multi-state kernel chosen at start-up; tests set it to force one.
var useBatchKernel = batchKernelsHere()[0]

// batchStates is how many states the multi-state kernel permutes at once.
func batchStates() int { return 2 }

// absorbBatch XORs blocks[s] (rate bytes each) into state s of the two lane-interleaved
// states at the start of states and permutes them.
func absorbBatch(states *[mostStates * 25]uint64, blocks *[mostStates]*byte) {
	sponge_keccakf1600_arm64_sha3_x2_absorb136((*[2 * 25]uint64)(states[:2*25]),
		(*[2]*byte)(blocks[:2]))
}

// permuteBatch permutes the two lane-interleaved states at the start of states.
func permuteBatch(states *[mostStates * 25]uint64) {
	sponge_keccakf1600_arm64_sha3_x2((*[2 * 25]uint64)(states[:2*25]))
}
