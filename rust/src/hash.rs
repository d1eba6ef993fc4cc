//! The sponge functions on the kernels: Keccak-256, SHA3-256/512, SHAKE128/256,
//! TurboSHAKE128, KT128, and Keccak-256 of many messages on the batch kernels.

use crate::dispatch::{self, Batch};
use crate::wipe::{wipe, wipe_slice};

/// A sponge of `RATE` bytes on Keccak-p[1600] with 24 or 12 rounds.
#[derive(Clone)]
pub(crate) struct Sponge<const RATE: usize> {
    state: [u64; 25],
    buffer: [u8; RATE],
    filled: usize,
    twelve_rounds: bool,
}

impl<const RATE: usize> Sponge<RATE> {
    pub(crate) const fn new(twelve_rounds: bool) -> Self {
        Sponge {
            state: [0; 25],
            buffer: [0; RATE],
            filled: 0,
            twelve_rounds,
        }
    }

    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        let kernel = dispatch::single();
        if self.filled > 0 {
            let take = data.len().min(RATE - self.filled);
            self.buffer[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled < RATE {
                return;
            }
            kernel.absorb(&mut self.state, &self.buffer, self.twelve_rounds);
            self.filled = 0;
        }
        let mut blocks = data.chunks_exact(RATE);
        for block in &mut blocks {
            kernel.absorb(&mut self.state, block, self.twelve_rounds);
        }
        let tail = blocks.remainder();
        self.buffer[..tail.len()].copy_from_slice(tail);
        self.filled = tail.len();
    }

    /// Pads with `domain` (its bits before the padding's first 1), absorbs the last block,
    /// and returns the reader, the state moved into it; the sponge is left as `new` made it.
    pub(crate) fn finish(&mut self, domain: u8) -> XofReader {
        self.buffer[self.filled..].fill(0);
        self.buffer[self.filled] ^= domain;
        self.buffer[RATE - 1] ^= 0x80;
        dispatch::single().absorb(&mut self.state, &self.buffer, self.twelve_rounds);
        wipe(&mut self.buffer, [0; RATE]);
        self.filled = 0;
        // Built in the caller's place: a reader made in a local and then returned would leave
        // the local's copy of the state behind.
        XofReader {
            state: core::mem::take(&mut self.state),
            rate: RATE,
            offset: 0,
            twelve_rounds: self.twelve_rounds,
        }
    }
}

impl<const RATE: usize> Drop for Sponge<RATE> {
    fn drop(&mut self) {
        wipe(&mut self.state, [0; 25]);
        wipe(&mut self.buffer, [0; RATE]);
    }
}

/// The output of an extendable-output function, read in pieces of any size.
#[derive(Clone)]
pub struct XofReader {
    state: [u64; 25],
    rate: usize,
    offset: usize,
    twelve_rounds: bool,
}

impl XofReader {
    /// Fills `out` with the next bytes of the output.
    pub fn read(&mut self, out: &mut [u8]) {
        for byte in out {
            if self.offset == self.rate {
                let kernel = dispatch::single();
                if self.twelve_rounds {
                    kernel.p1600_12(&mut self.state);
                } else {
                    kernel.f1600(&mut self.state);
                }
                self.offset = 0;
            }
            *byte = (self.state[self.offset / 8] >> (8 * (self.offset % 8))) as u8;
            self.offset += 1;
        }
    }
}

impl Drop for XofReader {
    fn drop(&mut self) {
        wipe(&mut self.state, [0; 25]);
    }
}

fn read_digest<const N: usize>(reader: XofReader) -> [u8; N] {
    lanes_to_bytes(&reader.state)
}

/// The first N bytes of the state (N at most a rate), lane by lane.
fn lanes_to_bytes<const N: usize>(state: &[u64; 25]) -> [u8; N] {
    let mut out = [0u8; N];
    for (chunk, lane) in out.chunks_mut(8).zip(state) {
        chunk.copy_from_slice(&lane.to_le_bytes()[..chunk.len()]);
    }
    out
}

/// A whole message's digest of N bytes (N at most RATE) at 24 rounds: its whole blocks
/// straight from `data`, the padded last block on the stack, no buffer to fill first.
fn one_shot<const RATE: usize, const N: usize>(data: &[u8], domain: u8) -> [u8; N] {
    let kernel = dispatch::single();
    let mut state = [0u64; 25];
    let mut blocks = data.chunks_exact(RATE);
    for block in &mut blocks {
        kernel.absorb(&mut state, block, false);
    }
    let tail = blocks.remainder();
    let mut last = [0u8; RATE];
    last[..tail.len()].copy_from_slice(tail);
    last[tail.len()] ^= domain;
    last[RATE - 1] ^= 0x80;
    kernel.absorb(&mut state, &last, false);
    let digest = lanes_to_bytes(&state);
    wipe(&mut state, [0; 25]);
    wipe(&mut last, [0; RATE]);
    digest
}

const KECCAK_DOMAIN: u8 = 0x01;
const SHA3_DOMAIN: u8 = 0x06;
const SHAKE_DOMAIN: u8 = 0x1f;

/// Keccak-256 as Ethereum uses it (the original padding, domain byte 0x01).
#[derive(Clone)]
pub struct Keccak256 {
    sponge: Sponge<136>,
}

impl Default for Keccak256 {
    fn default() -> Self {
        Self::new()
    }
}

impl Keccak256 {
    pub const fn new() -> Self {
        Keccak256 {
            sponge: Sponge::new(false),
        }
    }
    pub fn update(&mut self, data: &[u8]) {
        self.sponge.absorb(data);
    }
    /// The digest. `self` is taken by value, as RustCrypto's hashers take it: the compiler
    /// may leave a copy of the state where the hasher was before the move, which no code can
    /// reach to wipe; `finalize_reset` finishes the hasher where it is and leaves nothing.
    pub fn finalize(mut self) -> [u8; 32] {
        self.finalize_reset()
    }
    /// The digest, and the hasher back to the state of `new()`; its state and buffer are
    /// zeroed where they are.
    pub fn finalize_reset(&mut self) -> [u8; 32] {
        read_digest(self.sponge.finish(KECCAK_DOMAIN))
    }
    /// Back to the state of `new()`, to hash another message.
    pub fn reset(&mut self) {
        *self = Self::new();
    }
}

/// Keccak-256 of `data`.
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    one_shot::<136, 32>(data, KECCAK_DOMAIN)
}

/// SHA3-256 of `data` (FIPS 202).
pub fn sha3_256(data: &[u8]) -> [u8; 32] {
    one_shot::<136, 32>(data, SHA3_DOMAIN)
}

/// SHA3-512 of `data` (FIPS 202).
pub fn sha3_512(data: &[u8]) -> [u8; 64] {
    one_shot::<72, 64>(data, SHA3_DOMAIN)
}

macro_rules! shake {
    ($name:ident, $rate:literal, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone)]
        pub struct $name {
            sponge: Sponge<$rate>,
        }
        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }
        impl $name {
            pub const fn new() -> Self {
                $name {
                    sponge: Sponge::new(false),
                }
            }
            pub fn update(&mut self, data: &[u8]) {
                self.sponge.absorb(data);
            }
            /// Ends the input; the reader gives the output. As `Keccak256::finalize`, a
            /// move of `self` may leave a copy of the state behind; `finalize_xof_reset`
            /// does not.
            pub fn finalize_xof(mut self) -> XofReader {
                self.finalize_xof_reset()
            }
            /// Ends the input and returns the reader, with this hasher back to the state
            /// of `new()` (its state and buffer zeroed where they are).
            pub fn finalize_xof_reset(&mut self) -> XofReader {
                self.sponge.finish(SHAKE_DOMAIN)
            }
        }
    };
}

shake!(
    Shake128,
    168,
    "SHAKE128 (FIPS 202): absorb with `update`, read with `finalize_xof`."
);
shake!(
    Shake256,
    136,
    "SHAKE256 (FIPS 202): absorb with `update`, read with `finalize_xof`."
);

/// TurboSHAKE128 (RFC 9861) of `data` with domain byte `domain` (0x01 to 0x7F) into `out`.
///
/// # Panics
/// If `domain` is outside 0x01..=0x7F.
pub fn turboshake128(data: &[u8], domain: u8, out: &mut [u8]) {
    assert!(
        (0x01..=0x7f).contains(&domain),
        "TurboSHAKE's domain byte is 0x01 to 0x7F"
    );
    let mut sponge = Sponge::<168>::new(true);
    sponge.absorb(data);
    sponge.finish(domain).read(out);
}

const KT_CHUNK: usize = 8192;
const KT_LEAF_DOMAIN: u8 = 0x0b;

/// length_encode(x) of RFC 9861: x's big-endian bytes without leading zeros, then their count.
fn length_encode(value: usize, out: &mut [u8; 9]) -> usize {
    let bytes = (value as u64).to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count();
    let used = 8 - skip;
    out[..used].copy_from_slice(&bytes[skip..]);
    out[used] = used as u8;
    used + 1
}

/// KT128's input string S = M || C || length_encode(|C|), as its three pieces.
struct KtInput<'a> {
    pieces: [&'a [u8]; 3],
}

impl<'a> KtInput<'a> {
    fn len(&self) -> usize {
        self.pieces.iter().map(|piece| piece.len()).sum()
    }
    /// Absorbs S[start..end] into `sponge`.
    fn absorb_range<const RATE: usize>(&self, sponge: &mut Sponge<RATE>, start: usize, end: usize) {
        let mut offset = 0;
        for piece in self.pieces {
            let (from, to) = (start.max(offset), end.min(offset + piece.len()));
            if from < to {
                sponge.absorb(&piece[from - offset..to - offset]);
            }
            offset += piece.len();
        }
    }
    /// Leaf `index` (1 or more) when it lies within M, as one slice.
    fn leaf_in_message(&self, index: usize) -> Option<&'a [u8]> {
        let end = (index + 1) * KT_CHUNK;
        (end <= self.pieces[0].len()).then(|| &self.pieces[0][index * KT_CHUNK..end])
    }
}

/// The chaining values of whole leaves of 8192 bytes (TurboSHAKE128 with domain 0x0B, 32
/// bytes each), on the batch kernel where one runs.
fn leaf_chaining_values(leaves: &[&[u8]], out: &mut [[u8; 32]]) {
    let mut done = 0;
    if let Some(batch) = dispatch::batch() {
        // Zero here, and zero again after each group, which wipes it.
        let mut states = [0u64; 25 * 8];
        while leaves.len() - done >= batch.lanes {
            let group = &leaves[done..done + batch.lanes];
            let states = &mut states[..25 * batch.lanes];
            leaf_group(batch, states, group, &mut out[done..done + batch.lanes]);
            done += batch.lanes;
        }
    }
    for (leaf, cv) in leaves[done..].iter().zip(&mut out[done..]) {
        turboshake128(leaf, KT_LEAF_DOMAIN, cv);
    }
}

/// One leaf a state of the batch kernel, from `states` (the lanes' interleaved states) zero;
/// `states` is zero again after it.
fn leaf_group(batch: &Batch, states: &mut [u64], leaves: &[&[u8]], out: &mut [[u8; 32]]) {
    const RATE: usize = 168;
    let lanes = batch.lanes;
    let whole = KT_CHUNK / RATE;
    batch.absorb_blocks(states, leaves, whole, true);
    for (s, leaf) in leaves.iter().enumerate() {
        xor_final_block::<RATE>(states, lanes, s, &leaf[whole * RATE..], KT_LEAF_DOMAIN);
    }
    batch.permute(states, true);
    extract_digests(states, lanes, out);
    wipe_slice(states, 0);
}

/// XORs into state `s` of lane-interleaved states (lane i at `states[lanes * i + s]`) the
/// final block a sponge of RATE bytes would absorb: `tail` (shorter than RATE), `domain`
/// after it, the padding's last 1 in byte RATE - 1. Lane by lane, without building the
/// block: the permute entry then finishes the states, where the absorb entry would first
/// gather every lane of every block.
fn xor_final_block<const RATE: usize>(
    states: &mut [u64],
    lanes: usize,
    s: usize,
    tail: &[u8],
    domain: u8,
) {
    let mut words = tail.chunks_exact(8);
    let mut lane = 0;
    for word in &mut words {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(word);
        states[lanes * lane + s] ^= u64::from_le_bytes(bytes);
        lane += 1;
    }
    // The last word gathered in a register: bytes stored one by one and then loaded as a
    // word would stall the load until the stores retire (a store-forwarding failure, 7% of
    // the batch's time on Zen 4).
    let rest = words.remainder();
    let mut last = u64::from(domain) << (8 * rest.len());
    for (k, &byte) in rest.iter().enumerate() {
        last |= u64::from(byte) << (8 * k);
    }
    states[lanes * lane + s] ^= last;
    states[lanes * (RATE / 8 - 1) + s] ^= 0x80 << 56;
}

/// Each state's first four lanes, from lane-interleaved states (lane i of state s at
/// `states[lanes * i + s]`), as its 32-byte digest.
fn extract_digests(states: &[u64], lanes: usize, out: &mut [[u8; 32]]) {
    for (s, digest) in out.iter_mut().enumerate() {
        for (i, chunk) in digest.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(&states[lanes * i + s].to_le_bytes());
        }
    }
}

/// KT128 (RFC 9861) of `message` with `customization` into `out`, one thread.
pub fn kt128(message: &[u8], customization: &[u8], out: &mut [u8]) {
    kt128_with(message, customization, out, |leaves, cvs| {
        leaf_chaining_values(leaves, cvs)
    });
}

/// KT128 as `kt128` computes it, its leaves hashed on up to `threads` threads (0 or 1: one).
#[cfg(feature = "std")]
pub fn kt128_parallel(message: &[u8], customization: &[u8], out: &mut [u8], threads: usize) {
    kt128_with(message, customization, out, |leaves, cvs| {
        let per_thread = (leaves.len() + threads.max(1) - 1) / threads.max(1);
        if threads <= 1 || leaves.len() < 2 {
            return leaf_chaining_values(leaves, cvs);
        }
        std::thread::scope(|scope| {
            for (leaves, cvs) in leaves.chunks(per_thread).zip(cvs.chunks_mut(per_thread)) {
                scope.spawn(move || leaf_chaining_values(leaves, cvs));
            }
        });
    });
}

// Leaves are hashed in groups of this many, their chaining values kept on the stack.
const KT_GROUP: usize = 256;

fn kt128_with(
    message: &[u8],
    customization: &[u8],
    out: &mut [u8],
    hash_leaves: impl Fn(&[&[u8]], &mut [[u8; 32]]),
) {
    let mut encoded = [0u8; 9];
    let encoded_len = length_encode(customization.len(), &mut encoded);
    let input = KtInput {
        pieces: [message, customization, &encoded[..encoded_len]],
    };
    let total = input.len();
    let mut node = Sponge::<168>::new(true);
    if total <= KT_CHUNK {
        input.absorb_range(&mut node, 0, total);
        node.finish(0x07).read(out);
        return;
    }
    input.absorb_range(&mut node, 0, KT_CHUNK);
    node.absorb(&[0x03, 0, 0, 0, 0, 0, 0, 0]);
    let leaf_count = (total + KT_CHUNK - 1) / KT_CHUNK - 1;
    let mut index = 1;
    let mut leaves: [&[u8]; KT_GROUP] = [&[]; KT_GROUP];
    let mut cvs = [[0u8; 32]; KT_GROUP];
    while index <= leaf_count {
        // The leaves within M, as many as a group holds, on the kernels side by side.
        let mut count = 0;
        while count < KT_GROUP && index + count <= leaf_count {
            match input.leaf_in_message(index + count) {
                Some(leaf) => leaves[count] = leaf,
                None => break,
            }
            count += 1;
        }
        if count > 0 {
            hash_leaves(&leaves[..count], &mut cvs[..count]);
            for cv in &cvs[..count] {
                node.absorb(cv);
            }
            index += count;
            continue;
        }
        // A leaf reaching into C or its length: absorbed from the pieces.
        let mut leaf = Sponge::<168>::new(true);
        input.absorb_range(
            &mut leaf,
            index * KT_CHUNK,
            total.min((index + 1) * KT_CHUNK),
        );
        let mut cv = [0u8; 32];
        leaf.finish(KT_LEAF_DOMAIN).read(&mut cv);
        node.absorb(&cv);
        wipe(&mut cv, [0; 32]);
        index += 1;
    }
    wipe(&mut cvs, [[0; 32]; KT_GROUP]);
    let encoded_len = length_encode(leaf_count, &mut encoded);
    node.absorb(&encoded[..encoded_len]);
    node.absorb(&[0xff, 0xff]);
    node.finish(0x06).read(out);
}

/// Keccak-256 of each message into the digest at the same index, on the batch kernel
/// where one runs (eight or four or two messages a call), else one at a time.
///
/// # Panics
/// If `messages` and `digests` differ in length.
pub fn keccak256_batch(messages: &[&[u8]], digests: &mut [[u8; 32]]) {
    assert_eq!(
        messages.len(),
        digests.len(),
        "keccak256_batch: one digest per message"
    );
    let mut done = 0;
    if let Some(batch) = dispatch::batch() {
        let lanes = batch.lanes;
        // Zero here, and zero again after each group, which wipes it.
        let mut states = [0u64; 25 * 8];
        let states = &mut states[..25 * lanes];
        while messages.len() - done >= lanes {
            keccak256_group(
                batch,
                states,
                &messages[done..done + lanes],
                &mut digests[done..done + lanes],
            );
            done += lanes;
        }
        // A last partial group still gains from the batch kernel when at least half full:
        // the empty states it adds cost less than the permutations they save.
        let rest = messages.len() - done;
        if rest * 2 >= lanes && rest > 1 {
            let mut group: [&[u8]; 8] = [&[]; 8];
            group[..rest].copy_from_slice(&messages[done..]);
            let mut out = [[0u8; 32]; 8];
            keccak256_group(batch, states, &group[..lanes], &mut out[..lanes]);
            digests[done..].copy_from_slice(&out[..rest]);
            done = messages.len();
        }
    }
    for (message, digest) in messages[done..].iter().zip(&mut digests[done..]) {
        *digest = keccak256(message);
    }
}

/// Keccak-256 of one message a state of the batch kernel, from `states` (the lanes'
/// interleaved states) zero; `states` is zero again after it.
fn keccak256_group(
    batch: &Batch,
    states: &mut [u64],
    messages: &[&[u8]],
    digests: &mut [[u8; 32]],
) {
    const RATE: usize = 136;
    let lanes = batch.lanes;
    let common = messages.iter().map(|m| m.len() / RATE).min().unwrap_or(0);
    batch.absorb_blocks(states, messages, common, false);
    if messages.iter().all(|m| m.len() / RATE == common) {
        for (s, message) in messages.iter().enumerate() {
            xor_final_block::<RATE>(states, lanes, s, &message[common * RATE..], KECCAK_DOMAIN);
        }
        batch.permute(states, false);
        extract_digests(states, lanes, digests);
        wipe_slice(states, 0);
        return;
    }
    // Lengths that part after the common blocks: each state finishes on its own.
    for (s, (message, digest)) in messages.iter().zip(digests).enumerate() {
        // Filled in place: a state built apart and moved in would leave its copy behind.
        let mut sponge = Sponge::<RATE>::new(false);
        for (i, lane) in sponge.state.iter_mut().enumerate() {
            *lane = states[lanes * i + s];
        }
        sponge.absorb(&message[common * RATE..]);
        *digest = read_digest(sponge.finish(KECCAK_DOMAIN));
    }
    wipe_slice(states, 0);
}
