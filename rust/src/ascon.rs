//! Ascon-p[320]: RustCrypto `ascon` 0.5's `State`, `permute12`, `permute8` and `permute6`,
//! with the same signatures and results.
//!
//! Unlike there, the permutations are not `const fn`: each calls a generated kernel through
//! a table chosen at run time, and neither a call through a function pointer nor assembly
//! can run in a constant context.

use crate::dispatch;

/// The Ascon state: the five 64-bit words x0..x4.
pub type State = [u64; 5];

/// Ascon-p[320] with 12 rounds.
#[inline]
pub fn permute12(state: &mut State) {
    dispatch::ascon().permute(state, 12);
}

/// Ascon-p[320] with 8 rounds (the last 8 of the 12).
#[inline]
pub fn permute8(state: &mut State) {
    dispatch::ascon().permute(state, 8);
}

/// Ascon-p[320] with 6 rounds (the last 6 of the 12).
#[inline]
pub fn permute6(state: &mut State) {
    dispatch::ascon().permute(state, 6);
}
