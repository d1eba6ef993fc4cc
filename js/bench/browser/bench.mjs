// The Node bench's Keccak-256 cases in a browser page (js-sha3, a CommonJS module, is left
// out): this package against @noble/hashes and hash-wasm, medians of interleaved
// repetitions; KT128 of 1 MiB against noble's; the batch against one at a time. The page
// leaves its lines in window.bench for bench/browser/run.mjs.
import { keccak_256 as noble } from "@noble/hashes/sha3.js";
import { kt128 as nobleKt128 } from "@noble/hashes/sha3-addons.js";
import { createKeccak } from "hash-wasm";
import { keccak_256 as ours, keccak_256_batch, kt128 } from "/pkg/index.js";

const lines = [];
try {
  const hashWasm = await createKeccak(256);
  const peers = {
    "@spongegen/hashes": (m) => ours(m),
    "@noble/hashes": (m) => noble(m),
    "hash-wasm": (m) => {
      hashWasm.init();
      hashWasm.update(m);
      return hashWasm.digest("binary");
    },
  };
  const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
  const repetitions = 11;
  for (const size of [32, 1024, 1 << 20]) {
    const message = new Uint8Array(size).map((_, i) => i & 0xff);
    const calls = Math.max(1, Math.floor((1 << 21) / (size + 64)));
    const times = Object.fromEntries(Object.keys(peers).map((name) => [name, []]));
    for (let r = 0; r < repetitions; ++r) {
      for (const [name, f] of Object.entries(peers)) {
        const start = performance.now();
        for (let i = 0; i < calls; ++i) f(message);
        times[name].push(((performance.now() - start) * 1e6) / calls);
      }
    }
    const ourTime = median(times["@spongegen/hashes"]);
    for (const [name, values] of Object.entries(times)) {
      const ns = median(values);
      const shown = ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(2)} us`;
      lines.push(`keccak_256 ${String(size).padStart(7)} B  ${name.padEnd(18)} ${shown.padStart(10)}  ${(ns / ourTime).toFixed(2)}x ours`);
    }
  }
  const messages = Array.from({ length: 1024 }, (_, i) => new Uint8Array(32).fill(i & 0xff));
  // Warmed up first: the engine compiles a WebAssembly function with its fast tier only once
  // it has run a while, and the batch's SIMD entry has not run before this case.
  for (let r = 0; r < 20; ++r) {
    for (const m of messages) ours(m);
    keccak_256_batch(messages);
  }
  const one = [], batch = [];
  for (let r = 0; r < repetitions; ++r) {
    let start = performance.now();
    for (const m of messages) ours(m);
    one.push(((performance.now() - start) * 1e6) / 1024);
    start = performance.now();
    keccak_256_batch(messages);
    batch.push(((performance.now() - start) * 1e6) / 1024);
  }
  // The fastest repetitions too: on a shared host other programs only add time.
  const fa = Math.min(...one), fb = Math.min(...batch);
  lines.push(`keccak_256_batch 1,024 x 32 B: ${(median(batch) / 1e3).toFixed(2)} us a message, one at a time ${(median(one) / 1e3).toFixed(2)} us: ${(median(one) / median(batch)).toFixed(2)}x (fastest: ${(fb / 1e3).toFixed(2)} against ${(fa / 1e3).toFixed(2)} us, ${(fa / fb).toFixed(2)}x)`);
  const big = new Uint8Array(1 << 20).map((_, i) => i & 0xff);
  const a = [], b = [];
  for (let r = 0; r < 5; ++r) {
    let start = performance.now();
    kt128(big);
    a.push(performance.now() - start);
    start = performance.now();
    nobleKt128(big);
    b.push(performance.now() - start);
  }
  lines.push(`kt128 1 MiB: ${median(a).toFixed(2)} ms, @noble/hashes ${median(b).toFixed(2)} ms: ${(median(b) / median(a)).toFixed(2)}x ours`);
} catch (error) {
  lines.push(`threw: ${error.stack ?? error}`);
}
window.bench = lines;
