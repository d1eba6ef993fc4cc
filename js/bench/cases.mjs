// The bench's cases, shared by the Node bench (bench.mjs) and the page (browser/bench.mjs):
// each takes the functions it times and a clock in nanoseconds (`now`), and returns its
// lines. Medians of interleaved repetitions, and the fastest repetitions beside them: on a
// shared host other programs only add time.
const repetitions = 11;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const fastest = (values) => Math.min(...values);
const shown = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(2)} us`);
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

export const header = `medians of ${repetitions} interleaved repetitions (fastest in brackets)`;

/** Keccak-256 of 32 B, 1 KiB and 1 MiB: `peers` maps a name to a function of the message; ours is the first. */
export function keccakCases(peers, now) {
  const lines = [];
  const [ourName] = Object.keys(peers);
  for (const size of [32, 1024, 1 << 20]) {
    const message = new Uint8Array(size).map((_, i) => i & 0xff);
    const digests = new Set(Object.values(peers).map((f) => hex(f(message))));
    if (digests.size !== 1) throw new Error(`the peers disagree on ${size} bytes`);
    const calls = Math.max(1, Math.floor((1 << 21) / (size + 64)));
    const times = Object.fromEntries(Object.keys(peers).map((name) => [name, []]));
    for (let r = 0; r < repetitions; ++r) {
      for (const [name, f] of Object.entries(peers)) {
        const start = now();
        for (let i = 0; i < calls; ++i) f(message);
        times[name].push((now() - start) / calls);
      }
    }
    const ours = times[ourName];
    for (const [name, values] of Object.entries(times)) {
      const ratio = `${(median(values) / median(ours)).toFixed(2)}x (${(fastest(values) / fastest(ours)).toFixed(2)}x)`;
      lines.push(`keccak_256 ${String(size).padStart(7)} B  ${name.padEnd(18)} ${shown(median(values)).padStart(10)}  ${ratio} ours`);
    }
  }
  return lines;
}

/** keccak_256_batch of 1,024 messages of 32 B against `one` (keccak_256) a message at a time. */
export function batchCase(one, batch, now) {
  const messages = Array.from({ length: 1024 }, (_, i) => new Uint8Array(32).fill(i & 0xff));
  // Warmed up first: the engine compiles a WebAssembly function with its fast tier only once
  // it has run a while, and the batch's SIMD entry has not run before this case.
  for (let r = 0; r < 20; ++r) {
    for (const m of messages) one(m);
    batch(messages);
  }
  // Each repetition hashes the 1,024 messages 16 times: about 5 ms, where a browser's clock
  // may step by 0.1 ms.
  const times = 16, a = [], b = [];
  for (let r = 0; r < repetitions; ++r) {
    let start = now();
    for (let t = 0; t < times; ++t) for (const m of messages) one(m);
    a.push((now() - start) / (times * messages.length));
    start = now();
    for (let t = 0; t < times; ++t) batch(messages);
    b.push((now() - start) / (times * messages.length));
  }
  return [
    `keccak_256_batch 1,024 x 32 B: ${shown(median(b))} a message, one at a time ${shown(median(a))}: ${(median(a) / median(b)).toFixed(2)}x (fastest: ${shown(fastest(b))} against ${shown(fastest(a))}, ${(fastest(a) / fastest(b)).toFixed(2)}x)`,
  ];
}

/** KT128 of 1 MiB, ours against noble's, medians of 5. */
export function kt128Case(ours, noble, now) {
  const message = new Uint8Array(1 << 20).map((_, i) => i & 0xff);
  if (hex(ours(message)) !== hex(noble(message))) throw new Error("kt128 disagrees with noble's");
  const a = [], b = [];
  for (let r = 0; r < 5; ++r) {
    let start = now();
    ours(message);
    a.push(now() - start);
    start = now();
    noble(message);
    b.push(now() - start);
  }
  return [`kt128 1 MiB: ${shown(median(a))}, @noble/hashes ${shown(median(b))}: ${(median(b) / median(a)).toFixed(2)}x ours`];
}
