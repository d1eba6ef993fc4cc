// SHA-3, Keccak and SHAKE (FIPS 202, and Keccak as Ethereum uses it) with @noble/hashes 2.4's API:
// the same names, options, methods and errors, so a program switches by its import line. The
// sponge is here; the permutation and the absorption of whole blocks are the generated
// kernel's (src/wasm.js).
import { abytes, aexists, anumber, aoutput, checkOpts, createHasher, oidNist } from "./utils.js";
import { absorbBlocks, hashInOneCall, permute } from "./wasm.js";

/** A Keccak sponge: rate `blockLen` bytes, domain `suffix`, `rounds` 24 or 12. */
export class Keccak {
  pos = 0;
  posOut = 0;
  finished = false;
  destroyed = false;
  enableXOF = false;

  constructor(blockLen, suffix, outputLen, enableXOF = false, rounds = 24) {
    this.blockLen = blockLen;
    this.suffix = suffix;
    this.outputLen = outputLen;
    this.enableXOF = enableXOF;
    this.canXOF = enableXOF;
    this.rounds = rounds;
    anumber(outputLen, "outputLen");
    if (!(0 < blockLen && blockLen < 200)) throw new Error('"blockLen" must be 1..199');
    this.state = new Uint8Array(200);
  }
  clone() {
    return this._cloneInto();
  }
  // As new: the one-shot functions' shared instance, between calls.
  _reset() {
    this.state.fill(0);
    this.pos = 0;
    this.posOut = 0;
    this.finished = false;
    this.destroyed = false;
  }
  keccak() {
    permute(this.state, this.rounds);
    this.posOut = 0;
    this.pos = 0;
  }
  update(data) {
    aexists(this);
    abytes(data);
    const { blockLen, state } = this;
    const len = data.length;
    let pos = 0;
    // The bytes that complete a block begun by an earlier update.
    if (this.pos > 0) {
      const take = Math.min(blockLen - this.pos, len);
      for (let i = 0; i < take; i++) state[this.pos++] ^= data[pos++];
      if (this.pos === blockLen) this.keccak();
    }
    // Whole blocks: the kernel's block entry.
    const blocks = Math.floor((len - pos) / blockLen);
    if (blocks > 0) {
      absorbBlocks(state, blockLen, this.rounds, data, pos, blocks);
      pos += blocks * blockLen;
    }
    while (pos < len) state[this.pos++] ^= data[pos++];
    return this;
  }
  finish() {
    if (this.finished) return;
    this.finished = true;
    const { state, suffix, pos, blockLen } = this;
    state[pos] ^= suffix;
    if ((suffix & 0x80) !== 0 && pos === blockLen - 1) this.keccak();
    state[blockLen - 1] ^= 0x80;
    this.keccak();
  }
  writeInto(out) {
    aexists(this, false);
    abytes(out);
    this.finish();
    const { blockLen, state } = this;
    for (let pos = 0, len = out.length; pos < len; ) {
      if (this.posOut >= blockLen) this.keccak();
      const take = Math.min(blockLen - this.posOut, len - pos);
      out.set(state.subarray(this.posOut, this.posOut + take), pos);
      this.posOut += take;
      pos += take;
    }
    return out;
  }
  xofInto(out) {
    if (!this.enableXOF) throw new Error("XOF is not enabled");
    return this.writeInto(out);
  }
  xof(bytes) {
    anumber(bytes);
    return this.xofInto(new Uint8Array(bytes));
  }
  digestInto(out) {
    aoutput(out, this);
    if (this.finished) throw new Error("digest() was already called");
    this.writeInto(out.length === this.outputLen ? out : out.subarray(0, this.outputLen));
    this.destroy();
  }
  digest() {
    const out = new Uint8Array(this.outputLen);
    this.digestInto(out);
    return out;
  }
  destroy() {
    this.destroyed = true;
    this.state.fill(0);
  }
  _cloneInto(to) {
    const { blockLen, suffix, outputLen, rounds, enableXOF } = this;
    to ||= new Keccak(blockLen, suffix, outputLen, enableXOF, rounds);
    to.blockLen = blockLen;
    to.state.set(this.state);
    to.pos = this.pos;
    to.posOut = this.posOut;
    to.finished = this.finished;
    to.rounds = rounds;
    to.suffix = suffix;
    to.outputLen = outputLen;
    to.enableXOF = enableXOF;
    to.canXOF = this.canXOF;
    to.destroyed = this.destroyed;
    return to;
  }
}

const genKeccak = (suffix, blockLen, outputLen, info = {}) =>
  createHasher(() => new Keccak(blockLen, suffix, outputLen), info, {
    oneCall: (msg) => hashInOneCall(blockLen, suffix, 24, abytes(msg), outputLen),
  });
const genShake = (suffix, blockLen, outputLen, info = {}) =>
  createHasher(
    (opts = {}) => {
      opts = checkOpts(opts);
      return new Keccak(blockLen, suffix, opts.dkLen === undefined ? outputLen : opts.dkLen, true);
    },
    info,
    {
      // Without options only: an option's errors are the hasher's to raise.
      oneCall: (msg, opts) => (opts === undefined ? hashInOneCall(blockLen, suffix, 24, abytes(msg), outputLen) : undefined),
    },
  );

/** SHA3-224 hash function. */
export const sha3_224 = genKeccak(0x06, 144, 28, oidNist(0x07));
/** SHA3-256 hash function. Different from keccak-256. */
export const sha3_256 = genKeccak(0x06, 136, 32, oidNist(0x08));
/** SHA3-384 hash function. */
export const sha3_384 = genKeccak(0x06, 104, 48, oidNist(0x09));
/** SHA3-512 hash function. */
export const sha3_512 = genKeccak(0x06, 72, 64, oidNist(0x0a));
/** keccak-224 hash function. */
export const keccak_224 = genKeccak(0x01, 144, 28);
/** keccak-256 hash function (Ethereum's). Different from SHA3-256. */
export const keccak_256 = genKeccak(0x01, 136, 32);
/** keccak-384 hash function. */
export const keccak_384 = genKeccak(0x01, 104, 48);
/** keccak-512 hash function. */
export const keccak_512 = genKeccak(0x01, 72, 64);
/** SHAKE128 XOF with 128-bit security. */
export const shake128 = genShake(0x1f, 168, 16, oidNist(0x0b));
/** SHAKE256 XOF with 256-bit security. */
export const shake256 = genShake(0x1f, 136, 32, oidNist(0x0c));
/** SHAKE128 XOF with 256-bit output (NIST version). */
export const shake128_32 = genShake(0x1f, 168, 32, oidNist(0x0b));
/** SHAKE256 XOF with 512-bit output (NIST version). */
export const shake256_64 = genShake(0x1f, 136, 64, oidNist(0x0c));
