// The scalar Keccak kernel of spongegen this engine runs fastest, instantiated once when the
// package is imported, and the calls the sponges make of it (a permutation, whole blocks, a
// whole one-shot hash). Both kernels are proven by `spongegen prove` and have the same
// entries: wasm-scalar (generated/keccakf1600_wasm_scalar.wasm) keeps the lanes in locals,
// wasm-scalar-memory (keccakf1600_wasm_scalar_memory.wasm) in the state, in memory. V8 before
// 12 (Node 20 and earlier) runs the second faster, newer V8 (Chromium 156) the first; the
// kernels' headers give the figures. The module's memory is the package's own: iota's table
// at address 0 (the module's data segment), one state at kStateAt, the blocks of a call from
// kBlocksAt. A call copies a state and its blocks in, runs the kernel entry and copies the
// state out; then it zeroes what it copied in, so nothing of a state or an input stays in the
// module's memory.
import { scalar, scalarMemory } from "./kernels.js";

const v8Major = Number(globalThis.process?.versions?.v8?.split(".")[0]);
/** Which kernel this engine runs: "wasm-scalar-memory" in V8 before 12, else "wasm-scalar". */
export const scalarKernel = v8Major > 0 && v8Major < 12 ? "wasm-scalar-memory" : "wasm-scalar";
const symbolSuffix = scalarKernel.replaceAll("-", "_"); // its entries' symbols end with it

const kPages = 2;
const kStateAt = 1024; // past the data segment
const kBlocksAt = 4096;
const kBlocksCapacity = kPages * 65536 - kBlocksAt;

const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const memory = new WebAssembly.Memory({ initial: kPages, maximum: kPages });
const { instance } = await WebAssembly.instantiate(
  decode(scalarKernel === "wasm-scalar" ? scalar : scalarMemory),
  { env: { memory } },
);
const heap = new Uint8Array(memory.buffer);
const stateView = heap.subarray(kStateAt, kStateAt + 200); // made once: a view is an allocation
const entries = instance.exports;

// The entries by round count, and the block entries by round count and rate, looked up once.
const stem = (rounds) => (rounds === 24 ? `sponge_keccakf1600_${symbolSuffix}` : `sponge_keccakp1600_${rounds}_${symbolSuffix}`);
const permutes = new Map();
const blockEntries = new Map();
for (const [name, f] of Object.entries(entries)) {
  for (const rounds of [24, 12]) {
    if (name === stem(rounds)) permutes.set(rounds, f);
    const match = name.startsWith(stem(rounds) + "_absorb") && /_absorb(\d+)_blocks$/.exec(name);
    if (match) blockEntries.set(rounds * 1000 + Number(match[1]), f);
  }
}
// Where an entry is missing (only a kernel built without it): the error. Called after `??`,
// so that no message is built on the calls that find their entry.
function missing(what) {
  throw new Error(`the ${scalarKernel} kernel has no ${what}`);
}

/** Keccak-p[1600, rounds] (24 or 12) on the 200 bytes of `state`, in place. */
export function permute(state, rounds) {
  const call = permutes.get(rounds) ?? missing(`${rounds}-round permutation`);
  stateView.set(state);
  call(kStateAt);
  state.set(stateView);
  stateView.fill(0);
}

/**
 * For each of the `count` blocks of `rate` bytes at data[offset..]: XOR it into `state`, then
 * Keccak-p[1600, rounds]; in chunks of as many whole blocks as the module's memory holds.
 */
export function absorbBlocks(state, rate, rounds, data, offset, count) {
  const call = blockEntries.get(rounds * 1000 + rate) ?? missing(`${rounds}-round block entry at rate ${rate}`);
  const most = Math.floor(kBlocksCapacity / rate);
  stateView.set(state);
  // Each chunk overwrites the last, and the first is the longest: one fill at the end zeroes
  // every byte any of them left.
  const written = Math.min(count, most) * rate;
  while (count > 0) {
    const blocks = Math.min(count, most);
    const bytes = blocks * rate;
    heap.set(data.subarray(offset, offset + bytes), kBlocksAt);
    call(kStateAt, kBlocksAt, blocks);
    offset += bytes;
    count -= blocks;
  }
  heap.fill(0, kBlocksAt, kBlocksAt + written);
  state.set(stateView);
  stateView.fill(0);
}

/**
 * A whole hash in one kernel call, where the message and its padding fit the module's memory:
 * the message padded into whole blocks (`suffix` after it, 0x80 in the last byte of its last
 * block) through the block entry from the zero state, then the output read from the state,
 * permuting again for each further block of output. Returns the `outputLen` bytes, or
 * undefined when the message is too long for one call.
 */
export function hashInOneCall(rate, suffix, rounds, message, outputLen) {
  const blocks = Math.floor(message.length / rate) + 1;
  if (blocks * rate > kBlocksCapacity) return undefined;
  const call = blockEntries.get(rounds * 1000 + rate) ?? missing(`${rounds}-round block entry at rate ${rate}`);
  const end = kBlocksAt + blocks * rate;
  heap.set(message, kBlocksAt);
  heap.fill(0, kBlocksAt + message.length, end);
  heap[kBlocksAt + message.length] ^= suffix;
  heap[end - 1] ^= 0x80;
  stateView.fill(0);
  call(kStateAt, kBlocksAt, blocks);
  heap.fill(0, kBlocksAt, end);
  // The usual case, the output within one block, is one copy out of the module's memory.
  const out = outputLen <= rate ? heap.slice(kStateAt, kStateAt + outputLen) : new Uint8Array(outputLen);
  for (let pos = outputLen <= rate ? outputLen : 0; pos < outputLen; ) {
    const take = Math.min(rate, outputLen - pos);
    out.set(stateView.subarray(0, take), pos);
    pos += take;
    if (pos < outputLen) (permutes.get(rounds) ?? missing(`${rounds}-round permutation`))(kStateAt);
  }
  stateView.fill(0);
  return out;
}

/** What tests look at: whether the module's memory holds anything but its data segment. */
export function moduleMemoryIsClean() {
  return heap.subarray(kStateAt).every((byte) => byte === 0);
}
