// Keccak-256 in Node: this package against @noble/hashes, hash-wasm and js-sha3 (the
// devDependencies, at the lockfile's versions), in one run: 32 B, 1 KiB and 1 MiB messages,
// medians of interleaved repetitions. `npm run bench`.
import { keccak_256 as noble } from "@noble/hashes/sha3.js";
import { kt128 as nobleKt128 } from "@noble/hashes/sha3-addons.js";
import hashWasm from "hash-wasm";
import jsSha3 from "js-sha3";
import { keccak_256 as ours } from "../sha3.js";
import { keccak_256_batch, kt128 } from "../index.js";

const hashWasmKeccak = await hashWasm.createKeccak(256);
const peers = {
  "@spongegen/hashes": (m) => ours(m),
  "@noble/hashes": (m) => noble(m),
  "hash-wasm": (m) => {
    hashWasmKeccak.init();
    hashWasmKeccak.update(m);
    return hashWasmKeccak.digest("binary");
  },
  "js-sha3": (m) => jsSha3.keccak_256.array(m),
};
const repetitions = 11;
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
console.log(`Node ${process.version}; medians of ${repetitions} interleaved repetitions`);
for (const size of [32, 1024, 1 << 20]) {
  const message = new Uint8Array(size).map((_, i) => i & 0xff);
  const digests = new Set(Object.values(peers).map((f) => Buffer.from(f(message)).toString("hex")));
  if (digests.size !== 1) throw new Error(`the peers disagree on ${size} bytes`);
  const calls = Math.max(1, Math.floor((1 << 21) / (size + 64)));
  const times = Object.fromEntries(Object.keys(peers).map((name) => [name, []]));
  for (let r = 0; r < repetitions; ++r) {
    for (const [name, f] of Object.entries(peers)) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; ++i) f(message);
      times[name].push(Number(process.hrtime.bigint() - start) / calls);
    }
  }
  const ourTime = median(times["@spongegen/hashes"]);
  for (const [name, values] of Object.entries(times)) {
    const ns = median(values);
    const shown = ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(2)} us`;
    console.log(`keccak_256 ${String(size).padStart(7)} B  ${name.padEnd(18)} ${shown.padStart(10)}  ${(ns / ourTime).toFixed(2)}x ours`);
  }
}

// The batch: 1,024 messages of 32 B, per message, against this package one at a time.
{
  const messages = Array.from({ length: 1024 }, (_, i) => new Uint8Array(32).fill(i & 0xff));
  // Warmed up first: the engine compiles a WebAssembly function with its fast tier only once
  // it has run a while, and the batch's SIMD entry has not run before this case.
  for (let r = 0; r < 20; ++r) {
    for (const m of messages) ours(m);
    keccak_256_batch(messages);
  }
  const one = [], batch = [];
  for (let r = 0; r < repetitions; ++r) {
    let start = process.hrtime.bigint();
    for (const m of messages) ours(m);
    one.push(Number(process.hrtime.bigint() - start) / messages.length);
    start = process.hrtime.bigint();
    keccak_256_batch(messages);
    batch.push(Number(process.hrtime.bigint() - start) / messages.length);
  }
  const a = median(one), b = median(batch);
  // The fastest repetitions too: on a shared host other programs only add time.
  const fa = Math.min(...one), fb = Math.min(...batch);
  console.log(`keccak_256_batch 1,024 x 32 B: ${(b / 1e3).toFixed(2)} us a message, one at a time ${(a / 1e3).toFixed(2)} us: ${(a / b).toFixed(2)}x (fastest: ${(fb / 1e3).toFixed(2)} against ${(fa / 1e3).toFixed(2)} us, ${(fa / fb).toFixed(2)}x)`);
}

// KT128 of 1 MiB against noble's.
{
  const message = new Uint8Array(1 << 20).map((_, i) => i & 0xff);
  if (Buffer.from(kt128(message)).toString("hex") !== Buffer.from(nobleKt128(message)).toString("hex")) {
    throw new Error("kt128 disagrees with noble's");
  }
  const a = [], b = [];
  for (let r = 0; r < 5; ++r) {
    let start = process.hrtime.bigint();
    kt128(message);
    a.push(Number(process.hrtime.bigint() - start));
    start = process.hrtime.bigint();
    nobleKt128(message);
    b.push(Number(process.hrtime.bigint() - start));
  }
  const ours = median(a), theirs = median(b);
  console.log(`kt128 1 MiB: ${(ours / 1e6).toFixed(2)} ms, @noble/hashes ${(theirs / 1e6).toFixed(2)} ms: ${(theirs / ours).toFixed(2)}x ours`);
}
