//go:build xcrypto

// Differential tests against x/crypto's legacy Keccak-256 (go test -tags xcrypto, with
// golang.org/x/crypto on GOPATH: Debian's golang-golang-x-crypto-dev).
package keccak

import (
	"bytes"
	"hash"
	"strconv"
	"testing"

	"golang.org/x/crypto/sha3"
)

// checkSum256 fails t unless Sum256(m) is x/crypto's digest; it returns x/crypto's hasher
// after m, and that digest.
func checkSum256(t *testing.T, m []byte) (hash.Hash, []byte) {
	ref := sha3.NewLegacyKeccak256()
	ref.Write(m)
	want := ref.Sum(nil)
	if got := Sum256(m); !bytes.Equal(got[:], want) {
		t.Fatalf("Sum256 of %d bytes: %x, want %x", len(m), got, want)
	}
	return ref, want
}

func TestAgainstXCrypto(t *testing.T) {
	data := make([]byte, 3*rate+1)
	for i := range data {
		data[i] = byte(i*131 + 7)
	}
	paths(t, func(t *testing.T) {
		for n := 0; n <= len(data); n++ {
			ref, want := checkSum256(t, data[:n])
			var h Hasher
			h.Write(data[:n/2])
			h.Write(data[n/2 : n])
			if got := h.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("Hasher of %d bytes in two writes: %x, want %x", n, got, want)
			}
			out := make([]byte, 2*rate+5)
			wantOut := make([]byte, len(out))
			ref.(interface{ Read([]byte) (int, error) }).Read(wantOut)
			h.Read(out[:7])
			h.Read(out[7:])
			if !bytes.Equal(out, wantOut) {
				t.Fatalf("Read after %d bytes differs", n)
			}
		}
	})
}

// Long messages against x/crypto, on every path: lengths around one and two calls of the
// block entry (blocksPerCall blocks), whole, and short or long by a block or a byte; the
// Hasher in writes of 1,000 bytes, so whole blocks also follow a buffered partial one.
func TestLongAgainstXCrypto(t *testing.T) {
	call := blocksPerCall * rate
	data := make([]byte, 2*call+rate+1)
	for i := range data {
		data[i] = byte(i*29 + 5)
	}
	var lengths []int
	for _, calls := range []int{1, 2} {
		for _, delta := range []int{-rate - 1, -rate, -1, 0, 1, rate, rate + 1} {
			lengths = append(lengths, calls*call+delta)
		}
	}
	paths(t, func(t *testing.T) {
		for _, n := range lengths {
			_, want := checkSum256(t, data[:n])
			var h Hasher
			for rest := data[:n]; len(rest) > 0; {
				w := 1000
				if w > len(rest) {
					w = len(rest)
				}
				h.Write(rest[:w])
				rest = rest[w:]
			}
			if got := h.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("Hasher of %d bytes in writes of 1,000: %x, want %x", n, got, want)
			}
		}
	})
}

// Sum256Batch against x/crypto, on every multi-state kernel: messages of every length up to
// three blocks and one byte, so each batch's states finish at different blocks.
func TestSum256BatchAgainstXCrypto(t *testing.T) {
	data := make([]byte, 3*rate+1)
	for i := range data {
		data[i] = byte(i*37 + 11)
	}
	messages := make([][]byte, len(data)+1)
	for n := range messages {
		messages[n] = data[len(data)-n:]
	}
	batchPaths(t, func(t *testing.T) {
		digests := make([][32]byte, len(messages))
		Sum256Batch(digests, messages)
		for n, m := range messages {
			ref := sha3.NewLegacyKeccak256()
			ref.Write(m)
			if want := ref.Sum(nil); !bytes.Equal(digests[n][:], want) {
				t.Fatalf("Sum256Batch, message of %d bytes: %x, want %x", n, digests[n], want)
			}
		}
	})
}

func BenchmarkXCryptoLegacyKeccak256(b *testing.B) {
	for _, size := range []int{32, 136, 4096} {
		data := make([]byte, size)
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			h := sha3.NewLegacyKeccak256()
			var out [32]byte
			for i := 0; i < b.N; i++ {
				h.Reset()
				h.Write(data)
				h.Sum(out[:0])
			}
		})
	}
}
