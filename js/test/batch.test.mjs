// keccak_256_batch against keccak_256 one message at a time: 1 to 20 messages of mixed
// lengths (equal and unequal in a pair, around the rate and its multiples, one long enough
// to go through the kernel's memory in more than one chunk), and its memory left clean.
import assert from "node:assert/strict";
import { test } from "node:test";
import { batchIsSimd, keccak_256, keccak_256_batch } from "../index.js";
import { batchMemoryIsClean, batchRunPairs } from "../src/batch.js";

const lengths = [0, 1, 32, 135, 136, 137, 271, 272, 273, 500, 64, 64, 136, 0, 1000, 999, 32, 32, 300000, 5];
const message = (length, salt) => Uint8Array.from({ length }, (_, i) => (i * 31 + salt * 7 + length) & 0xff);

test("the engine's SIMD128 runs the batch (Node 20 has it)", () => {
  assert.equal(batchIsSimd, true);
});

test("keccak_256_batch of 1 to 20 messages equals keccak_256 of each", () => {
  for (let count = 1; count <= lengths.length; ++count) {
    const messages = lengths.slice(0, count).map((length, i) => message(length, i + count));
    const digests = keccak_256_batch(messages);
    assert.equal(digests.length, count);
    digests.forEach((digest, i) => assert.deepEqual(digest, keccak_256(messages[i]), `message ${i} of ${count}, ${messages[i].length} bytes`));
    assert.ok(batchMemoryIsClean(), `the SIMD module's memory after ${count} messages`);
  }
});

test("keccak_256_batch of more short messages than one run holds, with long ones between", () => {
  // Runs of short pairs longer than the run memory takes, cut by a pair with a long message,
  // a pair of one short and one long, and an odd count.
  const lengths = [];
  for (let k = 0; k < 2 * batchRunPairs + 7; ++k) lengths.push(k % 136);
  lengths.push(136, 20, 300, 7);
  for (let k = 0; k < 2 * batchRunPairs + 3; ++k) lengths.push((k * 7) % 136);
  const messages = lengths.map((length, i) => message(length, i));
  const digests = keccak_256_batch(messages);
  assert.equal(digests.length, messages.length);
  digests.forEach((digest, i) => assert.deepEqual(digest, keccak_256(messages[i]), `message ${i}, ${messages[i].length} bytes`));
  assert.ok(batchMemoryIsClean(), "the SIMD modules' memory after the runs");
});

test("keccak_256_batch refuses what is not an array of Uint8Array", () => {
  assert.throws(() => keccak_256_batch("abc"), { name: "TypeError", message: "expected array of Uint8Array, got type=string" });
  assert.throws(() => keccak_256_batch([new Uint8Array(1), "x"]), { name: "TypeError", message: "expected Uint8Array, got type=string" });
  assert.deepEqual(keccak_256_batch([]), []);
});
