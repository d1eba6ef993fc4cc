// Compiled with `tsc --noEmit` (npm run check-types): the declarations describe what a program
// calls, with noble's types; a wrong use below each right one is an error tsc must report.
import { keccak_256, sha3_256, shake256, Keccak } from "@spongegen/hashes/sha3.js";
import { kt128, kmac256, tuplehash128, parallelhash256, turboshake128, cshake128 } from "@spongegen/hashes/sha3-addons.js";
import { ascon_aead128, ascon_hash256, ascon_xof128, ascon_cxof128 } from "@spongegen/hashes/ascon.js";
import { keccak_256_batch, batchIsSimd, scalarKernel } from "@spongegen/hashes";

const message: Uint8Array = new Uint8Array(3);
const digest: Uint8Array = keccak_256(message);
const hasher: Keccak = sha3_256.create().update(message).update(message);
const out: Uint8Array = hasher.digest();
const xof: Uint8Array = shake256.create({ dkLen: 64 }).update(message).xof(10);
const sizes: number[] = [keccak_256.outputLen, keccak_256.blockLen, shake256(message, { dkLen: 8 }).length];
const addons: Uint8Array[] = [
  kt128(message, { personalization: message, dkLen: 32 }),
  kmac256(message, message, { personalization: message }),
  tuplehash128([message, message]),
  parallelhash256(message, { blockLen: 8 }),
  turboshake128(message, { D: 0x06 }),
  cshake128(message, { NISTfn: "KMAC", personalization: message }),
];
const batch: Uint8Array[] = keccak_256_batch([message, message]);
const simd: boolean = batchIsSimd;
const kernel: "wasm-scalar" | "wasm-scalar-memory" = scalarKernel;
const cipher = ascon_aead128(new Uint8Array(16), new Uint8Array(16), message);
const sealed: Uint8Array = cipher.encrypt(message);
const opened: Uint8Array = cipher.decrypt(sealed);
const asconDigests: Uint8Array[] = [
  ascon_hash256(message),
  ascon_xof128(message, { dkLen: 16 }),
  ascon_cxof128(message, { customization: message }),
  ascon_hash256.create().update(message).digest(),
];
// @ts-expect-error: a string is no message
keccak_256("abc");
// @ts-expect-error: SHAKE's option is dkLen
shake256(message, { length: 8 });
// @ts-expect-error: KMAC takes a key first
kmac256(message);
// @ts-expect-error: the batch takes an array
keccak_256_batch(message);
export { digest, out, xof, sizes, addons, batch, simd, kernel, opened, asconDigests };
