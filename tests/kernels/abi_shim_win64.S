// Test-only ABI probe for the amd64 kernels' Windows x64 entries (Win64 calling convention,
// COFF, GNU as, Intel syntax): the counterpart of abi_shim_amd64.S.
//
//   uint64_t sponge_test_call_with_canaries(void* entry, uint64_t* state,
//                                           const uint8_t* block, AbiObservation* observed,
//                                           uint64_t third, uint64_t fourth);
//
// Loads observed->canary into the registers Win64 makes callee-saved (rbx rbp r12 r13 r14
// r15 rdi rsi, then xmm6-xmm15 as two 64-bit words each) and junk into rax and r10, calls
// entry(state, block, third, fourth) the Win64 way (rcx, rdx, r8, r9; rsp 16-byte aligned
// with 32 bytes of home space above the return address), then stores what those registers,
// rsp and rflags hold after the call into observed. Returns rsp after the call minus rsp
// before it (0 for a correct callee).
//
// AbiObservation (tests/kernels/abi_shim.hpp), 8-byte words:
//    0  canary[28]     in:  rbx rbp r12 r13 r14 r15 rdi rsi, xmm6.lo xmm6.hi ... xmm15.hi
//  224  after[28]      out: the same registers after the call
//  448  sp_before      out: rsp at the call instruction
//  456  sp_after       out: rsp right after the callee returned
//  464  rflags_after   out: rflags right after the callee returned
//
// The shim itself keeps the convention: it saves and restores the caller's callee-saved
// registers and describes its frame with Windows unwind codes. As in the System V shim, the
// observation pointer and rsp are kept in .bss (one thread at a time), so a callee that
// returns with a wrong rsp is reported, not a crash.

	.intel_syntax noprefix
	.text

	.globl sponge_test_call_with_canaries
	.def sponge_test_call_with_canaries; .scl 2; .type 32; .endef
	.p2align 4
sponge_test_call_with_canaries:
	.seh_proc sponge_test_call_with_canaries
	push rbx
	.seh_pushreg rbx
	push rbp
	.seh_pushreg rbp
	push r12
	.seh_pushreg r12
	push r13
	.seh_pushreg r13
	push r14
	.seh_pushreg r14
	push r15
	.seh_pushreg r15
	push rdi
	.seh_pushreg rdi
	push rsi
	.seh_pushreg rsi
	// 8 (return address) + 8 pushes + 200 = 272: rsp 16-byte aligned at the call. The
	// frame: [rsp] the callee's 32 bytes of home space, [rsp + 32] the caller's xmm6-xmm15.
	sub rsp, 200
	.seh_stackalloc 200
	movdqu xmmword ptr [rsp + 32], xmm6
	.seh_savexmm xmm6, 32
	movdqu xmmword ptr [rsp + 48], xmm7
	.seh_savexmm xmm7, 48
	movdqu xmmword ptr [rsp + 64], xmm8
	.seh_savexmm xmm8, 64
	movdqu xmmword ptr [rsp + 80], xmm9
	.seh_savexmm xmm9, 80
	movdqu xmmword ptr [rsp + 96], xmm10
	.seh_savexmm xmm10, 96
	movdqu xmmword ptr [rsp + 112], xmm11
	.seh_savexmm xmm11, 112
	movdqu xmmword ptr [rsp + 128], xmm12
	.seh_savexmm xmm12, 128
	movdqu xmmword ptr [rsp + 144], xmm13
	.seh_savexmm xmm13, 144
	movdqu xmmword ptr [rsp + 160], xmm14
	.seh_savexmm xmm14, 160
	movdqu xmmword ptr [rsp + 176], xmm15
	.seh_savexmm xmm15, 176
	.seh_endprologue

	mov qword ptr [rip + .Lsaved_observation], r9
	mov qword ptr [rip + .Lsaved_rsp], rsp
	mov qword ptr [r9 + 448], rsp
	mov rax, r9                     // the observation
	mov r11, rcx                    // the entry
	mov rcx, rdx                    // argument 1: state
	mov rdx, r8                     // argument 2: block
	mov r8, qword ptr [rsp + 304]   // argument 3: the shim's fifth (200 + 64 + 8 + 32)
	mov r9, qword ptr [rsp + 312]   // argument 4: the shim's sixth
	mov rbx, qword ptr [rax + 0]
	mov rbp, qword ptr [rax + 8]
	mov r12, qword ptr [rax + 16]
	mov r13, qword ptr [rax + 24]
	mov r14, qword ptr [rax + 32]
	mov r15, qword ptr [rax + 40]
	mov rdi, qword ptr [rax + 48]
	mov rsi, qword ptr [rax + 56]
	movdqu xmm6, xmmword ptr [rax + 64]
	movdqu xmm7, xmmword ptr [rax + 80]
	movdqu xmm8, xmmword ptr [rax + 96]
	movdqu xmm9, xmmword ptr [rax + 112]
	movdqu xmm10, xmmword ptr [rax + 128]
	movdqu xmm11, xmmword ptr [rax + 144]
	movdqu xmm12, xmmword ptr [rax + 160]
	movdqu xmm13, xmmword ptr [rax + 176]
	movdqu xmm14, xmmword ptr [rax + 192]
	movdqu xmm15, xmmword ptr [rax + 208]
	// Junk in the registers the callee must not read.
	movabs rax, 0x0bad0bad0bad0a0a
	movabs r10, 0x0bad0bad0bad1010
	call r11

	mov r11, rsp                    // rsp as the callee left it
	mov rax, qword ptr [rip + .Lsaved_observation]
	mov qword ptr [rax + 224], rbx
	mov qword ptr [rax + 232], rbp
	mov qword ptr [rax + 240], r12
	mov qword ptr [rax + 248], r13
	mov qword ptr [rax + 256], r14
	mov qword ptr [rax + 264], r15
	mov qword ptr [rax + 272], rdi
	mov qword ptr [rax + 280], rsi
	movdqu xmmword ptr [rax + 288], xmm6
	movdqu xmmword ptr [rax + 304], xmm7
	movdqu xmmword ptr [rax + 320], xmm8
	movdqu xmmword ptr [rax + 336], xmm9
	movdqu xmmword ptr [rax + 352], xmm10
	movdqu xmmword ptr [rax + 368], xmm11
	movdqu xmmword ptr [rax + 384], xmm12
	movdqu xmmword ptr [rax + 400], xmm13
	movdqu xmmword ptr [rax + 416], xmm14
	movdqu xmmword ptr [rax + 432], xmm15
	mov qword ptr [rax + 456], r11
	mov rsp, qword ptr [rip + .Lsaved_rsp]
	pushfq
	pop rcx
	mov qword ptr [rax + 464], rcx
	cld                             // the caller gets DF clear whatever the callee did
	sub r11, qword ptr [rax + 448]
	mov rax, r11

	movdqu xmm6, xmmword ptr [rsp + 32]
	movdqu xmm7, xmmword ptr [rsp + 48]
	movdqu xmm8, xmmword ptr [rsp + 64]
	movdqu xmm9, xmmword ptr [rsp + 80]
	movdqu xmm10, xmmword ptr [rsp + 96]
	movdqu xmm11, xmmword ptr [rsp + 112]
	movdqu xmm12, xmmword ptr [rsp + 128]
	movdqu xmm13, xmmword ptr [rsp + 144]
	movdqu xmm14, xmmword ptr [rsp + 160]
	movdqu xmm15, xmmword ptr [rsp + 176]
	add rsp, 200
	pop rsi
	pop rdi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret
	.seh_endproc

// A deliberately wrong callee, the negative control of the ABI test: it clobbers rbx, r13,
// rdi and xmm6, returns with the direction flag set and with rsp 8 bytes low. The shim must
// report all of it. (No unwind data: nothing unwinds through it.)
	.globl sponge_test_bad_callee
	.def sponge_test_bad_callee; .scl 2; .type 32; .endef
	.p2align 4
sponge_test_bad_callee:
	xor ebx, ebx
	mov r13, rcx
	mov rdi, rdx
	pcmpeqd xmm6, xmm6
	std
	pop rcx                         // the return address
	push 0
	push rcx                        // returns with rsp 8 bytes below where it should be
	ret

	.bss
	.p2align 3
.Lsaved_observation:
	.zero 8
.Lsaved_rsp:
	.zero 8
