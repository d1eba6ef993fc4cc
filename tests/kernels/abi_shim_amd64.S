// Test-only ABI probe for the amd64 kernels (System V AMD64, ELF, GNU as, Intel syntax).
//
//   uint64_t sponge_test_call_with_canaries(void* entry, uint64_t* state,
//                                           const uint8_t* block, AbiObservation* observed,
//                                           uint64_t third, uint64_t fourth);
//
// Loads observed->canary[0..5] into rbx rbp r12 r13 r14 r15 and junk into every other
// scratch register, calls entry(state, block, third, fourth) with rsp 16-byte aligned, then
// stores what rbx rbp r12-r15, rsp and rflags hold after the call into observed. Returns
// rsp after the call minus rsp before it (0 for a correct callee).
//
// AbiObservation (tests/kernels/abi_shim.hpp), 8-byte words:
//    0  canary[6]      in:  loaded into rbx rbp r12 r13 r14 r15 before the call
//   48  after[6]       out: rbx rbp r12 r13 r14 r15 after the call
//   96  sp_before      out: rsp at the call instruction
//  104  sp_after       out: rsp right after the callee returned
//  112  rflags_after   out: rflags right after the callee returned
//
// The shim itself is ABI-correct: it saves and restores the caller's six callee-saved
// registers, keeps rsp 16-byte aligned at the call, describes its frame with CFI, starts
// with endbr64 and carries the IBT/SHSTK property and .note.GNU-stack. Because every
// callee-saved register holds a canary during the call, the observation pointer and rsp
// are kept in .bss, which makes the shim usable by one thread at a time (the tests are
// single-threaded). Reloading rsp from there also brings the shim back to its own frame
// even when the callee returned with a wrong rsp, so such a bug is reported, not a crash.

	.intel_syntax noprefix
	.text

	.globl sponge_test_call_with_canaries
	.hidden sponge_test_call_with_canaries
	.type sponge_test_call_with_canaries, @function
	.p2align 4
sponge_test_call_with_canaries:
	.cfi_startproc
	endbr64
	push rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset rbp, -16
	push rbx
	.cfi_adjust_cfa_offset 8
	.cfi_offset rbx, -24
	push r12
	.cfi_adjust_cfa_offset 8
	.cfi_offset r12, -32
	push r13
	.cfi_adjust_cfa_offset 8
	.cfi_offset r13, -40
	push r14
	.cfi_adjust_cfa_offset 8
	.cfi_offset r14, -48
	push r15
	.cfi_adjust_cfa_offset 8
	.cfi_offset r15, -56
	// 8 (return address) + 6 pushes + 8 = 64: rsp is 16-byte aligned at the call.
	sub rsp, 8
	.cfi_adjust_cfa_offset 8

	mov qword ptr [rip + .Lsaved_observation], rcx
	mov qword ptr [rip + .Lsaved_rsp], rsp
	mov qword ptr [rcx + 96], rsp
	mov r11, rdi                    // the entry
	mov rdi, rsi                    // argument 1: state
	mov rsi, rdx                    // argument 2: block
	mov rbx, qword ptr [rcx + 0]
	mov rbp, qword ptr [rcx + 8]
	mov r12, qword ptr [rcx + 16]
	mov r13, qword ptr [rcx + 24]
	mov r14, qword ptr [rcx + 32]
	mov r15, qword ptr [rcx + 40]
	// Junk in the registers the callee must not read.
	movabs rax, 0x0bad0bad0bad0a0a
	mov rdx, r8                     // argument 3 (Ascon: block_count or out)
	mov rcx, r9                     // argument 4 (Ascon encrypt, decrypt: block_count)
	movabs r8, 0x0bad0bad0bad0808
	movabs r9, 0x0bad0bad0bad0909
	movabs r10, 0x0bad0bad0bad1010
	call r11

	mov r11, rsp                    // rsp as the callee left it
	mov rax, qword ptr [rip + .Lsaved_observation]
	mov qword ptr [rax + 48], rbx
	mov qword ptr [rax + 56], rbp
	mov qword ptr [rax + 64], r12
	mov qword ptr [rax + 72], r13
	mov qword ptr [rax + 80], r14
	mov qword ptr [rax + 88], r15
	mov qword ptr [rax + 104], r11
	mov rsp, qword ptr [rip + .Lsaved_rsp]
	pushfq
	.cfi_adjust_cfa_offset 8
	pop rcx
	.cfi_adjust_cfa_offset -8
	mov qword ptr [rax + 112], rcx
	cld                             // the caller gets DF clear whatever the callee did
	sub r11, qword ptr [rax + 96]
	mov rax, r11

	add rsp, 8
	.cfi_adjust_cfa_offset -8
	pop r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore r15
	pop r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore r14
	pop r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore r13
	pop r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore r12
	pop rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbx
	pop rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbp
	ret
	.cfi_endproc
	.size sponge_test_call_with_canaries, . - sponge_test_call_with_canaries

// A deliberately wrong callee, the negative control of the ABI test: it clobbers rbx and
// r13, returns with the direction flag set and with rsp 8 bytes low. The shim must report
// all of it. (Its CFI is only right up to the pop: nothing unwinds through it.)
	.globl sponge_test_bad_callee
	.hidden sponge_test_bad_callee
	.type sponge_test_bad_callee, @function
	.p2align 4
sponge_test_bad_callee:
	.cfi_startproc
	endbr64
	xor ebx, ebx
	mov r13, rdi
	std
	pop rcx                         // the return address
	push 0
	push rcx                        // returns with rsp 8 bytes below where it should be
	ret
	.cfi_endproc
	.size sponge_test_bad_callee, . - sponge_test_bad_callee

	.bss
	.p2align 3
.Lsaved_observation:
	.zero 8
.Lsaved_rsp:
	.zero 8

	.section .note.GNU-stack, "", @progbits
	.section .note.gnu.property, "a"
	.p2align 3
	.long 4                 // name size
	.long 16                // descriptor size
	.long 5                 // NT_GNU_PROPERTY_TYPE_0
	.asciz "GNU"
	.long 0xc0000002        // GNU_PROPERTY_X86_FEATURE_1_AND
	.long 4                 // property size
	.long 3                 // IBT | SHSTK
	.long 0                 // padding to 8 bytes
