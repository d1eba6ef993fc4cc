//go:build amd64 && !purego

package keccak

// cpuid returns the CPUID words of leaf eaxIn, subleaf ecxIn (cpuid_amd64.s).
//
//go:noescape
func cpuid(eaxIn, ecxIn uint32) (eax, ebx, ecx, edx uint32)

// hasBMI reports whether the CPU has BMI1 (ANDN) and BMI2 (RORX): CPUID leaf 7, EBX bits 3
// and 8.
func hasBMI() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(1<<3) != 0 && ebx&(1<<8) != 0
}

// xgetbv returns XCR0 (cpuid_amd64.s); call it only where CPUID says OSXSAVE.
//
//go:noescape
func xgetbv() (eax, edx uint32)

// hasVectorFeature reports whether the CPU has the feature of CPUID leaf 7's EBX bit, and
// the OS saves the register state that XCR0's bits in xcr0Mask name (XCR0 is readable where
// CPUID leaf 1 sets OSXSAVE, ECX bit 27).
func hasVectorFeature(ebxBit uint, xcr0Mask uint32) bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&(1<<27) == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&xcr0Mask != xcr0Mask {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(1<<ebxBit) != 0
}

// hasAVX512 reports AVX-512F (EBX bit 16) with XCR0 bits 1, 2 (SSE, AVX) and 5-7 (opmask,
// both halves of the zmm registers).
func hasAVX512() bool { return hasVectorFeature(16, 0xe6) }

// hasAVX2 reports AVX2 (EBX bit 5) with XCR0 bits 1 and 2 (the xmm and ymm registers).
func hasAVX2() bool { return hasVectorFeature(5, 0x6) }

const generatedBuilt = true

// The generated functions the package calls: the permute and absorb136 entries of
// amd64-bmi2, amd64-avx512-x8 and amd64-avx2-x4, and amd64-bmi2's block entry (the linker
// drops the other entries).
const generatedFunctions = 7

// kernelsHere lists the permutations this CPU runs, the chosen one first.
func kernelsHere() []kernel {
	if hasBMI() {
		return []kernel{amd64BMI2, portable}
	}
	return []kernel{portable}
}

// useKernel is the permutation chosen at start-up; tests set it to force one.
var useKernel = kernelsHere()[0]

func absorb(a *[25]uint64, block *[rate]byte) {
	if useKernel == amd64BMI2 {
		sponge_keccakf1600_amd64_bmi2_absorb136(a, block)
		return
	}
	absorbGeneric(a, block)
}

// batchKernelsHere lists the multi-state kernels this CPU runs, the chosen one first, and
// last oneAtATime (Sum256 in turn).
func batchKernelsHere() []kernel {
	kernels := []kernel{}
	if hasAVX512() {
		kernels = append(kernels, amd64AVX512x8)
	}
	if hasAVX2() {
		kernels = append(kernels, amd64AVX2x4)
	}
	return append(kernels, oneAtATime)
}

// useBatchKernel is the multi-state kernel chosen at start-up; tests set it to force one.
var useBatchKernel = batchKernelsHere()[0]

// batchStates is how many states the chosen multi-state kernel permutes at once.
func batchStates() int {
	if useBatchKernel == amd64AVX2x4 {
		return 4
	}
	return 8
}

// absorbBatch XORs blocks[s] (rate bytes each) into state s of the batchStates()
// lane-interleaved states at the start of states and permutes them.
func absorbBatch(states *[mostStates * 25]uint64, blocks *[mostStates]*byte) {
	if useBatchKernel == amd64AVX2x4 {
		sponge_keccakf1600_amd64_avx2_x4_absorb136((*[4 * 25]uint64)(states[:4*25]),
			(*[4]*byte)(blocks[:4]))
		return
	}
	sponge_keccakf1600_amd64_avx512_x8_absorb136(states, blocks)
}

// permuteBatch permutes the batchStates() lane-interleaved states at the start of states.
func permuteBatch(states *[mostStates * 25]uint64) {
	if useBatchKernel == amd64AVX2x4 {
		sponge_keccakf1600_amd64_avx2_x4((*[4 * 25]uint64)(states[:4*25]))
		return
	}
	sponge_keccakf1600_amd64_avx512_x8(states)
}

// absorbBlocks absorbs the whole blocks at the start of p, at most blocksPerCall blocks a
// call, and returns the rest (fewer than rate bytes).
func absorbBlocks(a *[25]uint64, p []byte) []byte {
	if useKernel != amd64BMI2 {
		return absorbEach(a, p)
	}
	for len(p) >= rate {
		n := len(p) / rate
		if n > blocksPerCall {
			n = blocksPerCall
		}
		sponge_keccakf1600_amd64_bmi2_absorb136_blocks(a, &p[0], uint64(n))
		p = p[n*rate:]
	}
	return p
}

func permute(a *[25]uint64) {
	if useKernel == amd64BMI2 {
		sponge_keccakf1600_amd64_bmi2(a)
		return
	}
	keccakF1600Generic(a)
}
