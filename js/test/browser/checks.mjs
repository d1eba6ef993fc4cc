// The package's checks in a browser page: loaded as a plain <script type="module"> (no
// bundler), each function against @noble/hashes at lengths around its rate, the batch
// against one at a time, TurboSHAKE and KangarooTwelve, and Ascon against the first vectors
// of tests/kat. The page records what it checked and the first disagreement in
// window.checks, which test/browser/run.mjs reads.
import * as noble from "@noble/hashes/sha3.js";
import * as nobleAddons from "@noble/hashes/sha3-addons.js";
import * as ours from "/pkg/index.js";

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const ptn = (n) => Uint8Array.from({ length: n }, (_, i) => i % 251);
const results = { checked: 0, failures: [], simd: ours.batchIsSimd, scalarKernel: ours.scalarKernel };
const expect = (what, actual, expected) => {
  results.checked++;
  if (actual !== expected && results.failures.length < 10) results.failures.push(`${what}: ${actual} != ${expected}`);
};

try {
  for (const name of ["sha3_224", "sha3_256", "sha3_384", "sha3_512", "keccak_224", "keccak_256", "keccak_384", "keccak_512", "shake128", "shake256"]) {
    const rate = ours[name].blockLen;
    for (const length of [0, 1, rate - 1, rate, rate + 1, 2 * rate + 5, 70000]) {
      const m = ptn(length);
      expect(`${name} ${length}`, hex(ours[name](m)), hex(noble[name](m)));
      const h = ours[name].create().update(m.subarray(0, 3)).update(m.subarray(3));
      expect(`${name} ${length} streamed`, hex(h.digest()), hex(noble[name](m)));
    }
  }
  for (const name of ["turboshake128", "turboshake256", "kt128", "kt256", "cshake128", "cshake256", "parallelhash128", "parallelhash256"]) {
    for (const length of [0, 1, 8192, 8193, 20000, 30000]) expect(`${name} ${length}`, hex(ours[name](ptn(length))), hex(nobleAddons[name](ptn(length))));
  }
  for (const name of ["kmac128", "kmac256"]) expect(name, hex(ours[name](ptn(32), ptn(300))), hex(nobleAddons[name](ptn(32), ptn(300))));
  const messages = Array.from({ length: 9 }, (_, i) => ptn(i * 70));
  ours.keccak_256_batch(messages).forEach((d, i) => expect(`batch ${i}`, hex(d), hex(noble.keccak_256(messages[i]))));
  const text = async (path) => (await fetch(path)).text();
  const first = (kat, field) => new RegExp(`^${field} = ([0-9A-F]*)`, "m").exec(kat)[1].toLowerCase();
  const hashKat = await text("/kat/ascon-sp800-232/asconhash256/LWC_HASH_KAT_128_256.txt");
  expect("ascon_hash256 of the empty message", hex(ours.ascon_hash256(new Uint8Array(0))), first(hashKat, "MD"));
  const aeadKat = await text("/kat/ascon-sp800-232/asconaead128/LWC_AEAD_KAT_128_128.txt");
  const bytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
  const sealed = ours.ascon_aead128(bytes(first(aeadKat, "Key")), bytes(first(aeadKat, "Nonce"))).encrypt(new Uint8Array(0));
  expect("ascon_aead128, the first vector", hex(sealed), first(aeadKat, "CT"));
} catch (error) {
  results.failures.push(`threw: ${error.stack ?? error}`);
}
window.checks = results;
