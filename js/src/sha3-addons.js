// cSHAKE, KMAC, TupleHash and ParallelHash (NIST SP 800-185), TurboSHAKE and KangarooTwelve
// (RFC 9861) with @noble/hashes 2.4's sha3-addons.js API, on the scalar kernel through
// src/sha3.js's Keccak sponge (RFC 9861's on its 12-round entries), and the leaves of
// ParallelHash and KangarooTwelve two at a time on wasm-simd128 (src/batch.js's leafPair).
import { leafPair, leafPairMax } from "./batch.js";
import { Keccak } from "./sha3.js";
import { abytes, aexists, anumber, checkOpts, createHasher } from "./utils.js";

// ---- SP 800-185's encodings (lengths in bits as BigInt: a length may pass 2^53 bits) ----
function encodeBytes(n) {
  n = BigInt(n);
  const bytes = [Number(n & 0xffn)];
  for (n >>= 8n; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
  return bytes;
}
function leftEncode(n) {
  const bytes = encodeBytes(n);
  bytes.unshift(bytes.length);
  return Uint8Array.from(bytes);
}
function rightEncode(n) {
  const bytes = encodeBytes(n);
  bytes.push(bytes.length);
  return Uint8Array.from(bytes);
}
const bits = (bytes) => 8n * BigInt(bytes);
const kEmpty = new Uint8Array(0);
function bytesOrEmpty(value, title) {
  return value === undefined ? kEmpty : abytes(value, title);
}
// A function name: a string (UTF-8) or bytes, as noble's kdfInputToBytes takes it.
function nameBytes(value) {
  if (typeof value === "string") return new TextEncoder().encode(value);
  return abytes(value);
}
// bytepad(left_encode(rate) || chunks..., rate), absorbed.
function bytepadUpdate(h, ...chunks) {
  const rate = leftEncode(h.blockLen);
  h.update(rate);
  let length = rate.length;
  for (const chunk of chunks) {
    h.update(chunk);
    length += chunk.length;
  }
  h.update(new Uint8Array((h.blockLen - (length % h.blockLen)) % h.blockLen));
  return h;
}
// cSHAKE's customization: with a function name N or a customization S, bytepad(encode_string(N)
// || encode_string(S)) and the domain bits 00 (suffix 0x04); with neither, SHAKE.
function cshakePers(h, opts = {}) {
  opts = checkOpts(opts);
  if (opts.personalization === undefined && opts.NISTfn === undefined) return h;
  const fn = opts.NISTfn === undefined ? kEmpty : nameBytes(opts.NISTfn);
  const pers = bytesOrEmpty(opts.personalization, "personalization");
  if (!fn.length && !pers.length) return h;
  h.suffix = 0x04;
  return bytepadUpdate(h, leftEncode(bits(fn.length)), fn, leftEncode(bits(pers.length)), pers);
}

function chooseLen(opts, outputLen) {
  opts = checkOpts(opts);
  return opts.dkLen === undefined ? outputLen : opts.dkLen;
}

const gencShake = (blockLen, outputLen) =>
  createHasher((opts = {}) => cshakePers(new Keccak(blockLen, 0x1f, chooseLen(opts, outputLen), true), opts), {}, { reuse: false });
/** cSHAKE128 (SP 800-185): `{ personalization, NISTfn, dkLen }`. */
export const cshake128 = gencShake(168, 16);
/** cSHAKE256 (SP 800-185): `{ personalization, NISTfn, dkLen }`. */
export const cshake256 = gencShake(136, 32);

/** KMAC (SP 800-185): cSHAKE with N = "KMAC", the key bytepadded first, the length last. */
export class KMAC extends Keccak {
  constructor(blockLen, outputLen, enableXOF, key, opts = {}) {
    super(blockLen, 0x1f, outputLen, enableXOF);
    cshakePers(this, { NISTfn: "KMAC", personalization: opts.personalization });
    abytes(key, "key");
    bytepadUpdate(this, leftEncode(bits(key.length)), key);
  }
  finish() {
    if (!this.finished) this.update(rightEncode(this.enableXOF ? 0 : bits(this.outputLen)));
    super.finish();
  }
  _cloneInto(to) {
    if (!to) {
      to = Object.create(Object.getPrototypeOf(this));
      to.state = new Uint8Array(200);
    }
    return super._cloneInto(to);
  }
}
function genKmac(blockLen, outputLen, xof = false) {
  const kmac = (key, message, opts) => kmac.create(key, opts).update(message).digest();
  kmac.create = (key, opts = {}) => new KMAC(blockLen, chooseLen(opts, outputLen), xof, key, opts);
  kmac.outputLen = outputLen;
  kmac.blockLen = blockLen;
  kmac.canXOF = xof;
  return Object.freeze(kmac);
}
/** KMAC128 (SP 800-185): `(key, message, { personalization, dkLen })`. */
export const kmac128 = genKmac(168, 16);
/** KMAC256 (SP 800-185). */
export const kmac256 = genKmac(136, 32);
/** KMACXOF128 (SP 800-185). */
export const kmac128xof = genKmac(168, 16, true);
/** KMACXOF256 (SP 800-185). */
export const kmac256xof = genKmac(136, 32, true);

/** TupleHash (SP 800-185): each update one element, encode_string of it. */
export class TupleHash extends Keccak {
  tupleMode = false;
  constructor(blockLen, outputLen, enableXOF, opts = {}) {
    super(blockLen, 0x1f, outputLen, enableXOF);
    cshakePers(this, { NISTfn: "TupleHash", personalization: opts.personalization });
    this.tupleMode = true;
  }
  update(data) {
    if (!this.tupleMode) return super.update(data);
    abytes(data);
    super.update(leftEncode(bits(data.length)));
    super.update(data);
    return this;
  }
  finish() {
    if (!this.finished) super.update(rightEncode(this.enableXOF ? 0 : bits(this.outputLen)));
    super.finish();
  }
  _cloneInto(to) {
    to ||= new TupleHash(this.blockLen, this.outputLen, this.enableXOF);
    to.tupleMode = this.tupleMode;
    return super._cloneInto(to);
  }
}
function genTuple(blockLen, outputLen, xof = false) {
  const tuple = (messages, opts) => {
    const h = tuple.create(opts);
    if (!Array.isArray(messages)) throw new Error("expected array of messages");
    for (const message of messages) h.update(message);
    return h.digest();
  };
  tuple.create = (opts = {}) => new TupleHash(blockLen, chooseLen(opts, outputLen), xof, opts);
  tuple.outputLen = outputLen;
  tuple.blockLen = blockLen;
  tuple.canXOF = xof;
  return Object.freeze(tuple);
}
/** TupleHash128 (SP 800-185): `(messages, { personalization, dkLen })`. */
export const tuplehash128 = genTuple(168, 16);
/** TupleHash256 (SP 800-185). */
export const tuplehash256 = genTuple(136, 32);
/** TupleHashXOF128 (SP 800-185). */
export const tuplehash128xof = genTuple(168, 16, true);
/** TupleHashXOF256 (SP 800-185). */
export const tuplehash256xof = genTuple(136, 32, true);

/**
 * The two whole leaves `chunks` holds (its halves) at once, through leafPair (the sponge of
 * Keccak-p[1600, rounds] at the hasher's rate with domain byte `suffix`, `outputLen` bytes
 * out): their outputs absorbed by `hasher`'s own sponge (Keccak's update, not the tree's), and
 * two more leaves counted. False where the SIMD kernel cannot take them.
 */
function absorbLeafPair(hasher, chunks, suffix, outputLen, rounds) {
  const half = chunks.length / 2;
  const values = leafPair(chunks.subarray(0, half), chunks.subarray(half), hasher.blockLen, suffix, outputLen, rounds);
  if (values === undefined) return false;
  for (const value of values) {
    Keccak.prototype.update.call(hasher, value);
    value.fill(0);
  }
  hasher.chunksDone += 2;
  return true;
}

/**
 * ParallelHash (SP 800-185): each `blockLen`-byte chunk of the input a cSHAKE leaf with empty
 * names, which is SHAKE (suffix 0x1f), of 256 or 512 bits (the capacity). Two whole leaves that
 * one update holds go through the SIMD kernel together (leafPair) where the engine has SIMD128
 * and a leaf fits its memory.
 */
export class ParallelHash extends Keccak {
  chunkPos = 0;
  chunksDone = 0;
  leafMode = false;
  leafHash = undefined;
  constructor(blockLen, outputLen, leafCons, enableXOF, opts = {}) {
    super(blockLen, 0x1f, outputLen, enableXOF);
    cshakePers(this, { NISTfn: "ParallelHash", personalization: opts.personalization });
    this.leafCons = leafCons;
    const { blockLen: B = 8 } = opts;
    anumber(B);
    if (B < 1) throw new Error('"blockLen" must be >= 1, got ' + B);
    this.chunkLen = B;
    super.update(leftEncode(B));
    this.leafMode = true;
  }
  flushLeaf() {
    const chainingValue = this.leafHash.digest();
    super.update(chainingValue);
    chainingValue.fill(0);
    this.leafHash = undefined;
    this.chunksDone++;
  }
  update(data) {
    if (!this.leafMode) return super.update(data);
    aexists(this);
    abytes(data);
    for (let pos = 0, len = data.length; pos < len; ) {
      if (this.chunkPos === this.chunkLen || !this.leafHash) {
        if (this.leafHash) this.flushLeaf();
        const B = this.chunkLen;
        if (len - pos >= 2 * B && B <= leafPairMax && absorbLeafPair(this, data.subarray(pos, pos + 2 * B), 0x1f, 200 - this.blockLen, 24)) {
          pos += 2 * B;
          continue;
        }
        this.leafHash = this.leafCons();
        this.chunkPos = 0;
      }
      const take = Math.min(this.chunkLen - this.chunkPos, len - pos);
      this.leafHash.update(data.subarray(pos, pos + take));
      this.chunkPos += take;
      pos += take;
    }
    return this;
  }
  finish() {
    if (this.finished) return;
    if (this.leafHash) this.flushLeaf();
    super.update(rightEncode(this.chunksDone));
    super.update(rightEncode(this.enableXOF ? 0 : bits(this.outputLen)));
    super.finish();
  }
  destroy() {
    super.destroy();
    if (this.leafHash) this.leafHash.destroy();
  }
  _cloneInto(to) {
    to ||= new ParallelHash(this.blockLen, this.outputLen, this.leafCons, this.enableXOF);
    to.leafCons = this.leafCons;
    to.leafHash = this.leafHash ? this.leafHash._cloneInto() : undefined;
    to.chunkPos = this.chunkPos;
    to.chunkLen = this.chunkLen;
    to.chunksDone = this.chunksDone;
    to.leafMode = this.leafMode;
    return super._cloneInto(to);
  }
}
function genPrl(blockLen, outputLen, leaf, xof = false) {
  const parallel = (message, opts) => parallel.create(opts).update(message).digest();
  parallel.create = (opts = {}) =>
    new ParallelHash(blockLen, chooseLen(opts, outputLen), () => leaf.create({ dkLen: 2 * outputLen }), xof, opts);
  parallel.outputLen = outputLen;
  parallel.blockLen = blockLen;
  parallel.canXOF = xof;
  return Object.freeze(parallel);
}
/** ParallelHash128 (SP 800-185): `(message, { blockLen, personalization, dkLen })`. */
export const parallelhash128 = genPrl(168, 16, cshake128);
/** ParallelHash256 (SP 800-185). */
export const parallelhash256 = genPrl(136, 32, cshake256);
/** ParallelHashXOF128 (SP 800-185). */
export const parallelhash128xof = genPrl(168, 16, cshake128, true);
/** ParallelHashXOF256 (SP 800-185). */
export const parallelhash256xof = genPrl(136, 32, cshake256, true);

const genTurbo = (blockLen, outputLen) =>
  createHasher((opts = {}) => {
    opts = checkOpts(opts);
    const D = opts.D === undefined ? 0x1f : opts.D;
    if (!Number.isSafeInteger(D) || D < 0x01 || D > 0x7f) {
      throw new Error('"D" (domain separation byte) must be 0x01..0x7f, got: ' + D);
    }
    const dkLen = chooseLen(opts, outputLen);
    if (dkLen < 1) throw new Error('"dkLen" must be >= 1');
    return new Keccak(blockLen, D, dkLen, true, 12);
  });

/** TurboSHAKE128 (RFC 9861): 12 rounds, rate 168; `{ D, dkLen }`. */
export const turboshake128 = genTurbo(168, 32);
/** TurboSHAKE256 (RFC 9861): 12 rounds, rate 136; `{ D, dkLen }`. */
export const turboshake256 = genTurbo(136, 64);

// KangarooTwelve's length encoding: big-endian bytes without leading zeros, then their count.
function lengthEncode(n) {
  const bytes = [];
  for (; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  bytes.push(bytes.length);
  return Uint8Array.from(bytes);
}
const kChunkLen = 8192;
const kTree = Uint8Array.from([3, 0, 0, 0, 0, 0, 0, 0]);
const kFinal = Uint8Array.from([0xff, 0xff]);

/**
 * KangarooTwelve's tree over the sponge: the first 8 KiB chunk into the final node, each later
 * chunk a leaf (TurboSHAKE with D = 0x0b) whose chaining value goes into the final node. Two
 * whole leaves that one update holds go through the SIMD kernel together (leafPair) where the
 * engine has SIMD128.
 */
export class KangarooTwelve extends Keccak {
  chunkPos = 0; // bytes of the current chunk
  chunksDone = 0; // leaves begun
  tree = false; // whether the first chunk is closed (the final node then takes chaining values)
  leafHash = undefined; // the current chunk's leaf, while one is open

  constructor(blockLen, leafLen, outputLen, rounds, opts) {
    super(blockLen, 0x07, outputLen, true, rounds);
    opts = checkOpts(opts);
    if (outputLen < 1) throw new Error('"dkLen" must be >= 1');
    this.leafLen = leafLen;
    this.personalization =
      opts.personalization === undefined ? kEmpty : abytes(opts.personalization, "personalization").slice();
  }
  update(data) {
    aexists(this);
    abytes(data);
    for (let pos = 0, len = data.length; pos < len; ) {
      if (this.chunkPos === kChunkLen) {
        if (this.leafHash) {
          this.flushLeaf();
        } else if (!this.tree) {
          this.suffix = 0x06;
          super.update(kTree);
          this.tree = true;
        }
        const pair = len - pos >= 2 * kChunkLen && absorbLeafPair(this, data.subarray(pos, pos + 2 * kChunkLen), 0x0b, this.leafLen, 12);
        if (pair) {
          pos += 2 * kChunkLen;
          continue; // the chunk just hashed is whole: chunkPos stays kChunkLen
        }
        this.leafHash = new Keccak(this.blockLen, 0x0b, this.leafLen, false, this.rounds);
        this.chunksDone++;
        this.chunkPos = 0;
      }
      const take = Math.min(kChunkLen - this.chunkPos, len - pos);
      const chunk = data.subarray(pos, pos + take);
      if (this.leafHash) this.leafHash.update(chunk);
      else super.update(chunk);
      this.chunkPos += take;
      pos += take;
    }
    return this;
  }
  flushLeaf() {
    const chainingValue = this.leafHash.digest();
    super.update(chainingValue);
    chainingValue.fill(0);
    this.leafHash = undefined;
  }
  finish() {
    if (this.finished) return;
    this.update(this.personalization).update(lengthEncode(this.personalization.length));
    if (this.tree) {
      if (this.leafHash) this.flushLeaf();
      super.update(lengthEncode(this.chunksDone));
      super.update(kFinal);
    }
    super.finish();
  }
  destroy() {
    super.destroy();
    if (this.leafHash) this.leafHash.destroy();
    this.personalization.fill(0);
  }
  _cloneInto(to) {
    to ||= new KangarooTwelve(this.blockLen, this.leafLen, this.outputLen, this.rounds, {
      personalization: this.personalization.length ? this.personalization : undefined,
    });
    super._cloneInto(to);
    to.leafHash = this.leafHash ? this.leafHash._cloneInto() : undefined;
    to.tree = this.tree;
    to.chunkPos = this.chunkPos;
    to.chunksDone = this.chunksDone;
    return to;
  }
}

/** KT128 (RFC 9861): `{ personalization, dkLen }`. */
export const kt128 = createHasher(
  (opts = {}) => new KangarooTwelve(168, 32, chooseLen(opts, 32), 12, opts),
  {},
  { reuse: false },
);
/** KT256 (RFC 9861): `{ personalization, dkLen }`. */
export const kt256 = createHasher(
  (opts = {}) => new KangarooTwelve(136, 64, chooseLen(opts, 64), 12, opts),
  {},
  { reuse: false },
);
