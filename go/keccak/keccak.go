// Package keccak is Keccak-256 (the legacy padding, domain byte 0x01, as Ethereum uses it)
// with the API of fastkeccak: a program switches by changing its import path. The
// permutation is one of spongegen's kernels, written as Go assembly by the generator
// (keccakf1600_*.s): amd64-bmi2 on amd64 cores with BMI1 and BMI2, arm64-sha3 on arm64
// cores with the SHA3 extension; Sum256Batch runs the multi-state kernels (AVX-512, AVX2,
// arm64 SHA3). Elsewhere, and under the purego build tag, it is portable Go.
package keccak

import (
	"encoding/binary"
	"hash"
)

// KeccakState is a hash.Hash that can also be read from as an extendable output:
// Read squeezes output and switches the state from absorbing to squeezing.
type KeccakState interface {
	hash.Hash
	Read([]byte) (int, error)
}

const rate = 136 // bytes: (1600 - 2*256) / 8

// blocksPerCall bounds the blocks one call of a block entry (amd64-bmi2's) absorbs: the
// runtime can stop a goroutine only at a call's start (the prologue's stack-bound check), so
// a stop-the-world waits for at most this many permutations (about 6.5 us on the Zen 5
// measured). There, calls of 8 to 64 blocks took 2-3% less time a block than one call a
// block (the header of keccakf1600_amd64_bmi2_amd64.s); more blocks a call gained nothing.
const blocksPerCall = 32

var _ KeccakState = (*Hasher)(nil)

// NewFastKeccak returns a new Keccak-256 hasher. A zero Hasher is ready to use as well.
func NewFastKeccak() *Hasher { return &Hasher{} }

// Hasher is a streaming Keccak-256 hasher; its zero value is an empty hash.
type Hasher struct {
	state     [25]uint64
	buf       [rate]byte
	absorbed  int
	squeezing bool
	readIdx   int
}

// Reset empties the hasher.
func (h *Hasher) Reset() { *h = Hasher{} }

// Size is the digest's length in bytes (32).
func (h *Hasher) Size() int { return 32 }

// BlockSize is the sponge's rate in bytes (136).
func (h *Hasher) BlockSize() int { return rate }

// Write absorbs p. It panics after Read, as fastkeccak's does.
func (h *Hasher) Write(p []byte) (int, error) {
	if h.squeezing {
		panic("keccak: Write after Read")
	}
	n := len(p)
	if h.absorbed > 0 {
		x := copy(h.buf[h.absorbed:], p)
		h.absorbed += x
		p = p[x:]
		if h.absorbed == rate {
			absorbBlock(&h.state, h.buf[:])
			h.absorbed = 0
		}
	}
	p = absorbBlocks(&h.state, p)
	if len(p) > 0 {
		h.absorbed = copy(h.buf[:], p)
	}
	return n, nil
}

// Sum256 is the digest of what was written; the hasher is unchanged.
func (h *Hasher) Sum256() [32]byte {
	state := h.state
	pad(&state, h.buf[:h.absorbed])
	permute(&state)
	return digest(&state)
}

// Sum256Reset is the digest of what was written, then empties the hasher.
func (h *Hasher) Sum256Reset() [32]byte {
	d := h.Sum256()
	h.Reset()
	return d
}

// Sum appends the digest to b; the hasher is unchanged.
func (h *Hasher) Sum(b []byte) []byte {
	d := h.Sum256()
	return append(b, d[:]...)
}

// Read squeezes len(out) bytes. The first Read pads and permutes; Write panics after it.
func (h *Hasher) Read(out []byte) (int, error) {
	if !h.squeezing {
		pad(&h.state, h.buf[:h.absorbed])
		permute(&h.state)
		h.squeezing = true
		h.readIdx = 0
	}
	n := len(out)
	for len(out) > 0 {
		if h.readIdx == rate {
			permute(&h.state)
			h.readIdx = 0
		}
		b := stateBytes(&h.state)
		x := copy(out, b[h.readIdx:rate])
		h.readIdx += x
		out = out[x:]
	}
	return n, nil
}

// Sum256 is the Keccak-256 digest of data, computed without allocating.
func Sum256(data []byte) [32]byte {
	var state [25]uint64
	data = absorbBlocks(&state, data)
	// The last block, padded, goes through the fused absorb entry like the others.
	var last [rate]byte
	copy(last[:], data)
	last[len(data)] = 0x01
	last[rate-1] |= 0x80
	absorb(&state, &last)
	return digest(&state)
}

// absorbBlock XORs one rate block into the state and permutes.
func absorbBlock(state *[25]uint64, block []byte) {
	absorb(state, (*[rate]byte)(block))
}

// absorbEach absorbs the whole blocks at the start of p, one call a block, and returns the
// rest (fewer than rate bytes): absorbBlocks where no kernel takes many blocks a call.
func absorbEach(state *[25]uint64, p []byte) []byte {
	for len(p) >= rate {
		absorbBlock(state, p[:rate])
		p = p[rate:]
	}
	return p
}

// absorbGeneric is absorbBlock in Go, around whichever permutation is in use.
func absorbGeneric(state *[25]uint64, block *[rate]byte) {
	for i := 0; i < rate/8; i++ {
		state[i] ^= le64(block[8*i:])
	}
	permute(state)
}

// pad XORs the last, partial block (fewer than rate bytes) and the padding 0x01 ... 0x80.
func pad(state *[25]uint64, tail []byte) {
	var block [rate]byte
	copy(block[:], tail)
	block[len(tail)] ^= 0x01
	block[rate-1] ^= 0x80
	for i := 0; i < rate/8; i++ {
		state[i] ^= le64(block[8*i:])
	}
}

func digest(state *[25]uint64) [32]byte {
	var d [32]byte
	for i := 0; i < 4; i++ {
		putLe64(d[8*i:], state[i])
	}
	return d
}

// stateBytes is the state's rate as bytes, lanes little-endian, for Read.
func stateBytes(state *[25]uint64) [rate]byte {
	var b [rate]byte
	for i := 0; i < rate/8; i++ {
		putLe64(b[8*i:], state[i])
	}
	return b
}

// le64 and putLe64 are the lanes' byte order; the compiler makes each one 8-byte move.
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func putLe64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
