//! Every kernel this CPU runs against the portable code, called directly (the public
//! functions run the one kernel the process chose; tests/ check those against known answers).

use crate::dispatch::{self, Batch, Single, RATES_24};
use crate::portable;

/// A deterministic byte stream (splitmix64), so that a failure reproduces.
fn bytes(seed: u64, len: usize) -> std::vec::Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

fn state(seed: u64) -> [u64; 25] {
    let data = bytes(seed, 200);
    let mut state = [0u64; 25];
    portable::xor_block(&mut state, &data);
    state
}

#[test]
fn portable_keccak_f1600_of_zero() {
    // The first lane of Keccak-f[1600] of the zero state (XKCP's KeccakF-1600-IntermediateValues).
    let mut state = [0u64; 25];
    portable::keccak_p1600(&mut state, 24);
    assert_eq!(state[0], 0xf125_8f79_40e1_dde7);
    assert_eq!(state[24], 0xeaf1_ff7b_5cec_a249);
}

#[test]
fn single_kernels_match_portable() {
    let (singles, _, _) = dispatch::runnable();
    let singles: std::vec::Vec<&Single> = singles.collect();
    assert!(singles.iter().any(|k| k.name == "portable"));
    for kernel in singles {
        for seed in 0..8 {
            let mut want = state(seed);
            let mut have = want;
            portable::keccak_p1600(&mut want, 24);
            kernel.f1600(&mut have);
            assert_eq!(want, have, "{} f1600 seed {seed}", kernel.name);
            portable::keccak_p1600(&mut want, 12);
            kernel.p1600_12(&mut have);
            assert_eq!(want, have, "{} p1600_12 seed {seed}", kernel.name);
            for (rounds, rates) in [(24, &RATES_24[..]), (12, &[136usize, 168][..])] {
                for &rate in rates {
                    // Blocks at every alignment the kernels may meet.
                    let data = bytes(seed * 31 + rate as u64, rate + 8);
                    let block = &data[(seed as usize) % 8..][..rate];
                    portable::xor_block(&mut want, block);
                    portable::keccak_p1600(&mut want, rounds);
                    kernel.absorb(&mut have, block, rounds == 12);
                    assert_eq!(want, have, "{} absorb{rate} rounds {rounds}", kernel.name);
                }
            }
        }
    }
}

#[test]
fn batch_kernels_match_portable() {
    let (_, batches, _) = dispatch::runnable();
    for kernel in batches.collect::<std::vec::Vec<&Batch>>() {
        let lanes = kernel.lanes;
        for twelve in [false, true] {
            let rounds = if twelve { 12 } else { 24 };
            let rate = if twelve { 168 } else { 136 };
            // Block counts around the entries' loop: none, one (the one-block entry), many.
            for block_count in 0..5 {
                let mut singles: std::vec::Vec<[u64; 25]> =
                    (0..lanes).map(|s| state(100 + s as u64)).collect();
                let mut interleaved = std::vec![0u64; 25 * lanes];
                for (s, single) in singles.iter().enumerate() {
                    for i in 0..25 {
                        interleaved[lanes * i + s] = single[i];
                    }
                }
                let inputs: std::vec::Vec<std::vec::Vec<u8>> = (0..lanes)
                    .map(|s| bytes(s as u64 * 7 + block_count as u64, block_count * rate))
                    .collect();
                let slices: std::vec::Vec<&[u8]> = inputs.iter().map(|v| &v[..]).collect();
                kernel.absorb_blocks(&mut interleaved, &slices, block_count, twelve);
                kernel.permute(&mut interleaved, twelve);
                for (s, single) in singles.iter_mut().enumerate() {
                    for block in inputs[s].chunks(rate) {
                        portable::xor_block(single, block);
                        portable::keccak_p1600(single, rounds);
                    }
                    portable::keccak_p1600(single, rounds);
                    for i in 0..25 {
                        assert_eq!(
                            interleaved[lanes * i + s],
                            single[i],
                            "{} rounds {rounds} blocks {block_count} state {s} lane {i}",
                            kernel.name
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn ascon_kernels_match_portable() {
    let (_, _, ascons) = dispatch::runnable();
    for kernel in ascons {
        for seed in 0..16 {
            let full = state(seed);
            let mut want = [full[0], full[1], full[2], full[3], full[4]];
            let mut have = want;
            for rounds in [12, 8, 6] {
                portable::ascon_p320(&mut want, rounds);
                kernel.permute(&mut have, rounds);
                assert_eq!(want, have, "{} rounds {rounds} seed {seed}", kernel.name);
            }
        }
    }
}

/// The reference sponge: the portable permutation, one rate block at a time.
fn reference(data: &[u8], rate: usize, rounds: usize, domain: u8, out: &mut [u8]) {
    let mut state = [0u64; 25];
    let mut padded = data.to_vec();
    padded.push(domain);
    while padded.len() % rate != 0 {
        padded.push(0);
    }
    *padded.last_mut().unwrap() ^= 0x80;
    for block in padded.chunks(rate) {
        portable::xor_block(&mut state, block);
        portable::keccak_p1600(&mut state, rounds);
    }
    for (i, byte) in out.iter_mut().enumerate() {
        if i > 0 && i % rate == 0 {
            portable::keccak_p1600(&mut state, rounds);
        }
        *byte = (state[(i % rate) / 8] >> (8 * (i % 8))) as u8;
    }
}

/// Every length up to four blocks and two past, so each rate's edges are crossed.
fn lengths(rate: usize) -> impl Iterator<Item = usize> {
    0..=4 * rate + 2
}

#[test]
fn hashes_match_the_reference_at_every_length_around_each_rate() {
    let data = bytes(7, 4 * 168 + 2);
    for len in lengths(136) {
        let message = &data[..len];
        let mut want = [0u8; 32];
        reference(message, 136, 24, 0x01, &mut want);
        assert_eq!(crate::keccak256(message), want, "keccak256 length {len}");
        let mut streamed = crate::Keccak256::new();
        let (a, b) = message.split_at(len / 2);
        streamed.update(a);
        streamed.update(b);
        assert_eq!(streamed.finalize(), want, "Keccak256 length {len}");
        reference(message, 136, 24, 0x06, &mut want);
        assert_eq!(crate::sha3_256(message), want, "sha3_256 length {len}");
        let mut want = [0u8; 300];
        reference(message, 136, 24, 0x1f, &mut want);
        let mut shake = crate::Shake256::new();
        shake.update(message);
        let mut have = [0u8; 300];
        shake.finalize_xof().read(&mut have);
        assert_eq!(have, want, "shake256 length {len}");
    }
    for len in lengths(72) {
        let mut want = [0u8; 64];
        reference(&data[..len], 72, 24, 0x06, &mut want);
        assert_eq!(crate::sha3_512(&data[..len]), want, "sha3_512 length {len}");
    }
    for len in lengths(168) {
        let message = &data[..len];
        let mut want = [0u8; 400];
        let mut have = [0u8; 400];
        reference(message, 168, 24, 0x1f, &mut want);
        let mut shake = crate::Shake128::new();
        shake.update(message);
        shake.finalize_xof().read(&mut have);
        assert_eq!(have, want, "shake128 length {len}");
        reference(message, 168, 12, 0x1f, &mut want);
        crate::turboshake128(message, 0x1f, &mut have);
        assert_eq!(have, want, "turboshake128 length {len}");
    }
}

#[test]
fn batch_matches_one_at_a_time() {
    // 1 to 20 messages of mixed lengths: equal lengths (the one-call path), lengths that part
    // after common blocks, and partial last groups.
    for count in 1..=20usize {
        for pattern in 0..4u64 {
            let messages: std::vec::Vec<std::vec::Vec<u8>> = (0..count)
                .map(|i| {
                    let len = match pattern {
                        0 => 32,
                        1 => (i * 53) % 300,
                        2 => 136 * (i % 3) + (i % 2) * 135,
                        _ => 136 * 3 + i,
                    };
                    bytes(pattern * 1000 + i as u64, len)
                })
                .collect();
            let slices: std::vec::Vec<&[u8]> = messages.iter().map(|m| &m[..]).collect();
            let mut digests = std::vec![[0u8; 32]; count];
            crate::keccak256_batch(&slices, &mut digests);
            for (message, digest) in messages.iter().zip(&digests) {
                assert_eq!(
                    *digest,
                    crate::keccak256(message),
                    "{count} messages, pattern {pattern}, length {}",
                    message.len()
                );
            }
        }
    }
}

#[test]
fn multi_state_permutations_match_one_at_a_time() {
    for rounds in [24, 12, 7] {
        let mut eight = [[0u64; 25]; 8];
        for (s, state) in eight.iter_mut().enumerate() {
            *state = self::state(s as u64 + 50);
        }
        let mut want = eight;
        for state in &mut want {
            portable::keccak_p1600(state, rounds);
        }
        let mut two = [eight[0], eight[1]];
        crate::keccak::p1600_x2(&mut two, rounds);
        assert_eq!(two[..], want[..2], "x2 rounds {rounds}");
        let mut four = [eight[0], eight[1], eight[2], eight[3]];
        crate::keccak::p1600_x4(&mut four, rounds);
        assert_eq!(four[..], want[..4], "x4 rounds {rounds}");
        crate::keccak::p1600_x8(&mut eight, rounds);
        assert_eq!(eight, want, "x8 rounds {rounds}");
    }
}

#[test]
#[should_panic(expected = "A round_count greater than KECCAK_F_ROUND_COUNT is not supported!")]
fn p1600_refuses_more_than_24_rounds() {
    let mut state = [0u64; 25];
    crate::keccak::p1600(&mut state, 25);
}

#[test]
fn kt128_across_leaf_counts() {
    // Messages with 0 to 20 whole leaves and a partial one, customization spilling into a
    // new leaf: the batch leaves, the streamed leaves and the threads agree with a reference
    // built from turboshake128.
    for leaves in [0usize, 1, 2, 3, 7, 8, 9, 17] {
        for extra in [0usize, 1, 8191] {
            let message = bytes(leaves as u64, leaves * 8192 + extra);
            let customization = bytes(99, 5);
            let mut have = [0u8; 48];
            crate::kt128(&message, &customization, &mut have);
            let mut want = [0u8; 48];
            kt128_reference(&message, &customization, &mut want);
            assert_eq!(have, want, "{leaves} leaves + {extra}");
            crate::kt128_parallel(&message, &customization, &mut have, 3);
            assert_eq!(have, want, "{leaves} leaves + {extra}, 3 threads");
        }
    }
}

fn kt128_reference(message: &[u8], customization: &[u8], out: &mut [u8]) {
    let encode = |x: usize| {
        let bytes = (x as u64).to_be_bytes();
        let mut v: std::vec::Vec<u8> = bytes.iter().copied().skip_while(|&b| b == 0).collect();
        v.push(v.len() as u8);
        v
    };
    let mut s = message.to_vec();
    s.extend_from_slice(customization);
    s.extend(encode(customization.len()));
    if s.len() <= 8192 {
        return reference(&s, 168, 12, 0x07, out);
    }
    let mut node = s[..8192].to_vec();
    node.extend_from_slice(&[3, 0, 0, 0, 0, 0, 0, 0]);
    let chunks: std::vec::Vec<&[u8]> = s[8192..].chunks(8192).collect();
    for chunk in &chunks {
        let mut cv = [0u8; 32];
        reference(chunk, 168, 12, 0x0b, &mut cv);
        node.extend_from_slice(&cv);
    }
    node.extend(encode(chunks.len()));
    node.extend_from_slice(&[0xff, 0xff]);
    reference(&node, 168, 12, 0x06, out);
}
