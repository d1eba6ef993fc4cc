// Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128 and Ascon-AEAD128 (NIST SP 800-232) on the
// ascon-wasm kernel (generated/ascon_p320_wasm.wasm, proven by `spongegen prove`): the modes
// are here, as the C++ runtime's (runtime/src/ascon/sp800_232.cpp); the permutations and the
// whole blocks of hashing, associated data, encryption and decryption are the kernel's.
// The state is 40 bytes, word i at bytes 8i..8i+7 little-endian; the module's memory is
// zeroed after each call, as the Keccak modules' is.
import { ascon } from "./kernels.js";
import { abytes, aexists, anumber, checkOpts } from "./utils.js";

const kPages = 2;
const kStateAt = 1024;
const kInAt = 4096;
const kHalf = Math.floor((kPages * 65536 - kInAt) / 2 / 16) * 16; // the input's, the output's
const kOutAt = kInAt + kHalf;

const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const memory = new WebAssembly.Memory({ initial: kPages, maximum: kPages });
const { instance } = await WebAssembly.instantiate(decode(ascon), { env: { memory } });
const heap = new Uint8Array(memory.buffer);
const stateView = heap.subarray(kStateAt, kStateAt + 40);
const entry = (name) => instance.exports[`sponge_ascon_p320_wasm_${name}`];
const permutes = { 12: entry("p12"), 8: entry("p8"), 6: entry("p6") };

function permute(state, rounds) {
  stateView.set(state);
  permutes[rounds](kStateAt);
  state.set(stateView);
  stateView.fill(0);
}
// `count` blocks of `rate` bytes of data[offset..] through a kernel entry that takes
// (state, blocks, count) or, with `out`, (state, in, out, count).
function blocks(call, state, rate, data, offset, count, out, outOffset) {
  const most = Math.floor(kHalf / rate);
  stateView.set(state);
  while (count > 0) {
    const n = Math.min(count, most);
    const bytes = n * rate;
    heap.set(data.subarray(offset, offset + bytes), kInAt);
    if (out === undefined) {
      call(kStateAt, kInAt, n);
    } else {
      call(kStateAt, kInAt, kOutAt, n);
      out.set(heap.subarray(kOutAt, kOutAt + bytes), outOffset);
      heap.fill(0, kOutAt, kOutAt + bytes);
      outOffset += bytes;
    }
    heap.fill(0, kInAt, kInAt + bytes);
    offset += bytes;
    count -= n;
  }
  state.set(stateView);
  stateView.fill(0);
}

/** What tests look at: whether the module's memory holds anything. */
export function asconMemoryIsClean() {
  return heap.every((byte) => byte === 0);
}

const word = (value) => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
};
const initialState = (iv) => {
  const state = new Uint8Array(40);
  state.set(word(iv));
  permute(state, 12);
  return state;
};
const kHash256Iv = 0x0000080100cc0002n;
const kXof128Iv = 0x0000080000cc0003n;
const kCxof128Iv = 0x0000080000cc0004n;
const kAead128Iv = 0x00001000808c0001n;

/** The hash sponge of Hash256, XOF128 and CXOF128: rate 8 bytes, p12. */
export class AsconHash {
  pos = 0;
  posOut = 0;
  finished = false;
  destroyed = false;
  blockLen = 8;
  constructor(initial, outputLen, enableXOF) {
    anumber(outputLen, "outputLen");
    this.state = initial.slice();
    this.outputLen = outputLen;
    this.enableXOF = enableXOF;
    this.canXOF = enableXOF;
  }
  update(data) {
    aexists(this);
    abytes(data);
    const { state } = this;
    let pos = 0;
    const len = data.length;
    if (this.pos > 0) {
      const take = Math.min(8 - this.pos, len);
      for (let i = 0; i < take; i++) state[this.pos++] ^= data[pos++];
      if (this.pos === 8) {
        permute(state, 12);
        this.pos = 0;
      }
    }
    const count = Math.floor((len - pos) / 8);
    if (count > 0) {
      blocks(entry("absorb_hash"), state, 8, data, pos, count);
      pos += count * 8;
    }
    while (pos < len) state[this.pos++] ^= data[pos++];
    return this;
  }
  finish() {
    if (this.finished) return;
    this.finished = true;
    this.state[this.pos] ^= 0x01;
    permute(this.state, 12);
    this.posOut = 0;
  }
  writeInto(out) {
    aexists(this, false);
    abytes(out);
    this.finish();
    for (let pos = 0; pos < out.length; ) {
      if (this.posOut === 8) {
        permute(this.state, 12);
        this.posOut = 0;
      }
      const take = Math.min(8 - this.posOut, out.length - pos);
      out.set(this.state.subarray(this.posOut, this.posOut + take), pos);
      this.posOut += take;
      pos += take;
    }
    return out;
  }
  xof(bytes) {
    anumber(bytes);
    if (!this.enableXOF) throw new Error("XOF is not enabled");
    return this.writeInto(new Uint8Array(bytes));
  }
  digest() {
    if (this.finished) throw new Error("digest() was already called");
    const out = this.writeInto(new Uint8Array(this.outputLen));
    this.destroy();
    return out;
  }
  destroy() {
    this.destroyed = true;
    this.state.fill(0);
  }
  clone() {
    const to = new AsconHash(this.state, this.outputLen, this.enableXOF);
    to.pos = this.pos;
    to.posOut = this.posOut;
    to.finished = this.finished;
    to.destroyed = this.destroyed;
    return to;
  }
}

let hashInitial, xofInitial;
function callable(create, info) {
  const hash = (message, opts) => create(opts).update(message).digest();
  hash.create = create;
  Object.assign(hash, info);
  return Object.freeze(hash);
}
/** Ascon-Hash256 (SP 800-232): 32 bytes. */
export const ascon_hash256 = callable(() => new AsconHash((hashInitial ||= initialState(kHash256Iv)), 32, false), {
  outputLen: 32,
  blockLen: 8,
  canXOF: false,
});
/** Ascon-XOF128 (SP 800-232): `{ dkLen }`, 32 bytes by default. */
export const ascon_xof128 = callable(
  (opts = {}) => {
    opts = checkOpts(opts);
    return new AsconHash((xofInitial ||= initialState(kXof128Iv)), opts.dkLen === undefined ? 32 : opts.dkLen, true);
  },
  { outputLen: 32, blockLen: 8, canXOF: true },
);
/** Ascon-CXOF128 (SP 800-232): `{ customization (up to 256 bytes), dkLen }`. */
export const ascon_cxof128 = callable(
  (opts = {}) => {
    opts = checkOpts(opts);
    const customization = opts.customization === undefined ? new Uint8Array(0) : abytes(opts.customization, "customization");
    if (customization.length > 256) throw new RangeError('"customization" expected length <= 256, got length=' + customization.length);
    const state = initialState(kCxof128Iv);
    state.set(word(8n * BigInt(customization.length)).map((b, i) => b ^ state[i]));
    permute(state, 12);
    const h = new AsconHash(state, opts.dkLen === undefined ? 32 : opts.dkLen, true);
    state.fill(0);
    h.update(customization);
    h.state[h.pos] ^= 0x01; // Z padded, as a message
    permute(h.state, 12);
    h.pos = 0;
    return h;
  },
  { outputLen: 32, blockLen: 8, canXOF: true },
);

// ---- Ascon-AEAD128 ----
const xorInto = (state, at, bytes) => {
  for (let i = 0; i < bytes.length; i++) state[at + i] ^= bytes[i];
};
function aeadStart(key, nonce, associatedData) {
  abytes(key, "key");
  abytes(nonce, "nonce");
  if (key.length !== 16) throw new RangeError('"key" expected Uint8Array of length 16, got length=' + key.length);
  if (nonce.length !== 16) throw new RangeError('"nonce" expected Uint8Array of length 16, got length=' + nonce.length);
  const state = new Uint8Array(40);
  state.set(word(kAead128Iv));
  state.set(key, 8);
  state.set(nonce, 24);
  permute(state, 12);
  xorInto(state, 24, key);
  if (associatedData.length > 0) {
    const count = Math.floor(associatedData.length / 16);
    if (count > 0) blocks(entry("absorb_ad"), state, 16, associatedData, 0, count);
    xorInto(state, 0, associatedData.subarray(count * 16));
    state[associatedData.length % 16] ^= 0x01;
    permute(state, 8);
  }
  state[39] ^= 0x80; // domain separation, with or without associated data
  return state;
}
function aeadTag(state, key, position) {
  state[position] ^= 0x01; // the last text block, possibly empty; no permutation
  xorInto(state, 16, key);
  permute(state, 12);
  xorInto(state, 24, key);
  const tag = state.slice(24, 40);
  state.fill(0);
  return tag;
}
// Whether a and b are equal, in time that depends on their length only.
function equalBytes(a, b) {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Ascon-AEAD128 (SP 800-232) with a 16-byte key and nonce: `encrypt(plaintext)` gives the
 * ciphertext with the 16-byte tag after it, `decrypt(sealed)` the plaintext, or throws when the
 * tag does not match (and returns nothing of the plaintext).
 */
export function ascon_aead128(key, nonce, associatedData = new Uint8Array(0)) {
  abytes(associatedData, "associatedData");
  key = abytes(key, "key").slice();
  nonce = abytes(nonce, "nonce").slice();
  return {
    encrypt(plaintext) {
      abytes(plaintext, "plaintext");
      const state = aeadStart(key, nonce, associatedData);
      const out = new Uint8Array(plaintext.length + 16);
      const count = Math.floor(plaintext.length / 16);
      if (count > 0) blocks(entry("encrypt"), state, 16, plaintext, 0, count, out, 0);
      const rest = plaintext.subarray(count * 16);
      xorInto(state, 0, rest);
      out.set(state.subarray(0, rest.length), count * 16);
      out.set(aeadTag(state, key, rest.length), plaintext.length);
      return out;
    },
    decrypt(sealed) {
      abytes(sealed, "ciphertext");
      if (sealed.length < 16) throw new RangeError('"ciphertext" expected length >= 16, got length=' + sealed.length);
      const length = sealed.length - 16;
      const state = aeadStart(key, nonce, associatedData);
      const out = new Uint8Array(length);
      const count = Math.floor(length / 16);
      if (count > 0) blocks(entry("decrypt"), state, 16, sealed, 0, count, out, 0);
      const rest = sealed.subarray(count * 16, length);
      for (let i = 0; i < rest.length; i++) {
        out[count * 16 + i] = state[i] ^ rest[i];
        state[i] = rest[i];
      }
      const tag = aeadTag(state, key, rest.length);
      if (!equalBytes(tag, sealed.subarray(length))) {
        out.fill(0);
        throw new Error("invalid tag");
      }
      return out;
    },
  };
}
