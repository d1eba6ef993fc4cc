// Test-only ABI probe for the arm64 kernels (AAPCS64, ELF, GNU as).
//
//   uint64_t sponge_test_call_with_canaries(void* entry, uint64_t* state,
//                                           const uint8_t* block, AbiObservation* observed,
//                                           uint64_t third, uint64_t fourth);
//
// Loads observed->canary[0..17] into x19-x28 and d8-d15 and junk into the other argument
// and temporary registers (x4-x15, the low halves of v0-v7 and v16-v31), calls
// entry(state, block, third, fourth) with blr, then stores what x19-x28, d8-d15 and sp hold after the
// call into observed. Returns sp after the call minus sp before it (0 for a correct callee).
//
// AbiObservation (tests/kernels/abi_shim.hpp), 8-byte words:
//    0  canary[18]     in:  loaded into x19-x28 (0..72), d8-d15 (80..136) before the call
//  144  after[18]      out: x19-x28, d8-d15 after the call
//  288  sp_before      out: sp at the blr
//  296  sp_after       out: sp right after the callee returned
//
// The shim itself keeps AAPCS64: it saves the caller's x29, x30, x19-x28 and d8-d15 in a
// 176-byte frame (sp stays 16-byte aligned) described by CFI, and restores them itself
// whatever the callee did. It starts with `bti c` (hint #34, a NOP before ARMv8.5) since
// the tests reach it through a function pointer, and the object carries .note.GNU-stack
// and the BTI property note. Because every callee-saved register holds a canary during the
// call, the observation pointer and sp are kept in .bss, which makes the shim usable by one
// thread at a time (the tests are single-threaded). Reloading sp from there also brings the
// shim back to its own frame even when the callee returned with a wrong sp, so such a bug
// is reported, not a crash.

	.arch armv8-a
	.text

	.globl sponge_test_call_with_canaries
	.hidden sponge_test_call_with_canaries
	.type sponge_test_call_with_canaries, %function
	.p2align 4
sponge_test_call_with_canaries:
	.cfi_startproc
	hint #34                        // bti c
	stp x29, x30, [sp, #-176]!
	.cfi_def_cfa_offset 176
	.cfi_offset x29, -176
	.cfi_offset x30, -168
	mov x29, sp
	stp x19, x20, [sp, #16]
	stp x21, x22, [sp, #32]
	stp x23, x24, [sp, #48]
	stp x25, x26, [sp, #64]
	stp x27, x28, [sp, #80]
	stp d8, d9, [sp, #96]
	stp d10, d11, [sp, #112]
	stp d12, d13, [sp, #128]
	stp d14, d15, [sp, #144]
	.cfi_offset x19, -160
	.cfi_offset x20, -152
	.cfi_offset x21, -144
	.cfi_offset x22, -136
	.cfi_offset x23, -128
	.cfi_offset x24, -120
	.cfi_offset x25, -112
	.cfi_offset x26, -104
	.cfi_offset x27, -96
	.cfi_offset x28, -88
	.cfi_offset d8, -80
	.cfi_offset d9, -72
	.cfi_offset d10, -64
	.cfi_offset d11, -56
	.cfi_offset d12, -48
	.cfi_offset d13, -40
	.cfi_offset d14, -32
	.cfi_offset d15, -24

	adrp x9, .Lsaved
	add x9, x9, :lo12:.Lsaved
	str x3, [x9]                    // the observation
	mov x10, sp
	str x10, [x9, #8]               // sp at the call
	str x10, [x3, #288]             // observed->sp_before
	mov x16, x0                     // the entry
	mov x0, x1                      // argument 1: state
	mov x1, x2                      // argument 2: block
	ldp x19, x20, [x3, #0]
	ldp x21, x22, [x3, #16]
	ldp x23, x24, [x3, #32]
	ldp x25, x26, [x3, #48]
	ldp x27, x28, [x3, #64]
	ldp d8, d9, [x3, #80]
	ldp d10, d11, [x3, #96]
	ldp d12, d13, [x3, #112]
	ldp d14, d15, [x3, #128]
	// Junk in the registers the callee must not read, or may clobber.
	mov x2, x4                      // argument 3 (Ascon: block_count or out)
	mov x3, x5                      // argument 4 (Ascon encrypt, decrypt: block_count)
	mov x4, #0x0a04
	mov x5, #0x0a05
	mov x6, #0x0a06
	mov x7, #0x0a07
	mov x8, #0x0a08
	mov x9, #0x0a09
	mov x10, #0x0a10
	mov x11, #0x0a11
	mov x12, #0x0a12
	mov x13, #0x0a13
	mov x14, #0x0a14
	mov x15, #0x0a15
	fmov d0, x2
	fmov d1, x3
	fmov d2, x4
	fmov d3, x5
	fmov d4, x6
	fmov d5, x7
	fmov d6, x8
	fmov d7, x9
	fmov d16, x10
	fmov d17, x11
	fmov d18, x12
	fmov d19, x13
	fmov d20, x14
	fmov d21, x15
	fmov d22, x2
	fmov d23, x3
	fmov d24, x4
	fmov d25, x5
	fmov d26, x6
	fmov d27, x7
	fmov d28, x8
	fmov d29, x9
	fmov d30, x10
	fmov d31, x11
	blr x16

	mov x11, sp                     // sp as the callee left it
	adrp x9, .Lsaved
	add x9, x9, :lo12:.Lsaved
	ldr x10, [x9]                   // the observation
	stp x19, x20, [x10, #144]
	stp x21, x22, [x10, #160]
	stp x23, x24, [x10, #176]
	stp x25, x26, [x10, #192]
	stp x27, x28, [x10, #208]
	stp d8, d9, [x10, #224]
	stp d10, d11, [x10, #240]
	stp d12, d13, [x10, #256]
	stp d14, d15, [x10, #272]
	str x11, [x10, #296]            // observed->sp_after
	ldr x12, [x9, #8]
	mov sp, x12                     // back to this frame, whatever the callee did to sp
	sub x0, x11, x12

	ldp d14, d15, [sp, #144]
	ldp d12, d13, [sp, #128]
	ldp d10, d11, [sp, #112]
	ldp d8, d9, [sp, #96]
	ldp x27, x28, [sp, #80]
	ldp x25, x26, [sp, #64]
	ldp x23, x24, [sp, #48]
	ldp x21, x22, [sp, #32]
	ldp x19, x20, [sp, #16]
	ldp x29, x30, [sp], #176
	.cfi_restore x19
	.cfi_restore x20
	.cfi_restore x21
	.cfi_restore x22
	.cfi_restore x23
	.cfi_restore x24
	.cfi_restore x25
	.cfi_restore x26
	.cfi_restore x27
	.cfi_restore x28
	.cfi_restore d8
	.cfi_restore d9
	.cfi_restore d10
	.cfi_restore d11
	.cfi_restore d12
	.cfi_restore d13
	.cfi_restore d14
	.cfi_restore d15
	.cfi_restore x29
	.cfi_restore x30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size sponge_test_call_with_canaries, . - sponge_test_call_with_canaries

// A deliberately wrong callee, the negative control of the ABI test: it clobbers x19, x24,
// d9 and d15 and returns with sp 16 bytes low. The shim must report all of it. (Its CFI
// is only right up to the sub: nothing unwinds through it.)
	.globl sponge_test_bad_callee
	.hidden sponge_test_bad_callee
	.type sponge_test_bad_callee, %function
	.p2align 4
sponge_test_bad_callee:
	.cfi_startproc
	hint #34                        // bti c
	mov x19, #0
	mov x24, x0
	fmov d9, x0
	movi d15, #0
	sub sp, sp, #16                 // returns with sp 16 bytes below where it should be
	ret
	.cfi_endproc
	.size sponge_test_bad_callee, . - sponge_test_bad_callee

	.bss
	.p2align 3
.Lsaved:
	.zero 16                        // the observation, then sp at the call

	.section .note.GNU-stack, "", %progbits
	.section .note.gnu.property, "a"
	.p2align 3
	.long 4                 // name size
	.long 16                // descriptor size
	.long 5                 // NT_GNU_PROPERTY_TYPE_0
	.asciz "GNU"
	.long 0xc0000000        // GNU_PROPERTY_AARCH64_FEATURE_1_AND
	.long 4                 // property size
	.long 1                 // BTI
	.long 0                 // padding to 8 bytes
