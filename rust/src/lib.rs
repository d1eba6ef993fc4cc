//! Keccak and Ascon on spongegen's generated assembly kernels, each proven to compute its
//! permutation for every input (docs/rust.md).
//!
//! - [`keccak::f1600`] and [`keccak::p1600`]: RustCrypto `keccak` 0.1's functions, and the
//!   same on 2, 4 and 8 states;
//! - [`ascon::permute12`], [`ascon::permute8`], [`ascon::permute6`]: RustCrypto `ascon`
//!   0.5's;
//! - [`keccak256`], [`Keccak256`], [`keccak256_batch`], [`sha3_256`], [`sha3_512`],
//!   [`Shake128`], [`Shake256`], [`turboshake128`], [`kt128`].
//!
//! The kernel is chosen once per family from the CPU's features; with the `std` feature the
//! variables SPONGE_KERNEL, SPONGE_BATCH_KERNEL and SPONGE_ASCON_KERNEL force one (a name
//! this build or CPU lacks panics). The `force-portable` feature builds no assembly.
#![no_std]

#[cfg(feature = "std")]
extern crate std;

pub mod ascon;
mod dispatch;
mod hash;
pub mod keccak;
mod portable;
mod wipe;

// Generated: each file declares every entry of its kernel, the crate calls some.
#[cfg(not(feature = "force-portable"))]
#[rustfmt::skip]
#[allow(dead_code)]
mod kernels;

#[cfg(test)]
mod tests;

pub use hash::{
    keccak256, keccak256_batch, kt128, sha3_256, sha3_512, turboshake128, Keccak256, Shake128,
    Shake256, XofReader,
};

#[cfg(feature = "std")]
pub use hash::kt128_parallel;

/// RustCrypto `keccak` 0.1's functions at the crate root too, so that a program switches by
/// renaming the dependency (`keccak = { package = "sponge", ... }`).
pub use keccak::{f1600, p1600};

/// The kernel each family runs in this process: Keccak-p[1600], its batches, Ascon-p[320].
pub fn active_kernels() -> [&'static str; 3] {
    [
        dispatch::single().name,
        dispatch::batch().map_or("portable", |batch| batch.name),
        dispatch::ascon().name,
    ]
}
