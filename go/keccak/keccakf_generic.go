package keccak

import (
	"math/bits"
	"runtime"
)

var roundConstants = [24]uint64{
	0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
	0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
	0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
	0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
	0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
	0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
}

// keccakF1600Generic is the portable Keccak-f[1600] permutation, two rounds a turn: the first
// reads a and writes the local e, the second reads e and writes a back, so a round needs no
// copy and no lane moves between registers at the turn. A chi row takes its five lanes,
// applies theta's D and rho as it reads them (pi is which lanes a row reads), and writes its
// five outputs; their XOR gathers the next round's column parities, so only those five and
// D stay in registers across a round (on arm64 Go's compiler otherwise spills the 25 lanes
// and moves them at every turn).
func keccakF1600Generic(a *[25]uint64) {
	var e [25]uint64
	var d0, d1, d2, d3, d4, b0, b1, b2, b3, b4, o0, o1, o2, o3, o4 uint64
	c0, c1, c2, c3, c4 := a[0]^a[5]^a[10]^a[15]^a[20], a[1]^a[6]^a[11]^a[16]^a[21],
		a[2]^a[7]^a[12]^a[17]^a[22], a[3]^a[8]^a[13]^a[18]^a[23], a[4]^a[9]^a[14]^a[19]^a[24]
	for round := 0; round < 24; round += 2 {
		// round: a -> e
		d0, d1, d2, d3, d4 = c4^bits.RotateLeft64(c1, 1), c0^bits.RotateLeft64(c2, 1), c1^bits.RotateLeft64(c3, 1), c2^bits.RotateLeft64(c4, 1), c3^bits.RotateLeft64(c0, 1)
		b0, b1, b2, b3, b4 = a[0]^d0, bits.RotateLeft64(a[6]^d1, 44), bits.RotateLeft64(a[12]^d2, 43), bits.RotateLeft64(a[18]^d3, 21), bits.RotateLeft64(a[24]^d4, 14)
		o0, o1, o2, o3, o4 = b0^(^b1&b2)^roundConstants[round], b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		e[0], e[1], e[2], e[3], e[4] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = o0, o1, o2, o3, o4
		b0, b1, b2, b3, b4 = bits.RotateLeft64(a[3]^d3, 28), bits.RotateLeft64(a[9]^d4, 20), bits.RotateLeft64(a[10]^d0, 3), bits.RotateLeft64(a[16]^d1, 45), bits.RotateLeft64(a[22]^d2, 61)
		o0, o1, o2, o3, o4 = b0^(^b1&b2), b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		e[5], e[6], e[7], e[8], e[9] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = c0^o0, c1^o1, c2^o2, c3^o3, c4^o4
		b0, b1, b2, b3, b4 = bits.RotateLeft64(a[1]^d1, 1), bits.RotateLeft64(a[7]^d2, 6), bits.RotateLeft64(a[13]^d3, 25), bits.RotateLeft64(a[19]^d4, 8), bits.RotateLeft64(a[20]^d0, 18)
		o0, o1, o2, o3, o4 = b0^(^b1&b2), b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		e[10], e[11], e[12], e[13], e[14] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = c0^o0, c1^o1, c2^o2, c3^o3, c4^o4
		b0, b1, b2, b3, b4 = bits.RotateLeft64(a[4]^d4, 27), bits.RotateLeft64(a[5]^d0, 36), bits.RotateLeft64(a[11]^d1, 10), bits.RotateLeft64(a[17]^d2, 15), bits.RotateLeft64(a[23]^d3, 56)
		o0, o1, o2, o3, o4 = b0^(^b1&b2), b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		e[15], e[16], e[17], e[18], e[19] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = c0^o0, c1^o1, c2^o2, c3^o3, c4^o4
		b0, b1, b2, b3, b4 = bits.RotateLeft64(a[2]^d2, 62), bits.RotateLeft64(a[8]^d3, 55), bits.RotateLeft64(a[14]^d4, 39), bits.RotateLeft64(a[15]^d0, 41), bits.RotateLeft64(a[21]^d1, 2)
		o0, o1, o2, o3, o4 = b0^(^b1&b2), b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		e[20], e[21], e[22], e[23], e[24] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = c0^o0, c1^o1, c2^o2, c3^o3, c4^o4

		// round + 1: e -> a
		d0, d1, d2, d3, d4 = c4^bits.RotateLeft64(c1, 1), c0^bits.RotateLeft64(c2, 1), c1^bits.RotateLeft64(c3, 1), c2^bits.RotateLeft64(c4, 1), c3^bits.RotateLeft64(c0, 1)
		b0, b1, b2, b3, b4 = e[0]^d0, bits.RotateLeft64(e[6]^d1, 44), bits.RotateLeft64(e[12]^d2, 43), bits.RotateLeft64(e[18]^d3, 21), bits.RotateLeft64(e[24]^d4, 14)
		o0, o1, o2, o3, o4 = b0^(^b1&b2)^roundConstants[round+1], b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		a[0], a[1], a[2], a[3], a[4] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = o0, o1, o2, o3, o4
		b0, b1, b2, b3, b4 = bits.RotateLeft64(e[3]^d3, 28), bits.RotateLeft64(e[9]^d4, 20), bits.RotateLeft64(e[10]^d0, 3), bits.RotateLeft64(e[16]^d1, 45), bits.RotateLeft64(e[22]^d2, 61)
		o0, o1, o2, o3, o4 = b0^(^b1&b2), b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		a[5], a[6], a[7], a[8], a[9] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = c0^o0, c1^o1, c2^o2, c3^o3, c4^o4
		b0, b1, b2, b3, b4 = bits.RotateLeft64(e[1]^d1, 1), bits.RotateLeft64(e[7]^d2, 6), bits.RotateLeft64(e[13]^d3, 25), bits.RotateLeft64(e[19]^d4, 8), bits.RotateLeft64(e[20]^d0, 18)
		o0, o1, o2, o3, o4 = b0^(^b1&b2), b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		a[10], a[11], a[12], a[13], a[14] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = c0^o0, c1^o1, c2^o2, c3^o3, c4^o4
		b0, b1, b2, b3, b4 = bits.RotateLeft64(e[4]^d4, 27), bits.RotateLeft64(e[5]^d0, 36), bits.RotateLeft64(e[11]^d1, 10), bits.RotateLeft64(e[17]^d2, 15), bits.RotateLeft64(e[23]^d3, 56)
		o0, o1, o2, o3, o4 = b0^(^b1&b2), b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		a[15], a[16], a[17], a[18], a[19] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = c0^o0, c1^o1, c2^o2, c3^o3, c4^o4
		b0, b1, b2, b3, b4 = bits.RotateLeft64(e[2]^d2, 62), bits.RotateLeft64(e[8]^d3, 55), bits.RotateLeft64(e[14]^d4, 39), bits.RotateLeft64(e[15]^d0, 41), bits.RotateLeft64(e[21]^d1, 2)
		o0, o1, o2, o3, o4 = b0^(^b1&b2), b1^(^b2&b3), b2^(^b3&b4), b3^(^b4&b0), b4^(^b0&b1)
		a[20], a[21], a[22], a[23], a[24] = o0, o1, o2, o3, o4
		c0, c1, c2, c3, c4 = c0^o0, c1^o1, c2^o2, c3^o3, c4^o4
	}
	// e holds the state one round before the end: cleared, and kept alive so that the
	// compiler does not drop the stores.
	e = [25]uint64{}
	runtime.KeepAlive(&e)
}
