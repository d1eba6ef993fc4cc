//! sponge-bench: nanoseconds per call of the crate's functions, no framework.
//!
//! `cargo run --release --bin sponge-bench` measures this crate alone; bench/rust.sh builds
//! bench/rust/peers.rs, which takes this file's harness and cases and adds RustCrypto
//! `keccak` and `ascon` and tiny-keccak beside them, in one run.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

// std::hint::black_box is newer than the crate's minimum (1.63): results go to a sink the
// compiler cannot see through instead, and inputs start at an offset it cannot know (0).
static SINK: AtomicU64 = AtomicU64::new(0);
static ZERO: AtomicUsize = AtomicUsize::new(0);

/// Keeps `value` (a result) alive: plain loads and stores, no locked instruction.
pub fn consume(value: u64) {
    SINK.store(SINK.load(Ordering::Relaxed) ^ value, Ordering::Relaxed);
}

/// `data[..len]`, at an offset the compiler cannot know, so no call is hoisted out of a loop.
pub fn input(data: &[u8], len: usize) -> &[u8] {
    let start = ZERO.load(Ordering::Relaxed);
    &data[start..start + len]
}

pub fn first_word(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .take(8)
        .fold(0, |word, &b| word << 8 | u64::from(b))
}

/// One measured case: its name and a closure doing one call.
pub struct Case<'a> {
    pub name: String,
    pub run: Box<dyn FnMut() + 'a>,
}

impl<'a> Case<'a> {
    pub fn new(name: &str, run: impl FnMut() + 'a) -> Self {
        Case {
            name: name.to_string(),
            run: Box::new(run),
        }
    }
}

/// The fastest of `rounds` samples of each case's nanoseconds per call, the cases
/// interleaved round by round so that a slower or busier moment falls on all of them alike.
/// Each sample runs the case for about `sample_ns` nanoseconds. The fastest, not the median:
/// on a shared machine other programs only ever add time, in bursts that can cover half of
/// a case's samples.
pub fn measure(cases: &mut [Case], rounds: usize, sample_ns: u64) -> Vec<f64> {
    // Calls per sample, from a warm-up of each case.
    let mut calls = Vec::new();
    for case in cases.iter_mut() {
        let mut n = 1u64;
        loop {
            let start = Instant::now();
            for _ in 0..n {
                (case.run)();
            }
            let took = start.elapsed().as_nanos() as u64;
            if took >= sample_ns / 4 {
                calls.push((n * sample_ns / took.max(1)).max(1));
                break;
            }
            n *= 2;
        }
    }
    let mut samples = vec![Vec::new(); cases.len()];
    for _ in 0..rounds {
        for (i, case) in cases.iter_mut().enumerate() {
            let start = Instant::now();
            for _ in 0..calls[i] {
                (case.run)();
            }
            samples[i].push(start.elapsed().as_nanos() as f64 / calls[i] as f64);
        }
    }
    samples
        .into_iter()
        .map(|s| s.iter().copied().fold(f64::INFINITY, f64::min))
        .collect()
}

/// The crate's cases, named as bench/rust/peers.rs pairs them with the peers'.
pub fn our_cases<'a>(data: &'a [u8], batch: &'a [&'a [u8]]) -> Vec<Case<'a>> {
    let mut state = [0u64; 25];
    let mut state12 = [0u64; 25];
    let mut ascon12 = [0u64; 5];
    let mut ascon8 = [0u64; 5];
    let mut ascon6 = [0u64; 5];
    let mut digests = vec![[0u8; 32]; batch.len()];
    let mut cases = vec![
        Case::new("f1600", move || {
            sponge::keccak::f1600(&mut state);
            consume(state[0]);
        }),
        Case::new("p1600 12 rounds", move || {
            sponge::keccak::p1600(&mut state12, 12);
            consume(state12[0]);
        }),
    ];
    for size in [32usize, 136, 4096, 1 << 20] {
        cases.push(Case::new(&format!("keccak256 {size} B"), move || {
            consume(first_word(&sponge::keccak256(input(data, size))));
        }));
    }
    cases.push(Case::new(
        &format!("keccak256 x{} of 32 B, one at a time", batch.len()),
        move || {
            for message in batch {
                consume(first_word(&sponge::keccak256(input(
                    message,
                    message.len(),
                ))));
            }
        },
    ));
    cases.push(Case::new(
        &format!("keccak256_batch x{} of 32 B", batch.len()),
        move || {
            sponge::keccak256_batch(batch, &mut digests);
            consume(first_word(&digests[ZERO.load(Ordering::Relaxed)]));
        },
    ));
    cases.push(Case::new("ascon permute12", move || {
        sponge::ascon::permute12(&mut ascon12);
        consume(ascon12[0]);
    }));
    cases.push(Case::new("ascon permute8", move || {
        sponge::ascon::permute8(&mut ascon8);
        consume(ascon8[0]);
    }));
    cases.push(Case::new("ascon permute6", move || {
        sponge::ascon::permute6(&mut ascon6);
        consume(ascon6[0]);
    }));
    cases
}

/// The inputs: 1 MiB of data and 1,024 messages of 32 bytes.
pub fn inputs() -> (Vec<u8>, Vec<[u8; 32]>) {
    let data: Vec<u8> = (0..1u32 << 20).map(|i| (i * 7 + i / 251) as u8).collect();
    let messages = (0..1024u32)
        .map(|i| {
            let mut m = [0u8; 32];
            m[..4].copy_from_slice(&i.to_le_bytes());
            m
        })
        .collect();
    (data, messages)
}

#[allow(dead_code)] // peers.rs has a main of its own
fn main() {
    let (data, messages) = inputs();
    let batch: Vec<&[u8]> = messages.iter().map(|m| &m[..]).collect();
    let mut cases = our_cases(&data, &batch);
    let medians = measure(&mut cases, 21, 2_000_000);
    println!(
        "kernels (keccak, batch, ascon): {:?}",
        sponge::active_kernels()
    );
    for (case, ns) in cases.iter().zip(medians) {
        println!("{:<44} {:>12.1} ns", case.name, ns);
    }
}
