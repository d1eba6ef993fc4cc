//! No lane of a state stays on the stack after a public hash function returns.
//!
//! Each case knows the states its hash goes through (from the public permutations, whose
//! results tests/kat and the crate's own tests check), zeroes the stack below it, runs the
//! hash, and then reads every word between the stack pointer and 64 KiB below it looking
//! for those lanes. The reading is done by a loop in assembly: Rust has no way to name
//! memory below the stack pointer. Lanes a function returns (a digest, an output) are not
//! looked for. The test runs once per kernel the CPU runs (tests/rust/rust_tests.sh forces
//! each), the portable one included.

#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use sponge::keccak;

const SCANNED: usize = 64 * 1024;

/// Copies the SCANNED bytes below the stack pointer into `snapshot`, in assembly, so that
/// nothing the copy itself does writes below the stack pointer first.
#[inline(always)]
fn copy_below_stack_pointer(snapshot: &mut [u64]) {
    assert_eq!(snapshot.len() * 8, SCANNED);
    // Safety: reads the stack's own pages between the stack pointer and SCANNED bytes below
    // it (the test thread's stack is 2 MiB), writes the SCANNED bytes of `snapshot`.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!(
            "mov rsi, rsp",
            "sub rsi, rcx",
            "rep movsb",
            inout("rdi") snapshot.as_mut_ptr() => _,
            inout("rcx") SCANNED => _,
            out("rsi") _,
            options(nostack),
        );
    }
    #[cfg(target_arch = "aarch64")]
    unsafe {
        core::arch::asm!(
            "mov {src}, sp",
            "sub {src}, {src}, {n}",
            "2:",
            "ldr {t}, [{src}], #8",
            "str {t}, [{dst}], #8",
            "subs {n}, {n}, #8",
            "b.ne 2b",
            src = out(reg) _,
            t = out(reg) _,
            n = inout(reg) SCANNED => _,
            dst = inout(reg) snapshot.as_mut_ptr() => _,
            options(nostack),
        );
    }
}

/// Keeps `value` from being optimized away (core::hint::black_box is newer than 1.63).
fn keep<T: Copy>(value: T) -> T {
    // Safety: a volatile read of a local the function owns.
    unsafe { core::ptr::read_volatile(&value) }
}

/// Zeroes the SCANNED bytes below the caller's stack pointer (this function's frame).
#[inline(never)]
fn zero_stack_below() {
    let mut area = [0u8; SCANNED];
    // Safety: a volatile write of the whole local array, so that it is not elided.
    unsafe { core::ptr::write_volatile(&mut area, [0u8; SCANNED]) };
    keep(area[SCANNED - 1]);
}

#[inline(never)]
fn run_below(hash: impl FnOnce()) {
    hash();
    keep(0u8);
}

/// The words of `needles` found below the stack pointer after `hash` ran, with their names.
/// Inlined into the test, so that the stack pointer is the one the hash ran below; the
/// snapshot's memory is allocated before the hash runs.
#[inline(always)]
fn left_after(hash: impl FnOnce(), needles: &[(String, u64)]) -> Vec<String> {
    let mut snapshot = vec![0u64; SCANNED / 8];
    zero_stack_below();
    run_below(hash);
    copy_below_stack_pointer(&mut snapshot);
    needles
        .iter()
        .filter(|(_, value)| snapshot.contains(value))
        .map(|(name, value)| format!("{name} = {value:#018x}"))
        .collect()
}

fn message(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(167).wrapping_add(seed) ^ 0x5a)
        .collect()
}

fn xor_block(state: &mut [u64; 25], block: &[u8]) {
    for (lane, bytes) in state.iter_mut().zip(block.chunks(8)) {
        let mut word = [0u8; 8];
        word[..bytes.len()].copy_from_slice(bytes);
        *lane ^= u64::from_le_bytes(word);
    }
}

/// The states a sponge of `rate` goes through for `data` with `domain`'s padding at 24 or
/// 12 rounds: before and after each permutation. The last state's first `output` bytes are
/// the output, not looked for.
fn sponge_lanes(
    data: &[u8],
    rate: usize,
    domain: u8,
    rounds: usize,
    output: usize,
) -> Vec<(String, u64)> {
    let mut padded = data.to_vec();
    padded.push(domain);
    while padded.len() % rate != 0 {
        padded.push(0);
    }
    *padded.last_mut().unwrap() ^= 0x80;
    let mut state = [0u64; 25];
    let mut needles = Vec::new();
    let blocks = padded.len() / rate;
    for (b, block) in padded.chunks(rate).enumerate() {
        xor_block(&mut state, block);
        if b > 0 {
            // The first block's XOR into the zero state is the message itself.
            for (i, lane) in state.iter().enumerate() {
                needles.push((
                    format!("block {b}, state before the permutation, lane {i}"),
                    *lane,
                ));
            }
        }
        keccak::p1600(&mut state, rounds);
        for (i, lane) in state.iter().enumerate() {
            if b + 1 == blocks && i < (output + 7) / 8 {
                continue;
            }
            needles.push((
                format!("block {b}, state after the permutation, lane {i}"),
                *lane,
            ));
        }
    }
    needles
}

#[test]
fn keccak256_leaves_no_lane_on_the_stack() {
    for len in [0, 32, 135, 136, 300] {
        let data = message(len, 1);
        let needles = sponge_lanes(&data, 136, 0x01, 24, 32);
        let left = left_after(
            || {
                keep(sponge::keccak256(&data));
            },
            &needles,
        );
        assert!(left.is_empty(), "keccak256 of {len} bytes left {left:#?}");
    }
}

#[test]
fn streaming_keccak256_leaves_no_lane_on_the_stack() {
    // finalize_reset: `finalize(self)` moves the hasher, which may leave a copy (its docs).
    let data = message(300, 2);
    let needles = sponge_lanes(&data, 136, 0x01, 24, 32);
    let left = left_after(
        || {
            let mut hasher = sponge::Keccak256::new();
            hasher.update(&data[..100]);
            hasher.update(&data[100..]);
            keep(hasher.finalize_reset());
        },
        &needles,
    );
    assert!(left.is_empty(), "Keccak256 left {left:#?}");
}

/// `hash` of `data` at 24 rounds leaves none of its sponge's states below this frame.
fn check_sponge(
    name: &str,
    data: &[u8],
    rate: usize,
    domain: u8,
    output: usize,
    hash: impl FnOnce(),
) {
    let needles = sponge_lanes(data, rate, domain, 24, output);
    let left = left_after(hash, &needles);
    assert!(left.is_empty(), "{name} left {left:#?}");
}

#[test]
fn sha3_and_shake_leave_no_lane_on_the_stack() {
    let data = message(200, 3);
    check_sponge("sha3_256", &data, 136, 0x06, 32, || {
        keep(sponge::sha3_256(&data));
    });
    check_sponge("sha3_512", &data, 72, 0x06, 64, || {
        keep(sponge::sha3_512(&data));
    });
    check_sponge("Shake128", &data, 168, 0x1f, 16, || {
        let mut shake = sponge::Shake128::new();
        shake.update(&data);
        let mut out = [0u8; 16];
        shake.finalize_xof_reset().read(&mut out);
        keep(out);
    });
}

#[test]
fn turboshake128_leaves_no_lane_on_the_stack() {
    let data = message(400, 4);
    let needles = sponge_lanes(&data, 168, 0x1f, 12, 32);
    let left = left_after(
        || {
            let mut out = [0u8; 32];
            sponge::turboshake128(&data, 0x1f, &mut out);
            keep(out);
        },
        &needles,
    );
    assert!(left.is_empty(), "turboshake128 left {left:#?}");
}

#[test]
fn keccak256_batch_leaves_no_lane_on_the_stack() {
    // Eight messages under a block, then eight whose lengths part after their common block.
    for lengths in [[32usize; 8], [140, 300, 150, 290, 200, 137, 271, 500]] {
        let messages: Vec<Vec<u8>> = lengths
            .iter()
            .enumerate()
            .map(|(i, &len)| message(len, 10 + i as u8))
            .collect();
        let mut needles = Vec::new();
        for m in &messages {
            needles.extend(sponge_lanes(m, 136, 0x01, 24, 32));
        }
        let left = left_after(
            || {
                let slices: Vec<&[u8]> = messages.iter().map(|m| &m[..]).collect();
                let mut digests = [[0u8; 32]; 8];
                sponge::keccak256_batch(&slices, &mut digests);
                keep(digests);
            },
            &needles,
        );
        assert!(
            left.is_empty(),
            "keccak256_batch of {lengths:?} left {left:#?}"
        );
    }
}

#[test]
fn kt128_leaves_no_lane_on_the_stack() {
    // Three leaves and a final node: the leaves' states are looked for (a chaining value is
    // a leaf's output, the node's input; it is looked for as the leaf's lanes 0-3 too).
    let data = message(8192 * 3 + 100, 5);
    let mut needles = Vec::new();
    for leaf in data[8192..].chunks(8192) {
        needles.extend(sponge_lanes(leaf, 168, 0x0b, 12, 0));
    }
    let left = left_after(
        || {
            let mut out = [0u8; 32];
            sponge::kt128(&data, b"", &mut out);
            keep(out);
        },
        &needles,
    );
    assert!(left.is_empty(), "kt128 left {left:#?}");
}

#[test]
fn the_scan_finds_a_lane_left_on_the_stack() {
    // The check itself: a function that leaves a state on its stack must be caught.
    #[inline(never)]
    fn careless(state: &mut [u64; 25]) {
        let mut copy = *state;
        keccak::f1600(&mut copy);
        // Safety: a volatile read of a local, so that the copy is kept in memory.
        unsafe { core::ptr::read_volatile(&copy) };
    }
    let mut state = [7u64; 25];
    let mut expected = state;
    keccak::f1600(&mut expected);
    let needles: Vec<(String, u64)> = expected
        .iter()
        .enumerate()
        .map(|(i, lane)| (format!("lane {i}"), *lane))
        .collect();
    let left = left_after(|| careless(&mut state), &needles);
    assert!(!left.is_empty(), "a copy left on the stack was not found");
}
