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

const generatedBuilt = true

// The functions of keccakf1600_amd64_bmi2_amd64.s the package calls, permute and absorb136
// (the linker drops the other absorb entries).
const generatedFunctions = 2

// kernelsHere lists the permutations this CPU runs, the chosen one first.
func kernelsHere() []string {
	if hasBMI() {
		return []string{"amd64-bmi2", "portable"}
	}
	return []string{"portable"}
}

// useKernel is the permutation chosen at start-up; tests set it to force one.
var useKernel = kernelsHere()[0]

// kernelName names the permutation chosen at start-up.
var kernelName = useKernel

func absorb(a *[25]uint64, block *[rate]byte) {
	if useKernel == "amd64-bmi2" {
		sponge_keccakf1600_amd64_bmi2_absorb136(a, block)
		return
	}
	absorbGeneric(a, block)
}

func permute(a *[25]uint64) {
	if useKernel == "amd64-bmi2" {
		sponge_keccakf1600_amd64_bmi2(a)
		return
	}
	keccakF1600Generic(a)
}
