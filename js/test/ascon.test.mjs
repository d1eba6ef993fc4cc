// Ascon (SP 800-232) against every vector of tests/kat/ascon-sp800-232: Hash256, XOF128 and
// CXOF128 in one call and streamed in pieces around the rate, AEAD128 encrypting to each
// vector's ciphertext and tag and decrypting it back; a changed ciphertext, tag, nonce or
// associated data refused with nothing released; the kernel's memory clean after each call;
// the errors for misuse.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ascon_aead128, ascon_cxof128, ascon_hash256, ascon_xof128 } from "../ascon.js";
import * as root from "../index.js";
import { asconMemoryIsClean } from "../src/ascon.js";

const here = dirname(fileURLToPath(import.meta.url));
const kat = join(process.env.SPONGE_KAT_DIR ?? join(here, "..", "..", "tests", "kat"), "ascon-sp800-232");
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const bytes = (text) => Uint8Array.from(Buffer.from(text ?? "", "hex"));
function vectors(file) {
  return readFileSync(join(kat, file), "utf8")
    .split(/\n\s*\n/)
    .map((block) => Object.fromEntries([...block.matchAll(/^(\w+) =[ ]?(.*)$/gm)].map((m) => [m[1], m[2].trim()])))
    .filter((v) => v.Count !== undefined);
}
// The message fed in pieces of 1, 7 and 9 bytes, in turn.
function streamed(h, message) {
  const sizes = [1, 7, 9];
  for (let at = 0, i = 0; at < message.length; at += sizes[i++ % 3]) h.update(message.subarray(at, at + sizes[i % 3]));
  return h;
}

test("the Ascon functions are there from the root too", () => {
  for (const f of [ascon_hash256, ascon_xof128, ascon_cxof128, ascon_aead128]) assert.ok(Object.values(root).includes(f));
});

test("Ascon-Hash256 and Ascon-XOF128: every vector, in one call and streamed", () => {
  for (const [file, f, length] of [["asconhash256/LWC_HASH_KAT_128_256.txt", ascon_hash256, 32], ["asconxof128/LWC_XOF_KAT_128_512.txt", ascon_xof128, 64]]) {
    const all = vectors(file);
    assert.ok(all.length >= 1000, `${file}: ${all.length} vectors`);
    for (const v of all) {
      const opts = f === ascon_xof128 ? { dkLen: length } : undefined;
      assert.equal(hex(f(bytes(v.Msg), opts)), v.MD.toLowerCase(), `${file} Count ${v.Count}`);
      assert.equal(hex(streamed(f.create(opts), bytes(v.Msg)).digest()), v.MD.toLowerCase(), `${file} Count ${v.Count}, streamed`);
    }
    assert.ok(asconMemoryIsClean());
  }
});

test("Ascon-CXOF128: every vector", () => {
  const all = vectors("asconcxof128/LWC_CXOF_KAT_128_512.txt");
  assert.ok(all.length >= 1000);
  for (const v of all) {
    const out = ascon_cxof128(bytes(v.Msg), { customization: bytes(v.Z), dkLen: 64 });
    assert.equal(hex(out), v.MD.toLowerCase(), `Count ${v.Count}`);
  }
  assert.ok(asconMemoryIsClean());
});

test("Ascon-AEAD128: every vector sealed and opened; any change refused", () => {
  const all = vectors("asconaead128/LWC_AEAD_KAT_128_128.txt");
  assert.ok(all.length >= 1000);
  for (const v of all) {
    const cipher = ascon_aead128(bytes(v.Key), bytes(v.Nonce), bytes(v.AD));
    const sealed = cipher.encrypt(bytes(v.PT));
    assert.equal(hex(sealed), v.CT.toLowerCase(), `Count ${v.Count}`);
    assert.equal(hex(cipher.decrypt(sealed)), (v.PT ?? "").toLowerCase(), `Count ${v.Count}, opened`);
  }
  const v = all[600];
  const sealed = bytes(v.CT);
  for (const at of [0, sealed.length - 1]) {
    const changed = sealed.slice();
    changed[at] ^= 1;
    assert.throws(() => ascon_aead128(bytes(v.Key), bytes(v.Nonce), bytes(v.AD)).decrypt(changed), { message: "invalid tag" });
  }
  const nonce = bytes(v.Nonce);
  nonce[3] ^= 0x80;
  assert.throws(() => ascon_aead128(bytes(v.Key), nonce, bytes(v.AD)).decrypt(sealed), { message: "invalid tag" });
  assert.throws(() => ascon_aead128(bytes(v.Key), bytes(v.Nonce), Uint8Array.of(1)).decrypt(sealed), { message: "invalid tag" });
  assert.ok(asconMemoryIsClean());
});

test("Ascon misuse raises clear errors", () => {
  const k = new Uint8Array(16);
  assert.throws(() => ascon_hash256("abc"), { name: "TypeError", message: "expected Uint8Array, got type=string" });
  assert.throws(() => ascon_aead128(new Uint8Array(15), k).encrypt(k), { name: "RangeError", message: '"key" expected Uint8Array of length 16, got length=15' });
  assert.throws(() => ascon_aead128(k, new Uint8Array(17)).encrypt(k), { name: "RangeError", message: '"nonce" expected Uint8Array of length 16, got length=17' });
  assert.throws(() => ascon_aead128(k, k).decrypt(new Uint8Array(15)), { name: "RangeError", message: '"ciphertext" expected length >= 16, got length=15' });
  assert.throws(() => ascon_cxof128(k, { customization: new Uint8Array(257) }), { name: "RangeError" });
  assert.throws(() => ascon_xof128(k, { dkLen: -1 }), { name: "RangeError", message: '"outputLen" expected integer >= 0, got -1' });
  const h = ascon_hash256.create();
  h.digest();
  assert.throws(() => h.update(k), { message: "hash was destroyed" });
});
