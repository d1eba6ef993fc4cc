package keccak

// mostStates is the most messages a multi-state kernel hashes at once (batchStates() is
// the chosen kernel's count).
const mostStates = 8

// Sum256Batch sets digests[i] to Sum256(messages[i]) for every i, without allocating. Where
// the CPU has AVX-512, eight messages are hashed at once (the amd64-avx512-x8 kernel); with
// AVX2, four (amd64-avx2-x4); on arm64 with SHA3, two (arm64-sha3-x2); elsewhere one after
// the other. It panics unless len(digests) == len(messages). No digest may share memory
// with a message.
func Sum256Batch(digests [][32]byte, messages [][]byte) {
	if len(digests) != len(messages) {
		panic("keccak: Sum256Batch needs one digest per message")
	}
	if useBatchKernel == oneAtATime || len(messages) < 2 {
		for i, m := range messages {
			digests[i] = Sum256(m)
		}
		return
	}
	sum256Batch(digests, messages)
}

// sum256Batch hashes the messages n = batchStates() at a time in lane-interleaved states
// (lane i of state s at states[n*i+s]). Each state takes the next message as soon as its
// last one is done, so messages of any lengths keep the states busy until the last n.
// A whole block goes through the kernel's absorb entry, which reads it where it lies; a
// message's last, partial block is XORed into its state's lanes here, padding included,
// and the state's pointer is to a zero block. When every state is at its last block (all
// short messages) the permute entry runs, which gathers nothing. A state without a message
// permutes its lanes, and its output is dropped. Everything here is a local that does not
// escape, so nothing is allocated; the states are zeroed before the return.
func sum256Batch(digests [][32]byte, messages [][]byte) {
	n := batchStates()
	var states [mostStates * 25]uint64
	var zero [rate]byte
	var blocks [mostStates]*byte
	var message, offset [mostStates]int
	next, busy := 0, 0
	every := 1<<n - 1 // the bits of the n states
	for s := 0; s < n; s++ {
		message[s] = -1
		blocks[s] = &zero[0]
		if next < len(messages) {
			message[s] = next
			next++
			busy++
		}
	}
	for busy > 0 {
		last := 0 // a bit per state whose message ends with this block
		for s := 0; s < n; s++ {
			m := message[s]
			if m < 0 {
				continue
			}
			rest := messages[m][offset[s]:]
			if len(rest) >= rate {
				blocks[s] = &rest[0]
				offset[s] += rate
				continue
			}
			xorLastBlock(&states, n, s, rest)
			blocks[s] = &zero[0]
			last |= 1 << s
		}
		everyState := last == every
		if everyState {
			permuteBatch(&states)
		} else {
			absorbBatch(&states, &blocks)
		}
		for s := 0; s < n; s++ {
			if last&(1<<s) == 0 {
				continue
			}
			d := &digests[message[s]]
			for i := 0; i < 4; i++ {
				putLe64(d[8*i:], states[n*i+s])
			}
			if !everyState {
				for i := 0; i < 25; i++ {
					states[n*i+s] = 0
				}
			}
			message[s], offset[s] = -1, 0
			busy--
			if next < len(messages) {
				message[s] = next
				next++
				busy++
			}
		}
		if everyState {
			// One clear of the whole array: a fraction of the 200 stores one lane at a time.
			states = [mostStates * 25]uint64{}
		}
	}
	states = [mostStates * 25]uint64{}
}

// xorLastBlock XORs tail (fewer than rate bytes) and the padding 0x01 ... 0x80 into state s
// of the n lane-interleaved states.
func xorLastBlock(states *[mostStates * 25]uint64, n, s int, tail []byte) {
	whole := len(tail) / 8
	for i := 0; i < whole; i++ {
		states[n*i+s] ^= le64(tail[8*i:])
	}
	// The last lane's bytes, then 0x01 after them.
	var word uint64
	if left := len(tail) - 8*whole; left > 0 {
		if len(tail) >= 8 {
			word = le64(tail[len(tail)-8:]) >> (64 - 8*left)
		} else {
			for i := left - 1; i >= 0; i-- {
				word = word<<8 | uint64(tail[i])
			}
		}
		word |= 0x01 << (8 * left)
	} else {
		word = 0x01
	}
	states[n*whole+s] ^= word
	states[n*(rate/8-1)+s] ^= 0x80 << 56
}
