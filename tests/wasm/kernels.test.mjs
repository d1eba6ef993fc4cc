// Every entry of every wasm32 kernel in a generated folder's manifest, run by Node's
// WebAssembly engine on random states and blocks, against Keccak-p[1600] written here in
// BigInt from FIPS 202 (itself checked first against the permutation's published answer for
// the zero state): every round count, every rate, block counts 0 to 3, blocks at odd
// addresses, and each state of a multi-state kernel against its own reference. The module's data segment (iota's table at address 0) must come through
// untouched, and no entry may write a byte of memory outside its state.
//
//   node --test tests/wasm/kernels.test.mjs   (SPONGE_GENERATED_DIR: the folder; generated/)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const generated = process.env.SPONGE_GENERATED_DIR ?? join(here, "..", "..", "generated");
const manifest = JSON.parse(readFileSync(join(generated, "manifest.json"), "utf8"));
const wasmFiles = manifest.files.filter((file) => file.isa === "wasm32");

// ---- the reference: FIPS 202's steps on 25 BigInt lanes ----
const mask = (1n << 64n) - 1n;
const rotl = (v, n) => (n === 0 ? v : ((v << BigInt(n)) | (v >> BigInt(64 - n))) & mask);
const roundConstants = [];
const rhoOffsets = new Array(25).fill(0);
{
  // Algorithm 5's LFSR for iota, Algorithm 2's walk for rho.
  let r = 1;
  const rc = () => {
    const bit = r & 1;
    r = r & 0x80 ? ((r << 1) ^ 0x71) & 0xff : r << 1;
    return bit;
  };
  for (let round = 0; round < 24; ++round) {
    let c = 0n;
    for (let j = 0; j < 7; ++j) if (rc()) c |= 1n << BigInt((1 << j) - 1);
    roundConstants.push(c);
  }
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; ++t) {
    rhoOffsets[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
}

// The last `rounds` rounds of Keccak-f[1600], in place.
function keccakP(lanes, rounds) {
  for (let round = 24 - rounds; round < 24; ++round) {
    const c = [0, 1, 2, 3, 4].map((x) => lanes[x] ^ lanes[x + 5] ^ lanes[x + 10] ^ lanes[x + 15] ^ lanes[x + 20]);
    const d = [0, 1, 2, 3, 4].map((x) => c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1));
    const b = new Array(25);
    for (let x = 0; x < 5; ++x) {
      for (let y = 0; y < 5; ++y) {
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(lanes[x + 5 * y] ^ d[x], rhoOffsets[x + 5 * y]);
      }
    }
    for (let i = 0; i < 25; ++i) {
      const x = i % 5;
      const row = i - x;
      lanes[i] = b[i] ^ (~b[row + ((x + 1) % 5)] & mask & b[row + ((x + 2) % 5)]);
    }
    lanes[0] ^= roundConstants[round];
  }
}

test("the reference gives Keccak-f[1600]'s published permutation of the zero state", () => {
  const lanes = new Array(25).fill(0n);
  keccakP(lanes, 24);
  assert.equal(lanes[0], 0xf1258f7940e1dde7n);
  assert.equal(lanes[24], 0xeaf1ff7b5ceca249n);
});

// ---- the kernels ----
let seed = 0x9e3779b97f4a7c15n;
function randomBytes(length) {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; ++i) {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) & mask;
    bytes[i] = Number(seed >> 56n);
  }
  return bytes;
}
const lanesOf = (bytes, at, count) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at);
  return Array.from({ length: count }, (_, i) => view.getBigUint64(8 * i, true));
};

const kStateAt = 1024; // past the data segment
const kSlotsAt = 2048; // the block pointers' slots of the entries on more than one state
const kBlocksAt = 4096 + 3; // an odd address: loads of any alignment

test("the manifest lists the wasm32 kernels", () => {
  assert.ok(wasmFiles.length > 0, `no wasm32 kernel in ${generated}/manifest.json`);
});

for (const file of wasmFiles) {
  test(`${file.kernel}: every entry agrees with the reference`, async () => {
    assert.ok(file.binary, `${file.path}: the manifest names no .wasm`);
    const memory = new WebAssembly.Memory({ initial: 1 });
    const bytes = readFileSync(join(generated, file.binary.path));
    const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
    const heap = new Uint8Array(memory.buffer);
    const segment = heap.slice(0, kStateAt);
    for (const entry of file.entries) {
      assert.equal(entry.permutation.startsWith("keccak"), true, entry.symbol);
      const call = instance.exports[entry.symbol];
      assert.equal(typeof call, "function", `${entry.symbol} is not exported`);
      const takesCount = entry.prototype.includes("block_count");
      const states = entry.lanes;
      const stateBytes = 200 * states;
      for (const blockCount of takesCount ? [0, 1, 2, 3] : [1]) {
        const state = randomBytes(stateBytes);
        const blockBytes = Math.max(entry.rate_bytes, 1) * Math.max(blockCount, 1);
        // One state: its blocks at kBlocksAt. More: state s's at kBlocksAt + s * (blockBytes
        // + 5), and an array of 8-byte slots holding their addresses at kSlotsAt.
        const blockAt = (s) => kBlocksAt + s * (blockBytes + 5);
        const blocks = Array.from({ length: states }, () => randomBytes(blockBytes));
        heap.fill(0xa5, kStateAt);
        heap.set(state, kStateAt);
        blocks.forEach((bytes, s) => heap.set(bytes, blockAt(s)));
        const slots = new DataView(memory.buffer, kSlotsAt);
        for (let s = 0; s < states; ++s) slots.setBigUint64(8 * s, BigInt(blockAt(s)), true);
        const before = heap.slice();
        const words = lanesOf(state, 0, 25 * states);
        const expected = [];
        for (let s = 0; s < states; ++s) {
          const lanes = Array.from({ length: 25 }, (_, i) => words[states * i + s]);
          const absorbed = entry.kind === "permute" ? 1 : blockCount;
          for (let b = 0; b < absorbed; ++b) {
            if (entry.kind === "absorb") {
              const block = new DataView(blocks[s].buffer, b * entry.rate_bytes);
              for (let i = 0; i < entry.rate_bytes / 8; ++i) lanes[i] ^= block.getBigUint64(8 * i, true);
            }
            keccakP(lanes, entry.rounds);
          }
          lanes.forEach((lane, i) => (expected[states * i + s] = lane));
        }
        const blocksArgument = states === 1 ? kBlocksAt : kSlotsAt;
        if (entry.kind === "permute") call(kStateAt);
        else if (takesCount) call(kStateAt, blocksArgument, blockCount);
        else call(kStateAt, blocksArgument);
        const what = `${entry.symbol}, ${blockCount} blocks`;
        assert.deepEqual(lanesOf(heap, kStateAt, 25 * states), expected, what);
        // Nothing else written: the segment, the blocks and every byte around them.
        assert.deepEqual(heap.subarray(0, kStateAt), segment, `${what}: the data segment`);
        assert.deepEqual(
          heap.subarray(kStateAt + stateBytes),
          before.subarray(kStateAt + stateBytes),
          `${what}: past the state`,
        );
      }
    }
  });
}
