//! Zeroing the crate's own copies of states and input blocks when it is done with them, so
//! that no lane of a state outlives the function that wrote it (tests/residue.rs checks the
//! stack after every public hash function).

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
use core::{
    ptr,
    sync::atomic::{compiler_fence, Ordering},
};

/// Overwrites `value` with `zero` in a way the compiler may not remove as stores nothing
/// reads.
#[inline(always)]
pub(crate) fn wipe<T: Copy>(value: &mut T, zero: T) {
    wipe_slice(core::slice::from_mut(value), zero);
}

/// Overwrites each of `values` with `zero` in a way the compiler may not remove as stores
/// nothing reads. On x86-64 and aarch64 the stores are ordinary ones (the compiler
/// vectorizes them), followed by an empty assembly block that is given the values' address:
/// the compiler must assume it reads that memory. Elsewhere, volatile writes, which the
/// compiler splits into small stores.
#[inline(always)]
pub(crate) fn wipe_slice<T: Copy>(values: &mut [T], zero: T) {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        values.fill(zero);
        // Safety: the assembly is empty; it reads no register but the address and writes none.
        unsafe {
            core::arch::asm!(
                "/* wiped: {0} */",
                in(reg) values.as_mut_ptr(),
                options(nostack, preserves_flags)
            )
        };
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        for value in values {
            // Safety: `value` is an exclusive, aligned, initialized reference.
            unsafe { ptr::write_volatile(value, zero) };
        }
        compiler_fence(Ordering::SeqCst);
    }
}

/// Zeroes the stack below the caller's frame, where a function it has just called kept its
/// locals: the portable permutations, whose spilled lanes the compiler places there.
/// 1 KiB covers their frames (the residue test fails if it stops doing so).
#[inline(never)]
pub(crate) fn wipe_stack_below() {
    let mut area = [0u8; 1024];
    wipe(&mut area, [0; 1024]);
}
