//! The kernel tables and the choice among them: once per process and family, the best kernel
//! this CPU runs, or the one SPONGE_KERNEL, SPONGE_BATCH_KERNEL or SPONGE_ASCON_KERNEL names
//! (with `std`). Every call of generated code is in this file.

use core::sync::atomic::{AtomicUsize, Ordering};

use crate::portable;
use crate::wipe::wipe_stack_below;

type Permute = unsafe extern "C" fn(state: *mut u64);
type Absorb = unsafe extern "C" fn(state: *mut u64, block: *const u8);
type AbsorbMany = unsafe extern "C" fn(state: *mut u64, blocks: *const *const u8);
type AbsorbBlocks =
    unsafe extern "C" fn(state: *mut u64, blocks: *const *const u8, block_count: usize);

/// The rates (in bytes) the single-state kernels absorb at 24 rounds, in `Single::absorb24`'s
/// order, and at 12 rounds (TurboSHAKE128 and KT128: 168; TurboSHAKE256: 136).
pub(crate) const RATES_24: [usize; 5] = [72, 104, 136, 144, 168];

/// A Keccak-p[1600] kernel on one state.
pub(crate) struct Single {
    pub(crate) name: &'static str,
    f1600: Permute,
    p1600_12: Permute,
    absorb24: [Absorb; 5],
    absorb12_136: Absorb,
    absorb12_168: Absorb,
}

/// A Keccak-p[1600] kernel on `lanes` states, lane i of state s at `state[lanes * i + s]`.
pub(crate) struct Batch {
    pub(crate) name: &'static str,
    pub(crate) lanes: usize,
    f1600: Permute,
    p1600_12: Permute,
    absorb136: AbsorbMany,
    absorb136_blocks: AbsorbBlocks,
    p12_absorb168: AbsorbMany,
    p12_absorb168_blocks: AbsorbBlocks,
}

/// An Ascon-p[320] kernel.
pub(crate) struct Ascon {
    pub(crate) name: &'static str,
    p12: Permute,
    p8: Permute,
    p6: Permute,
}

// The portable code behind the kernels' signatures, so that one table type serves both;
// each then zeroes the stack the permutation used, as the kernels clear their own.
// Safety (of each): `state` points to the 25 (or 5) lanes, `block` to a rate's bytes.
unsafe extern "C" fn portable_permute<const ROUNDS: usize>(state: *mut u64) {
    portable::keccak_p1600(&mut *(state as *mut [u64; 25]), ROUNDS);
    wipe_stack_below();
}
unsafe extern "C" fn portable_absorb<const RATE: usize, const ROUNDS: usize>(
    state: *mut u64,
    block: *const u8,
) {
    let state = &mut *(state as *mut [u64; 25]);
    portable::xor_block(state, core::slice::from_raw_parts(block, RATE));
    portable::keccak_p1600(state, ROUNDS);
    wipe_stack_below();
}
unsafe extern "C" fn portable_ascon<const ROUNDS: usize>(state: *mut u64) {
    portable::ascon_p320(&mut *(state as *mut [u64; 5]), ROUNDS);
    wipe_stack_below();
}

static PORTABLE: Single = Single {
    name: "portable",
    f1600: portable_permute::<24>,
    p1600_12: portable_permute::<12>,
    absorb24: [
        portable_absorb::<72, 24>,
        portable_absorb::<104, 24>,
        portable_absorb::<136, 24>,
        portable_absorb::<144, 24>,
        portable_absorb::<168, 24>,
    ],
    absorb12_136: portable_absorb::<136, 12>,
    absorb12_168: portable_absorb::<168, 12>,
};

static PORTABLE_ASCON: Ascon = Ascon {
    name: "portable",
    p12: portable_ascon::<12>,
    p8: portable_ascon::<8>,
    p6: portable_ascon::<6>,
};

macro_rules! single_kernel {
    ($static:ident, $name:literal, $module:ident, $f:ident, $p12:ident, $a72:ident, $a104:ident,
     $a136:ident, $a144:ident, $a168:ident, $p12a136:ident, $p12a168:ident) => {
        static $static: Single = {
            use crate::kernels::$module::*;
            Single {
                name: $name,
                f1600: $f,
                p1600_12: $p12,
                absorb24: [$a72, $a104, $a136, $a144, $a168],
                absorb12_136: $p12a136,
                absorb12_168: $p12a168,
            }
        };
    };
}

macro_rules! batch_kernel {
    ($static:ident, $name:literal, $lanes:literal, $module:ident, $f:ident, $p12:ident,
     $a136:ident, $a136b:ident, $p12a168:ident, $p12a168b:ident) => {
        static $static: Batch = {
            use crate::kernels::$module::*;
            Batch {
                name: $name,
                lanes: $lanes,
                f1600: $f,
                p1600_12: $p12,
                absorb136: $a136,
                absorb136_blocks: $a136b,
                p12_absorb168: $p12a168,
                p12_absorb168_blocks: $p12a168b,
            }
        };
    };
}

macro_rules! ascon_kernel {
    ($static:ident, $name:literal, $module:ident, $p12:ident, $p8:ident, $p6:ident) => {
        static $static: Ascon = {
            use crate::kernels::$module::*;
            Ascon {
                name: $name,
                p12: $p12,
                p8: $p8,
                p6: $p6,
            }
        };
    };
}

// `target`: each family's kernels built into this crate for this target, best first, each
// with the test of whether this CPU runs it; the portable code last (for batches: none, so
// one state at a time). One such module a target, under that target's cfg.
#[cfg(all(
    target_arch = "x86_64",
    unix,
    not(target_vendor = "apple"),
    not(feature = "force-portable")
))]
mod target {
    // x86-64 (amd64).
    use super::*;
    single_kernel!(
        AMD64_BMI2,
        "amd64-bmi2",
        keccakf1600_amd64_bmi2,
        sponge_keccakf1600_amd64_bmi2,
        sponge_keccakp1600_12_amd64_bmi2,
        sponge_keccakf1600_amd64_bmi2_absorb72,
        sponge_keccakf1600_amd64_bmi2_absorb104,
        sponge_keccakf1600_amd64_bmi2_absorb136,
        sponge_keccakf1600_amd64_bmi2_absorb144,
        sponge_keccakf1600_amd64_bmi2_absorb168,
        sponge_keccakp1600_12_amd64_bmi2_absorb136,
        sponge_keccakp1600_12_amd64_bmi2_absorb168
    );
    batch_kernel!(
        AMD64_AVX512_X8,
        "amd64-avx512-x8",
        8,
        keccakf1600_amd64_avx512_x8,
        sponge_keccakf1600_amd64_avx512_x8,
        sponge_keccakp1600_12_amd64_avx512_x8,
        sponge_keccakf1600_amd64_avx512_x8_absorb136,
        sponge_keccakf1600_amd64_avx512_x8_absorb136_blocks,
        sponge_keccakp1600_12_amd64_avx512_x8_absorb168,
        sponge_keccakp1600_12_amd64_avx512_x8_absorb168_blocks
    );
    batch_kernel!(
        AMD64_AVX2_X4,
        "amd64-avx2-x4",
        4,
        keccakf1600_amd64_avx2_x4,
        sponge_keccakf1600_amd64_avx2_x4,
        sponge_keccakp1600_12_amd64_avx2_x4,
        sponge_keccakf1600_amd64_avx2_x4_absorb136,
        sponge_keccakf1600_amd64_avx2_x4_absorb136_blocks,
        sponge_keccakp1600_12_amd64_avx2_x4_absorb168,
        sponge_keccakp1600_12_amd64_avx2_x4_absorb168_blocks
    );
    ascon_kernel!(
        ASCON_AMD64_BMI2,
        "ascon-amd64-bmi2",
        ascon_p320_amd64_bmi2,
        sponge_ascon_p320_amd64_bmi2_p12,
        sponge_ascon_p320_amd64_bmi2_p8,
        sponge_ascon_p320_amd64_bmi2_p6
    );

    pub(super) static SINGLES: &[Listed<Single>] =
        &[(&AMD64_BMI2, cpu::bmi1_bmi2), (&PORTABLE, always)];
    pub(super) static BATCHES: &[Listed<Batch>] = &[
        (&AMD64_AVX512_X8, cpu::avx512f),
        (&AMD64_AVX2_X4, cpu::avx2),
    ];
    pub(super) static ASCONS: &[Listed<Ascon>] = &[
        (&ASCON_AMD64_BMI2, cpu::bmi1_bmi2),
        (&PORTABLE_ASCON, always),
    ];

    mod cpu {
        // CPUID leaf 7's BMI1 and BMI2 bits need no operating system support, so they are
        // read without std too.
        // __cpuid became a safe function after 1.63, the declared minimum.
        #[cfg(not(feature = "std"))]
        #[allow(unused_unsafe)]
        pub(super) fn bmi1_bmi2() -> bool {
            // Safety: CPUID exists on every x86-64 CPU; leaf 0 says whether leaf 7 does.
            let max_leaf = unsafe { core::arch::x86_64::__cpuid(0) }.eax;
            if max_leaf < 7 {
                return false;
            }
            // Safety: as above, leaf 7 checked present.
            let leaf7 = unsafe { core::arch::x86_64::__cpuid_count(7, 0) };
            leaf7.ebx & (1 << 3) != 0 && leaf7.ebx & (1 << 8) != 0
        }
        #[cfg(feature = "std")]
        pub(super) fn bmi1_bmi2() -> bool {
            std::is_x86_feature_detected!("bmi1") && std::is_x86_feature_detected!("bmi2")
        }
        // The vector kernels also need the OS to save the ymm (and zmm, opmask) state, which
        // std's detection checks with XGETBV; without std they are not used.
        #[cfg(feature = "std")]
        pub(super) fn avx2() -> bool {
            std::is_x86_feature_detected!("avx") && std::is_x86_feature_detected!("avx2")
        }
        #[cfg(feature = "std")]
        pub(super) fn avx512f() -> bool {
            avx2() && std::is_x86_feature_detected!("avx512f")
        }
        #[cfg(not(feature = "std"))]
        pub(super) fn avx2() -> bool {
            false
        }
        #[cfg(not(feature = "std"))]
        pub(super) fn avx512f() -> bool {
            false
        }
    }
}

#[cfg(all(
    target_arch = "aarch64",
    unix,
    not(target_vendor = "apple"),
    not(feature = "force-portable")
))]
mod target {
    // AArch64 (arm64).
    use super::*;
    single_kernel!(
        ARM64_SHA3,
        "arm64-sha3",
        keccakf1600_arm64_sha3,
        sponge_keccakf1600_arm64_sha3,
        sponge_keccakp1600_12_arm64_sha3,
        sponge_keccakf1600_arm64_sha3_absorb72,
        sponge_keccakf1600_arm64_sha3_absorb104,
        sponge_keccakf1600_arm64_sha3_absorb136,
        sponge_keccakf1600_arm64_sha3_absorb144,
        sponge_keccakf1600_arm64_sha3_absorb168,
        sponge_keccakp1600_12_arm64_sha3_absorb136,
        sponge_keccakp1600_12_arm64_sha3_absorb168
    );
    single_kernel!(
        ARM64_SCALAR,
        "arm64-scalar",
        keccakf1600_arm64_scalar,
        sponge_keccakf1600_arm64_scalar,
        sponge_keccakp1600_12_arm64_scalar,
        sponge_keccakf1600_arm64_scalar_absorb72,
        sponge_keccakf1600_arm64_scalar_absorb104,
        sponge_keccakf1600_arm64_scalar_absorb136,
        sponge_keccakf1600_arm64_scalar_absorb144,
        sponge_keccakf1600_arm64_scalar_absorb168,
        sponge_keccakp1600_12_arm64_scalar_absorb136,
        sponge_keccakp1600_12_arm64_scalar_absorb168
    );
    batch_kernel!(
        ARM64_SHA3_X2,
        "arm64-sha3-x2",
        2,
        keccakf1600_arm64_sha3_x2,
        sponge_keccakf1600_arm64_sha3_x2,
        sponge_keccakp1600_12_arm64_sha3_x2,
        sponge_keccakf1600_arm64_sha3_x2_absorb136,
        sponge_keccakf1600_arm64_sha3_x2_absorb136_blocks,
        sponge_keccakp1600_12_arm64_sha3_x2_absorb168,
        sponge_keccakp1600_12_arm64_sha3_x2_absorb168_blocks
    );
    ascon_kernel!(
        ASCON_ARM64,
        "ascon-arm64",
        ascon_p320_arm64,
        sponge_ascon_p320_arm64_p12,
        sponge_ascon_p320_arm64_p8,
        sponge_ascon_p320_arm64_p6
    );

    #[cfg(feature = "std")]
    fn sha3() -> bool {
        std::arch::is_aarch64_feature_detected!("sha3")
    }
    #[cfg(not(feature = "std"))]
    fn sha3() -> bool {
        cfg!(target_feature = "sha3")
    }

    // arm64-scalar and ascon-arm64 need nothing beyond ARMv8-A.
    pub(super) static SINGLES: &[Listed<Single>] = &[
        (&ARM64_SHA3, sha3),
        (&ARM64_SCALAR, always),
        (&PORTABLE, always),
    ];
    pub(super) static BATCHES: &[Listed<Batch>] = &[(&ARM64_SHA3_X2, sha3)];
    pub(super) static ASCONS: &[Listed<Ascon>] =
        &[(&ASCON_ARM64, always), (&PORTABLE_ASCON, always)];
}

#[cfg(not(any(
    all(
        target_arch = "x86_64",
        unix,
        not(target_vendor = "apple"),
        not(feature = "force-portable")
    ),
    all(
        target_arch = "aarch64",
        unix,
        not(target_vendor = "apple"),
        not(feature = "force-portable")
    )
)))]
mod target {
    // No kernels for this target: the portable code alone.
    use super::*;
    pub(super) static SINGLES: &[Listed<Single>] = &[(&PORTABLE, always)];
    pub(super) static BATCHES: &[Listed<Batch>] = &[];
    pub(super) static ASCONS: &[Listed<Ascon>] = &[(&PORTABLE_ASCON, always)];
}

type Listed<K> = (&'static K, fn() -> bool);

fn always() -> bool {
    true
}

/// The kernel a family runs, as its index in `kernels`: the one `variable` names, else the
/// first this CPU runs; none for the portable code of a family not listing it. A name that
/// is unknown, or a kernel this CPU cannot run, panics: a hash never silently runs on
/// another kernel than the one asked for.
// Without std, forced_name gives an Option<&str> already.
#[allow(clippy::needless_option_as_deref)]
fn choose<K>(variable: &str, kernels: &[Listed<K>], name: fn(&K) -> &'static str) -> Option<usize> {
    let forced = forced_name(variable);
    if let Some(forced) = forced.as_deref() {
        for (index, (kernel, runs)) in kernels.iter().enumerate() {
            if name(kernel) == forced {
                assert!(
                    runs(),
                    "sponge: {variable}={forced:?}: this CPU cannot run it"
                );
                return Some(index);
            }
        }
        assert!(
            forced == "portable",
            "sponge: {variable}={forced:?} names no kernel of this build"
        );
        return None;
    }
    kernels.iter().position(|(_, runs)| runs())
}

#[cfg(feature = "std")]
fn forced_name(variable: &str) -> Option<std::string::String> {
    std::env::var(variable)
        .ok()
        .filter(|value| !value.is_empty())
}
#[cfg(not(feature = "std"))]
fn forced_name(_variable: &str) -> Option<&'static str> {
    None
}

// Each family's choice: 0 before the first use, then its index + 1, or NONE.
static SINGLE_CHOICE: AtomicUsize = AtomicUsize::new(0);
static BATCH_CHOICE: AtomicUsize = AtomicUsize::new(0);
static ASCON_CHOICE: AtomicUsize = AtomicUsize::new(0);
const NONE: usize = usize::MAX;

// The choice on a family's first use, out of the callers' way.
#[cold]
#[inline(never)]
fn first_use<K>(
    choice: &AtomicUsize,
    kernels: &'static [Listed<K>],
    variable: &str,
    name: fn(&K) -> &'static str,
) -> usize {
    let index = choose(variable, kernels, name).map_or(NONE, |i| i + 1);
    choice.store(index, Ordering::Relaxed);
    index
}

#[inline]
fn cached<K>(
    choice: &AtomicUsize,
    kernels: &'static [Listed<K>],
    variable: &str,
    name: fn(&K) -> &'static str,
) -> Option<&'static K> {
    let mut index = choice.load(Ordering::Relaxed);
    if index == 0 {
        index = first_use(choice, kernels, variable, name);
    }
    (index != NONE).then(|| kernels[index - 1].0)
}

#[inline]
pub(crate) fn single() -> &'static Single {
    cached(&SINGLE_CHOICE, target::SINGLES, "SPONGE_KERNEL", |k| k.name).unwrap_or(&PORTABLE)
}

/// The batch kernel, or none: one state at a time on `single()`.
#[inline]
pub(crate) fn batch() -> Option<&'static Batch> {
    cached(&BATCH_CHOICE, target::BATCHES, "SPONGE_BATCH_KERNEL", |k| {
        k.name
    })
}

#[inline]
pub(crate) fn ascon() -> &'static Ascon {
    cached(&ASCON_CHOICE, target::ASCONS, "SPONGE_ASCON_KERNEL", |k| {
        k.name
    })
    .unwrap_or(&PORTABLE_ASCON)
}

/// Every kernel of each family this CPU runs, for the tests.
#[cfg(test)]
pub(crate) fn runnable() -> (
    impl Iterator<Item = &'static Single>,
    impl Iterator<Item = &'static Batch>,
    impl Iterator<Item = &'static Ascon>,
) {
    fn runs<K>(kernels: &'static [Listed<K>]) -> impl Iterator<Item = &'static K> {
        kernels.iter().filter(|k| (k.1)()).map(|k| k.0)
    }
    (
        runs(target::SINGLES),
        runs(target::BATCHES),
        runs(target::ASCONS),
    )
}

impl Single {
    #[inline]
    pub(crate) fn f1600(&self, state: &mut [u64; 25]) {
        // Safety: the kernel reads and writes the 25 lanes of `state` and nothing else; the
        // table is only chosen where this CPU runs it (`choose`).
        unsafe { (self.f1600)(state.as_mut_ptr()) }
    }
    #[inline]
    pub(crate) fn p1600_12(&self, state: &mut [u64; 25]) {
        // Safety: as for f1600.
        unsafe { (self.p1600_12)(state.as_mut_ptr()) }
    }
    /// XORs one `block` of a rate in RATES_24 (24 rounds) or 136 or 168 (12 rounds) into
    /// the state, then permutes.
    #[inline]
    pub(crate) fn absorb(&self, state: &mut [u64; 25], block: &[u8], twelve_rounds: bool) {
        let entry = match (twelve_rounds, block.len()) {
            (true, 136) => self.absorb12_136,
            (true, 168) => self.absorb12_168,
            (false, rate) => match RATES_24.iter().position(|&r| r == rate) {
                Some(index) => self.absorb24[index],
                None => panic!("no absorb entry for rate {rate}"),
            },
            (true, rate) => panic!("no 12-round absorb entry for rate {rate}"),
        };
        // Safety: the entry reads exactly block.len() bytes of `block` (its rate, matched
        // above) and reads and writes the 25 lanes of `state`; chosen where this CPU runs it.
        unsafe { entry(state.as_mut_ptr(), block.as_ptr()) }
    }
}

impl Batch {
    /// Permutes `lanes` interleaved states (`states.len() == 25 * lanes`).
    #[inline]
    pub(crate) fn permute(&self, states: &mut [u64], twelve_rounds: bool) {
        assert_eq!(states.len(), 25 * self.lanes);
        let entry = if twelve_rounds {
            self.p1600_12
        } else {
            self.f1600
        };
        // Safety: the kernel reads and writes the 25 * lanes words of `states` (length
        // checked); chosen where this CPU runs it.
        unsafe { entry(states.as_mut_ptr()) }
    }

    /// For each of `block_count` blocks of `rate` bytes (136 at 24 rounds, 168 at 12): XORs
    /// the next block of `inputs[s]` into state s, then permutes every state.
    pub(crate) fn absorb_blocks(
        &self,
        states: &mut [u64],
        inputs: &[&[u8]],
        block_count: usize,
        twelve_rounds: bool,
    ) {
        let rate = if twelve_rounds { 168 } else { 136 };
        assert_eq!(states.len(), 25 * self.lanes);
        assert_eq!(inputs.len(), self.lanes);
        let mut pointers = [core::ptr::null::<u8>(); 8];
        for (pointer, input) in pointers.iter_mut().zip(inputs) {
            assert!(input.len() >= block_count * rate);
            *pointer = input.as_ptr();
        }
        // Safety: the entries read block_count * rate bytes from each of the `lanes`
        // pointers (each input checked that long) and read and write the 25 * lanes words
        // of `states` (checked); chosen where this CPU runs them.
        unsafe {
            match (block_count, twelve_rounds) {
                (0, _) => {}
                (1, false) => (self.absorb136)(states.as_mut_ptr(), pointers.as_ptr()),
                (1, true) => (self.p12_absorb168)(states.as_mut_ptr(), pointers.as_ptr()),
                (_, false) => {
                    (self.absorb136_blocks)(states.as_mut_ptr(), pointers.as_ptr(), block_count)
                }
                (_, true) => {
                    (self.p12_absorb168_blocks)(states.as_mut_ptr(), pointers.as_ptr(), block_count)
                }
            }
        }
    }
}

impl Ascon {
    #[inline]
    pub(crate) fn permute(&self, state: &mut [u64; 5], rounds: usize) {
        let entry = match rounds {
            12 => self.p12,
            8 => self.p8,
            6 => self.p6,
            _ => panic!("Ascon-p[320] kernels run 12, 8 or 6 rounds, not {rounds}"),
        };
        // Safety: the kernel reads and writes the five words of `state`; chosen where this
        // CPU runs it.
        unsafe { entry(state.as_mut_ptr()) }
    }
}
