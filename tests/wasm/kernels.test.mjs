// Every entry of every wasm32 kernel in a generated folder's manifest, run by Node's
// WebAssembly engine on random states and blocks, against Keccak-p[1600] and Ascon-p[320]
// written here in BigInt from FIPS 202 and SP 800-232 (each checked first against a published
// answer: the permutation of the zero state, Ascon-Hash256 of the empty message): every round count, every rate, block counts 0 to 3, blocks at odd
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

// ---- the reference: SP 800-232's Ascon-p[320] on 5 BigInt words ----
const rotr = (v, n) => ((v >> BigInt(n)) | (v << BigInt(64 - n))) & mask;
const asconRotations = [[19, 28], [61, 39], [1, 6], [10, 17], [7, 41]];

// The last `rounds` rounds of Ascon-p[320], in place.
function asconP(x, rounds) {
  for (let round = 12 - rounds; round < 12; ++round) {
    x[2] ^= BigInt(((0xf - round) << 4) | round);
    x[0] ^= x[4];
    x[4] ^= x[3];
    x[2] ^= x[1];
    const t = x.map((v, i) => ~v & mask & x[(i + 1) % 5]);
    for (let i = 0; i < 5; ++i) x[i] ^= t[(i + 1) % 5];
    x[1] ^= x[0];
    x[0] ^= x[4];
    x[3] ^= x[2];
    x[2] = ~x[2] & mask;
    for (let i = 0; i < 5; ++i) x[i] ^= rotr(x[i], asconRotations[i][0]) ^ rotr(x[i], asconRotations[i][1]);
  }
}

test("the reference gives Ascon-Hash256 of the empty message as SP 800-232's first vector", () => {
  const kat = readFileSync(join(here, "..", "kat", "ascon-sp800-232", "asconhash256", "LWC_HASH_KAT_128_256.txt"), "utf8");
  const expected = /MD = ([0-9A-F]+)/.exec(kat)[1].toLowerCase();
  const x = [0x0000080100cc0002n, 0n, 0n, 0n, 0n];
  asconP(x, 12);
  x[0] ^= 1n; // the empty message's padding
  asconP(x, 12);
  let digest = "";
  for (let i = 0; i < 4; ++i) {
    if (i > 0) asconP(x, 12);
    for (let b = 0; b < 8; ++b) digest += Number((x[0] >> BigInt(8 * b)) & 0xffn).toString(16).padStart(2, "0");
  }
  assert.equal(digest, expected);
});

// What an Ascon entry does to `words` (and the output it writes), as the runtime's portable
// entries: each block XORed into the rate (encrypt writing the sum, decrypt the plaintext and
// taking the ciphertext as the rate), then the rounds.
function asconEntry(entry, words, input, blockCount) {
  const view = new DataView(input.buffer, input.byteOffset);
  const output = new Uint8Array(input.length);
  const outView = new DataView(output.buffer);
  if (entry.kind === "permute") {
    asconP(words, entry.rounds);
    return output;
  }
  const rateWords = entry.rate_bytes / 8;
  for (let b = 0; b < blockCount; ++b) {
    for (let w = 0; w < rateWords; ++w) {
      const at = b * entry.rate_bytes + 8 * w;
      const word = view.getBigUint64(at, true);
      if (entry.kind === "decrypt") {
        outView.setBigUint64(at, words[w] ^ word, true);
        words[w] = word;
      } else {
        words[w] ^= word;
        if (entry.kind === "encrypt") outView.setBigUint64(at, words[w], true);
      }
    }
    asconP(words, entry.rounds);
  }
  return output;
}

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
      const call = instance.exports[entry.symbol];
      if (entry.permutation === "ascon-p320") {
        checkAsconEntry(entry, call, heap, segment);
        continue;
      }
      assert.equal(entry.permutation.startsWith("keccak"), true, entry.symbol);
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

const kOutAt = 8192 + 1; // the output of encrypt and decrypt entries apart from their input

// One Ascon entry at block counts 0 to 3 (and encrypt and decrypt in place too).
function checkAsconEntry(entry, call, heap, segment) {
  assert.equal(typeof call, "function", `${entry.symbol} is not exported`);
  const crypt = entry.kind === "encrypt" || entry.kind === "decrypt";
  for (const blockCount of entry.kind === "permute" ? [1] : [0, 1, 2, 3]) {
    for (const inPlace of crypt ? [false, true] : [false]) {
      const state = randomBytes(40);
      const input = randomBytes(Math.max(entry.rate_bytes * blockCount, 1));
      heap.fill(0xa5, kStateAt);
      heap.set(state, kStateAt);
      heap.set(input, kBlocksAt);
      const before = heap.slice();
      const words = lanesOf(state, 0, 5);
      const output = asconEntry(entry, words, input, blockCount);
      const outAt = inPlace ? kBlocksAt : kOutAt;
      if (entry.kind === "permute") call(kStateAt);
      else if (crypt) call(kStateAt, kBlocksAt, outAt, blockCount);
      else call(kStateAt, kBlocksAt, blockCount);
      const what = `${entry.symbol}, ${blockCount} blocks${inPlace ? ", in place" : ""}`;
      assert.deepEqual(lanesOf(heap, kStateAt, 5), words, what);
      const written = crypt ? entry.rate_bytes * blockCount : 0;
      if (crypt) assert.deepEqual(heap.subarray(outAt, outAt + written), output.subarray(0, written), `${what}: the output`);
      // Nothing else written: the segment, the input (unless in place) and the bytes around.
      assert.deepEqual(heap.subarray(0, kStateAt), segment, `${what}: the data segment`);
      const untouched = (from, to) =>
        assert.deepEqual(heap.subarray(from, to), before.subarray(from, to), `${what}: bytes ${from} to ${to}`);
      untouched(kStateAt + 40, crypt ? outAt : heap.length);
      if (crypt) untouched(outAt + written, heap.length);
    }
  }
}
