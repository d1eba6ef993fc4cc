package keccak

import (
	"encoding/binary"
	"testing"
)

// referenceSum256 is Keccak-256 written from the sponge's definition on the portable
// permutation, sharing nothing with the package's paths but keccakF1600Generic.
func referenceSum256(data []byte) [32]byte {
	var state [25]uint64
	padded := append(append([]byte{}, data...), 0x01)
	for len(padded)%rate != 0 {
		padded = append(padded, 0)
	}
	padded[len(padded)-1] |= 0x80
	for ; len(padded) > 0; padded = padded[rate:] {
		for i := 0; i < rate/8; i++ {
			state[i] ^= binary.LittleEndian.Uint64(padded[8*i:])
		}
		keccakF1600Generic(&state)
	}
	var d [32]byte
	for i := 0; i < 4; i++ {
		binary.LittleEndian.PutUint64(d[8*i:], state[i])
	}
	return d
}

// FuzzKeccak256 checks every entry point on the chosen kernels against referenceSum256:
// Sum256; a Hasher fed in pieces of `piece` bytes, through Sum256, Sum and Read; and
// Sum256Batch of data cut into messages of lengths that cycle through piece, 2*piece+1 and
// the rest.
func FuzzKeccak256(f *testing.F) {
	f.Add([]byte{}, uint16(0))
	f.Add(make([]byte, 135), uint16(1))
	f.Add(make([]byte, 1000), uint16(136))
	f.Add([]byte("abc"), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, piece uint16) {
		want := referenceSum256(data)
		if got := Sum256(data); got != want {
			t.Fatalf("Sum256: %x, want %x", got, want)
		}
		step := int(piece)%(3*rate) + 1
		var h Hasher
		for rest := data; len(rest) > 0; {
			n := step
			if n > len(rest) {
				n = len(rest)
			}
			h.Write(rest[:n])
			rest = rest[n:]
		}
		if got := h.Sum256(); got != want {
			t.Fatalf("Hasher.Sum256 in pieces of %d: %x, want %x", step, got, want)
		}
		if got := h.Sum(nil); string(got) != string(want[:]) {
			t.Fatalf("Hasher.Sum: %x, want %x", got, want)
		}
		var read [32]byte
		h.Read(read[:])
		if read != want {
			t.Fatalf("Hasher.Read: %x, want %x", read, want)
		}

		var messages [][]byte
		for rest, i := data, 0; len(rest) > 0 || i == 0; i++ {
			n := []int{step, 2*step + 1, len(rest)}[i%3]
			if n > len(rest) {
				n = len(rest)
			}
			messages = append(messages, rest[:n])
			rest = rest[n:]
		}
		digests := make([][32]byte, len(messages))
		Sum256Batch(digests, messages)
		for i, m := range messages {
			if want := referenceSum256(m); digests[i] != want {
				t.Fatalf("Sum256Batch message %d of %d (%d bytes): %x, want %x",
					i, len(messages), len(m), digests[i], want)
			}
		}
	})
}
