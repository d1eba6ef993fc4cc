// keccak_256_batch: Keccak-256 of many messages, two at a time on the wasm-simd128 kernel
// (generated/keccakf1600_wasm_simd128.wasm: two states in the 64-bit lanes of v128s, in the
// module's memory), where the engine validates SIMD128; one at a time on the scalar kernel
// elsewhere. A pair's whole blocks run in lockstep, then its final (padded) blocks in lockstep where the two messages
// have as many blocks; a pair of unequal lengths finishes each message alone. Runs of pairs
// of messages shorter than a block (the common case: trie nodes, keys, addresses) go through a
// second instance of the module whose memory holds a state pair, a slot pair and two blocks
// for each of hundreds of pairs: the blocks are all written, then the kernel called once a
// pair with nothing between the calls, then the digests all read. The modules' memory is
// zeroed after each call, as the scalar one's.
import { simd128 } from "./kernels.js";
import { absorbBlocks, permute } from "./wasm.js";
import { keccak_256 } from "./sha3.js";

const kRate = 136;
const kPages = 2;
const kStatesAt = 1024; // two interleaved states: lane i of state s at word 2i + s
const kSlotsAt = 1536; // the block entries' two 8-byte block pointer slots
const kBlocksAt = 4096;
const kHalf = Math.floor((kPages * 65536 - kBlocksAt) / 2 / kRate) * kRate; // each state's

// The runs of short pairs: pair p's interleaved states at kRunStatesAt + 400p, its two block
// pointers at kRunSlotsAt + 16p (written once: they point at its blocks), its two blocks at
// kRunBlocksAt + 272p.
const kRunPages = 4;
const kRunStatesAt = 1024; // past the data segment (iota's table)
const kRunPairs = Math.floor((kRunPages * 65536 - kRunStatesAt) / (400 + 16 + 2 * kRate));
const kRunSlotsAt = kRunStatesAt + 400 * kRunPairs;
const kRunBlocksAt = kRunSlotsAt + 16 * kRunPairs;

// The kernel's block entries (kind "_blocks") or one-block entries (kind "") at the rates of
// Keccak-256 and the leaves, by rounds * 1000 + rate.
function entriesByRate(exports, kind) {
  const entries = new Map();
  for (const [rounds, stem] of [[24, "keccakf1600"], [12, "keccakp1600_12"]]) {
    for (const rate of [168, 136]) entries.set(rounds * 1000 + rate, exports[`sponge_${stem}_wasm_simd128_absorb${rate}${kind}`]);
  }
  return entries;
}

const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const simdBytes = decode(simd128);
let simd = null;
let run = null;
if (WebAssembly.validate(simdBytes)) {
  const module = await WebAssembly.compile(simdBytes);
  const memory = new WebAssembly.Memory({ initial: kPages, maximum: kPages });
  const instance = await WebAssembly.instantiate(module, { env: { memory } });
  const heap = new Uint8Array(memory.buffer);
  const slots = new DataView(memory.buffer, kSlotsAt, 16);
  slots.setBigUint64(0, BigInt(kBlocksAt), true);
  slots.setBigUint64(8, BigInt(kBlocksAt + kHalf), true);
  simd = {
    heap,
    states: heap.subarray(kStatesAt, kStatesAt + 400),
    // Keccak-256's (24 rounds, rate 136) and the leaves' of KangarooTwelve (12 rounds) and
    // ParallelHash (24).
    blocksEntries: entriesByRate(instance.exports, "_blocks"),
    blockEntries: entriesByRate(instance.exports, ""),
  };
  simd.blocks = simd.blocksEntries.get(24 * 1000 + kRate);
  simd.block = simd.blockEntries.get(24 * 1000 + kRate);
  const runMemory = new WebAssembly.Memory({ initial: kRunPages, maximum: kRunPages });
  const runInstance = await WebAssembly.instantiate(module, { env: { memory: runMemory } });
  const runSlots = new BigUint64Array(runMemory.buffer, kRunSlotsAt, 2 * kRunPairs);
  for (let p = 0; p < kRunPairs; ++p) {
    runSlots[2 * p] = BigInt(kRunBlocksAt + 2 * kRate * p);
    runSlots[2 * p + 1] = BigInt(kRunBlocksAt + 2 * kRate * p + kRate);
  }
  run = { heap: new Uint8Array(runMemory.buffer), block: runInstance.exports.sponge_keccakf1600_wasm_simd128_absorb136 };
}

/** Whether keccak_256_batch runs two messages at a time (the engine has SIMD128). */
export const batchIsSimd = simd !== null;

function assertMessages(messages) {
  if (!Array.isArray(messages)) throw new TypeError("expected array of Uint8Array, got type=" + typeof messages);
  for (const m of messages) {
    if (!(m instanceof Uint8Array)) throw new TypeError("expected Uint8Array, got type=" + typeof m);
  }
}

// The message's last block, padded (Keccak's 0x01 ... 0x80), written at `at`.
function writeFinalBlock(heap, at, message) {
  const tail = message.length % kRate;
  heap.fill(0, at, at + kRate);
  heap.set(message.subarray(message.length - tail), at);
  heap[at + tail] ^= 0x01;
  heap[at + kRate - 1] ^= 0x80;
}

// Each state's 200 bytes out of the interleaved pair.
function split(states) {
  const one = [new Uint8Array(200), new Uint8Array(200)];
  for (let lane = 0; lane < 25; ++lane) {
    for (let s = 0; s < 2; ++s) one[s].set(states.subarray(16 * lane + 8 * s, 16 * lane + 8 * s + 8), 8 * lane);
  }
  return one;
}

// One message alone from `state` (its first `done` whole blocks absorbed): the rest of its
// whole blocks, its final block, its digest.
function finishAlone(state, message, done) {
  const whole = Math.floor(message.length / kRate);
  if (whole > done) absorbBlocks(state, kRate, 24, message, done * kRate, whole - done);
  const last = new Uint8Array(kRate);
  const tail = message.length % kRate;
  last.set(message.subarray(message.length - tail));
  last[tail] ^= 0x01;
  last[kRate - 1] ^= 0x80;
  for (let i = 0; i < kRate; ++i) state[i] ^= last[i];
  permute(state, 24);
  const digest = state.slice(0, 32);
  state.fill(0);
  last.fill(0);
  return digest;
}

// The first `length` bytes of each state of the interleaved pair at heap[at..] (lane i of
// state s at word 2i + s).
function readPair(heap, at, length) {
  const da = new Uint8Array(length), db = new Uint8Array(length);
  for (let i = 0; i < length; ++i) {
    const from = at + 16 * (i >> 3) + (i & 7);
    da[i] = heap[from];
    db[i] = heap[from + 8];
  }
  return [da, db];
}

// The two digests of the interleaved state pair at heap[at..], onto `digests`.
function pushDigests(heap, at, digests) {
  digests.push(...readPair(heap, at, 32));
}

function pair(a, b, digests) {
  const { heap, states } = simd;
  const common = Math.min(Math.floor(a.length / kRate), Math.floor(b.length / kRate));
  let written = 0; // bytes of each half holding a message's blocks, zeroed after
  for (let done = 0; done < common; ) {
    const blocks = Math.min(common - done, kHalf / kRate);
    heap.set(a.subarray(done * kRate, (done + blocks) * kRate), kBlocksAt);
    heap.set(b.subarray(done * kRate, (done + blocks) * kRate), kBlocksAt + kHalf);
    simd.blocks(kStatesAt, kSlotsAt, blocks);
    written = Math.max(written, blocks * kRate);
    done += blocks;
  }
  heap.fill(0, kBlocksAt, kBlocksAt + written);
  heap.fill(0, kBlocksAt + kHalf, kBlocksAt + kHalf + written);
  if (Math.floor(a.length / kRate) === common && Math.floor(b.length / kRate) === common) {
    writeFinalBlock(heap, kBlocksAt, a);
    writeFinalBlock(heap, kBlocksAt + kHalf, b);
    simd.block(kStatesAt, kSlotsAt);
    heap.fill(0, kBlocksAt, kBlocksAt + kRate);
    heap.fill(0, kBlocksAt + kHalf, kBlocksAt + kHalf + kRate);
    pushDigests(states, 0, digests);
    states.fill(0);
    return;
  }
  const [sa, sb] = split(states);
  states.fill(0);
  digests.push(finishAlone(sa, a, common), finishAlone(sb, b, common));
}

// `pairs` pairs of messages shorter than a block, messages[from..from + 2 * pairs): each
// padded block written in place (the blocks are zero between calls), one kernel call a pair,
// the digests read, then the states and blocks zeroed.
function shortPairs(messages, from, pairs, digests) {
  const { heap, block } = run;
  for (let k = 0; k < 2 * pairs; ++k) {
    const message = messages[from + k];
    const at = kRunBlocksAt + kRate * k;
    heap.set(message, at);
    heap[at + message.length] = 0x01;
    heap[at + kRate - 1] ^= 0x80;
  }
  for (let p = 0; p < pairs; ++p) block(kRunStatesAt + 400 * p, kRunSlotsAt + 16 * p);
  for (let p = 0; p < pairs; ++p) pushDigests(heap, kRunStatesAt + 400 * p, digests);
  heap.fill(0, kRunStatesAt, kRunStatesAt + 400 * pairs);
  heap.fill(0, kRunBlocksAt, kRunBlocksAt + 2 * kRate * pairs);
}

/** Keccak-256 of each message, in order: an array of 32-byte digests. */
export function keccak_256_batch(messages) {
  assertMessages(messages);
  const digests = [];
  if (simd === null) {
    for (const m of messages) digests.push(keccak_256(m));
    return digests;
  }
  simd.states.fill(0);
  const short = (k) => messages[k].length < kRate;
  let i = 0;
  while (i + 1 < messages.length) {
    let pairs = 0;
    while (pairs < kRunPairs && i + 2 * pairs + 1 < messages.length && short(i + 2 * pairs) && short(i + 2 * pairs + 1)) ++pairs;
    if (pairs > 0) {
      shortPairs(messages, i, pairs, digests);
      i += 2 * pairs;
    } else {
      pair(messages[i], messages[i + 1], digests);
      i += 2;
    }
  }
  if (i < messages.length) digests.push(keccak_256(messages[i]));
  return digests;
}

/**
 * Two messages of one length, each through the sponge of Keccak-p[1600, rounds] (24 or 12) at
 * `rate` (168 or 136) with domain byte `suffix`, in lockstep on the SIMD kernel (the leaves of
 * ParallelHash and KangarooTwelve): their first `outputLen` (at most `rate`) bytes of output.
 * Undefined where the engine has no SIMD128.
 */
export function leafPair(a, b, rate, suffix, outputLen, rounds) {
  if (simd === null) return undefined;
  if (a.length !== b.length || a.length > kHalf || outputLen > rate) throw new Error("leafPair: two messages of one length, each within the module's memory");
  const { heap, states } = simd;
  const whole = Math.floor(a.length / rate), tail = a.length - whole * rate;
  states.fill(0);
  if (whole > 0) {
    heap.set(a.subarray(0, whole * rate), kBlocksAt);
    heap.set(b.subarray(0, whole * rate), kBlocksAt + kHalf);
    simd.blocksEntries.get(rounds * 1000 + rate)(kStatesAt, kSlotsAt, whole);
  }
  for (const [message, at] of [[a, kBlocksAt], [b, kBlocksAt + kHalf]]) {
    heap.fill(0, at, at + rate);
    heap.set(message.subarray(whole * rate), at);
    heap[at + tail] ^= suffix;
    heap[at + rate - 1] ^= 0x80;
  }
  simd.blockEntries.get(rounds * 1000 + rate)(kStatesAt, kSlotsAt);
  const written = Math.max(whole, 1) * rate;
  heap.fill(0, kBlocksAt, kBlocksAt + written);
  heap.fill(0, kBlocksAt + kHalf, kBlocksAt + kHalf + written);
  const outputs = readPair(states, 0, outputLen);
  states.fill(0);
  return outputs;
}

/** The longest message leafPair takes. */
export const leafPairMax = kHalf;

/** What tests look at: whether the SIMD modules' memories hold anything but their slots. */
export function batchMemoryIsClean() {
  if (simd === null) return true;
  const zero = (heap, from, to) => heap.subarray(from, to).every((b) => b === 0);
  return (
    zero(simd.heap, kStatesAt, kSlotsAt) &&
    zero(simd.heap, kBlocksAt) &&
    zero(run.heap, kRunStatesAt, kRunSlotsAt) &&
    zero(run.heap, kRunBlocksAt)
  );
}

/** What tests look at: how many pairs of short messages one run of the kernel takes. */
export const batchRunPairs = kRunPairs;
