//go:build !purego

package keccak

import "syscall"

// hasSHA3 asks macOS (sysctl hw.optional.armv8_2_sha3), which has no auxiliary vector to
// read: every Apple core it runs on has the extension, and there it is the fastest path
// (see docs/kernels.md).
func hasSHA3() bool {
	value, err := syscall.SysctlUint32("hw.optional.armv8_2_sha3")
	return err == nil && value != 0
}
