//! Keccak-p[1600]: RustCrypto `keccak` 0.1's `f1600` and `p1600` (same signatures and
//! behaviour), and the same on 2, 4 or 8 states at once.

use crate::dispatch;
use crate::portable;
use crate::wipe::wipe_slice;

/// The number of lanes of a Keccak-p[1600] state.
pub const PLEN: usize = 25;

/// Keccak-f[1600] (24 rounds) on `state`, lane x + 5y at index x + 5y.
#[inline]
pub fn f1600(state: &mut [u64; PLEN]) {
    dispatch::single().f1600(state);
}

/// Keccak-p[1600, round_count]: the last `round_count` rounds of Keccak-f[1600]. 24 and 12
/// run the generated kernels, other counts the portable code.
///
/// # Panics
/// If `round_count` is greater than 24, as RustCrypto `keccak` 0.1 does.
#[inline]
pub fn p1600(state: &mut [u64; PLEN], round_count: usize) {
    assert!(
        round_count <= 24,
        "A round_count greater than KECCAK_F_ROUND_COUNT is not supported!"
    );
    match round_count {
        24 => dispatch::single().f1600(state),
        12 => dispatch::single().p1600_12(state),
        _ => portable::keccak_p1600(state, round_count),
    }
}

/// Keccak-p[1600, round_count] on each of the states, on the batch kernel where one runs
/// (two, four or eight states a call) and one state at a time elsewhere.
///
/// # Panics
/// If `round_count` is greater than 24.
fn p1600_many(states: &mut [[u64; PLEN]], round_count: usize) {
    assert!(
        round_count <= 24,
        "A round_count greater than KECCAK_F_ROUND_COUNT is not supported!"
    );
    let mut rest = states;
    if round_count == 24 || round_count == 12 {
        if let Some(batch) = dispatch::batch() {
            let lanes = batch.lanes;
            let mut interleaved = [0u64; 25 * 8];
            let interleaved = &mut interleaved[..25 * lanes];
            // A last group of two or more states runs on the batch kernel too, the missing
            // states zero: one call of eight states costs less than two calls of one.
            while rest.len() >= lanes.min(2) {
                let (group, tail) = rest.split_at_mut(lanes.min(rest.len()));
                interleaved.fill(0);
                for (s, state) in group.iter().enumerate() {
                    for (i, lane) in state.iter().enumerate() {
                        interleaved[lanes * i + s] = *lane;
                    }
                }
                batch.permute(interleaved, round_count == 12);
                for (s, state) in group.iter_mut().enumerate() {
                    for (i, lane) in state.iter_mut().enumerate() {
                        *lane = interleaved[lanes * i + s];
                    }
                }
                rest = tail;
            }
            wipe_slice(interleaved, 0);
        }
    }
    for state in rest {
        p1600(state, round_count);
    }
}

/// Keccak-p[1600, round_count] on two states.
pub fn p1600_x2(states: &mut [[u64; PLEN]; 2], round_count: usize) {
    p1600_many(states, round_count);
}

/// Keccak-p[1600, round_count] on four states.
pub fn p1600_x4(states: &mut [[u64; PLEN]; 4], round_count: usize) {
    p1600_many(states, round_count);
}

/// Keccak-p[1600, round_count] on eight states.
pub fn p1600_x8(states: &mut [[u64; PLEN]; 8], round_count: usize) {
    p1600_many(states, round_count);
}

/// Keccak-f[1600] on two states.
pub fn f1600_x2(states: &mut [[u64; PLEN]; 2]) {
    p1600_many(states, 24);
}

/// Keccak-f[1600] on four states.
pub fn f1600_x4(states: &mut [[u64; PLEN]; 4]) {
    p1600_many(states, 24);
}

/// Keccak-f[1600] on eight states.
pub fn f1600_x8(states: &mut [[u64; PLEN]; 8]) {
    p1600_many(states, 24);
}
