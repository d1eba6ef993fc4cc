//go:build !purego

package keccak

import (
	"encoding/binary"
	"os"
)

// hasSHA3 reports bit 17 of AT_HWCAP in the process's auxiliary vector, read from
// /proc/self/auxv (pairs of 64-bit words, tag then value). Where it cannot be read, the
// portable permutation runs.
func hasSHA3() bool {
	const atHWCAP, hwcapSHA3 = 16, 1 << 17
	auxv, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return false
	}
	for ; len(auxv) >= 16; auxv = auxv[16:] {
		if binary.LittleEndian.Uint64(auxv) == atHWCAP {
			return binary.LittleEndian.Uint64(auxv[8:])&hwcapSHA3 != 0
		}
	}
	return false
}
