// Test-only ABI probe for the riscv64 kernels (the RISC-V ELF psABI, LP64D, GNU as).
//
//   uint64_t sponge_test_call_with_canaries(void* entry, uint64_t* state,
//                                           const uint8_t* block, AbiObservation* observed,
//                                           uint64_t third, uint64_t fourth);
//
// Loads observed->canary[0..23] into s0-s11 and fs0-fs11 and junk into the other argument
// and temporary registers (a4-a7, t0, t2-t6, ft0-ft11, fa0-fa7), calls
// entry(state, block, third, fourth) with jalr, then stores what s0-s11, fs0-fs11 and sp hold
// after the call into observed. Returns sp after the call minus sp before it (0 for a correct
// callee).
//
// AbiObservation (tests/kernels/abi_shim.hpp), 8-byte words:
//    0  canary[24]     in:  loaded into s0-s11 (0..88), fs0-fs11 (96..184) before the call
//  192  after[24]      out: s0-s11, fs0-fs11 after the call
//  384  sp_before      out: sp at the jalr
//  392  sp_after       out: sp right after the callee returned
//
// The shim itself keeps the psABI: it saves ra, s0-s11 and fs0-fs11 in a 208-byte frame (sp
// stays 16-byte aligned) described by CFI, and restores them itself whatever the callee did.
// Because every callee-saved register holds a canary during the call, the observation
// pointer and sp are kept in .bss, which makes the shim usable by one thread at a time (the
// tests are single-threaded). Reloading sp from there also brings the shim back to its own
// frame even when the callee returned with a wrong sp, so such a bug is reported, not a
// crash.

	.text

	.globl sponge_test_call_with_canaries
	.hidden sponge_test_call_with_canaries
	.type sponge_test_call_with_canaries, @function
	.p2align 2
sponge_test_call_with_canaries:
	.cfi_startproc
	addi sp, sp, -208
	.cfi_def_cfa_offset 208
	sd ra, 200(sp)
	.cfi_offset ra, -8
	sd s0, 0(sp)
	sd s1, 8(sp)
	sd s2, 16(sp)
	sd s3, 24(sp)
	sd s4, 32(sp)
	sd s5, 40(sp)
	sd s6, 48(sp)
	sd s7, 56(sp)
	sd s8, 64(sp)
	sd s9, 72(sp)
	sd s10, 80(sp)
	sd s11, 88(sp)
	fsd fs0, 96(sp)
	fsd fs1, 104(sp)
	fsd fs2, 112(sp)
	fsd fs3, 120(sp)
	fsd fs4, 128(sp)
	fsd fs5, 136(sp)
	fsd fs6, 144(sp)
	fsd fs7, 152(sp)
	fsd fs8, 160(sp)
	fsd fs9, 168(sp)
	fsd fs10, 176(sp)
	fsd fs11, 184(sp)
	.cfi_offset s0, -208
	.cfi_offset s1, -200
	.cfi_offset s2, -192
	.cfi_offset s3, -184
	.cfi_offset s4, -176
	.cfi_offset s5, -168
	.cfi_offset s6, -160
	.cfi_offset s7, -152
	.cfi_offset s8, -144
	.cfi_offset s9, -136
	.cfi_offset s10, -128
	.cfi_offset s11, -120
	.cfi_offset fs0, -112
	.cfi_offset fs1, -104
	.cfi_offset fs2, -96
	.cfi_offset fs3, -88
	.cfi_offset fs4, -80
	.cfi_offset fs5, -72
	.cfi_offset fs6, -64
	.cfi_offset fs7, -56
	.cfi_offset fs8, -48
	.cfi_offset fs9, -40
	.cfi_offset fs10, -32
	.cfi_offset fs11, -24

	lla t0, .Lsaved
	sd a3, 0(t0)                    // the observation
	sd sp, 8(t0)                    // sp at the call
	sd sp, 384(a3)                  // observed->sp_before
	mv t1, a0                       // the entry
	mv t0, a3                       // the observation, while the canaries are loaded
	mv a0, a1                       // argument 1: state
	mv a1, a2                       // argument 2: block
	mv a2, a4                       // argument 3 (Ascon: block_count or out)
	mv a3, a5                       // argument 4 (Ascon encrypt, decrypt: block_count)
	ld s0, 0(t0)
	ld s1, 8(t0)
	ld s2, 16(t0)
	ld s3, 24(t0)
	ld s4, 32(t0)
	ld s5, 40(t0)
	ld s6, 48(t0)
	ld s7, 56(t0)
	ld s8, 64(t0)
	ld s9, 72(t0)
	ld s10, 80(t0)
	ld s11, 88(t0)
	fld fs0, 96(t0)
	fld fs1, 104(t0)
	fld fs2, 112(t0)
	fld fs3, 120(t0)
	fld fs4, 128(t0)
	fld fs5, 136(t0)
	fld fs6, 144(t0)
	fld fs7, 152(t0)
	fld fs8, 160(t0)
	fld fs9, 168(t0)
	fld fs10, 176(t0)
	fld fs11, 184(t0)
	// Junk in the registers the callee must not read, or may clobber.
	li a4, 0x0a00
	li a5, 0x0a01
	li a6, 0x0a02
	li a7, 0x0a03
	li t0, 0x0a04
	li t2, 0x0a05
	li t3, 0x0a06
	li t4, 0x0a07
	li t5, 0x0a08
	li t6, 0x0a09
	fmv.d.x ft0, a2
	fmv.d.x ft1, a3
	fmv.d.x ft2, a4
	fmv.d.x ft3, a5
	fmv.d.x ft4, a6
	fmv.d.x ft5, a7
	fmv.d.x ft6, t0
	fmv.d.x ft7, t2
	fmv.d.x ft8, t3
	fmv.d.x ft9, t4
	fmv.d.x ft10, t5
	fmv.d.x ft11, t6
	fmv.d.x fa0, a2
	fmv.d.x fa1, a3
	fmv.d.x fa2, a4
	fmv.d.x fa3, a5
	fmv.d.x fa4, a6
	fmv.d.x fa5, a7
	fmv.d.x fa6, t0
	fmv.d.x fa7, t2
	jalr t1

	mv t2, sp                       // sp as the callee left it
	lla t0, .Lsaved
	ld t1, 0(t0)                    // the observation
	sd s0, 192(t1)
	sd s1, 200(t1)
	sd s2, 208(t1)
	sd s3, 216(t1)
	sd s4, 224(t1)
	sd s5, 232(t1)
	sd s6, 240(t1)
	sd s7, 248(t1)
	sd s8, 256(t1)
	sd s9, 264(t1)
	sd s10, 272(t1)
	sd s11, 280(t1)
	fsd fs0, 288(t1)
	fsd fs1, 296(t1)
	fsd fs2, 304(t1)
	fsd fs3, 312(t1)
	fsd fs4, 320(t1)
	fsd fs5, 328(t1)
	fsd fs6, 336(t1)
	fsd fs7, 344(t1)
	fsd fs8, 352(t1)
	fsd fs9, 360(t1)
	fsd fs10, 368(t1)
	fsd fs11, 376(t1)
	sd t2, 392(t1)                  // observed->sp_after
	ld t3, 8(t0)
	mv sp, t3                       // back to this frame, whatever the callee did to sp
	sub a0, t2, t3

	ld s0, 0(sp)
	ld s1, 8(sp)
	ld s2, 16(sp)
	ld s3, 24(sp)
	ld s4, 32(sp)
	ld s5, 40(sp)
	ld s6, 48(sp)
	ld s7, 56(sp)
	ld s8, 64(sp)
	ld s9, 72(sp)
	ld s10, 80(sp)
	ld s11, 88(sp)
	fld fs0, 96(sp)
	fld fs1, 104(sp)
	fld fs2, 112(sp)
	fld fs3, 120(sp)
	fld fs4, 128(sp)
	fld fs5, 136(sp)
	fld fs6, 144(sp)
	fld fs7, 152(sp)
	fld fs8, 160(sp)
	fld fs9, 168(sp)
	fld fs10, 176(sp)
	fld fs11, 184(sp)
	ld ra, 200(sp)
	.cfi_restore s0
	.cfi_restore s1
	.cfi_restore s2
	.cfi_restore s3
	.cfi_restore s4
	.cfi_restore s5
	.cfi_restore s6
	.cfi_restore s7
	.cfi_restore s8
	.cfi_restore s9
	.cfi_restore s10
	.cfi_restore s11
	.cfi_restore fs0
	.cfi_restore fs1
	.cfi_restore fs2
	.cfi_restore fs3
	.cfi_restore fs4
	.cfi_restore fs5
	.cfi_restore fs6
	.cfi_restore fs7
	.cfi_restore fs8
	.cfi_restore fs9
	.cfi_restore fs10
	.cfi_restore fs11
	.cfi_restore ra
	addi sp, sp, 208
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size sponge_test_call_with_canaries, . - sponge_test_call_with_canaries

// A deliberately wrong callee, the negative control of the ABI test: it clobbers s0, s5,
// fs1 and fs11 and returns with sp 16 bytes low. The shim must report all of it. (Its CFI
// is only right up to the addi: nothing unwinds through it.)
	.globl sponge_test_bad_callee
	.hidden sponge_test_bad_callee
	.type sponge_test_bad_callee, @function
	.p2align 2
sponge_test_bad_callee:
	.cfi_startproc
	li s0, 0
	mv s5, a0
	fmv.d.x fs1, a0
	fmv.d.x fs11, zero
	addi sp, sp, -16                // returns with sp 16 bytes below where it should be
	ret
	.cfi_endproc
	.size sponge_test_bad_callee, . - sponge_test_bad_callee

	.bss
	.p2align 3
.Lsaved:
	.zero 16                        // the observation, then sp at the call

	.section .note.GNU-stack, "", @progbits
