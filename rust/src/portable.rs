//! The portable permutations: the reference every kernel is tested against, and the code
//! that runs where no kernel does.

const KECCAK_ROUND_CONSTANTS: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

// rho's rotation of lane x + 5y, and pi's destination of each lane, in the order pi walks.
const RHO: [u32; 24] = [
    1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
];
const PI: [usize; 24] = [
    10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
];

/// Keccak-p[1600, rounds]: the last `rounds` rounds of Keccak-f[1600] (rounds <= 24).
pub(crate) fn keccak_p1600(state: &mut [u64; 25], rounds: usize) {
    debug_assert!(rounds <= 24);
    for &constant in &KECCAK_ROUND_CONSTANTS[24 - rounds..] {
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20];
        }
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                state[x + 5 * y] ^= d;
            }
        }
        let mut carried = state[1];
        for i in 0..24 {
            let next = state[PI[i]];
            state[PI[i]] = carried.rotate_left(RHO[i]);
            carried = next;
        }
        for y in 0..5 {
            let row = [
                state[5 * y],
                state[5 * y + 1],
                state[5 * y + 2],
                state[5 * y + 3],
                state[5 * y + 4],
            ];
            for x in 0..5 {
                state[5 * y + x] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]);
            }
        }
        state[0] ^= constant;
    }
}

/// XORs `block` (whole lanes, little-endian) into the state's first lanes.
pub(crate) fn xor_block(state: &mut [u64; 25], block: &[u8]) {
    for (lane, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
        let mut word = [0u8; 8];
        word.copy_from_slice(bytes);
        *lane ^= u64::from_le_bytes(word);
    }
}

const ASCON_ROUND_CONSTANTS: [u64; 12] = [
    0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b,
];

/// Ascon-p[320] with the last `rounds` of its 12 rounds (rounds <= 12).
pub(crate) fn ascon_p320(state: &mut [u64; 5], rounds: usize) {
    let [mut x0, mut x1, mut x2, mut x3, mut x4] = *state;
    for &constant in &ASCON_ROUND_CONSTANTS[12 - rounds..] {
        x2 ^= constant;
        x0 ^= x4;
        x4 ^= x3;
        x2 ^= x1;
        let t0 = !x0 & x1;
        let t1 = !x1 & x2;
        let t2 = !x2 & x3;
        let t3 = !x3 & x4;
        let t4 = !x4 & x0;
        x0 ^= t1;
        x1 ^= t2;
        x2 ^= t3;
        x3 ^= t4;
        x4 ^= t0;
        x1 ^= x0;
        x0 ^= x4;
        x3 ^= x2;
        x2 = !x2;
        x0 ^= x0.rotate_right(19) ^ x0.rotate_right(28);
        x1 ^= x1.rotate_right(61) ^ x1.rotate_right(39);
        x2 ^= x2.rotate_right(1) ^ x2.rotate_right(6);
        x3 ^= x3.rotate_right(10) ^ x3.rotate_right(17);
        x4 ^= x4.rotate_right(7) ^ x4.rotate_right(41);
    }
    *state = [x0, x1, x2, x3, x4];
}
