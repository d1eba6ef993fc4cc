// TurboSHAKE and KangarooTwelve (RFC 9861) with @noble/hashes 2.4's sha3-addons.js API, on the
// 12-round entries of the wasm-scalar kernel (through src/sha3.js's Keccak sponge).
import { Keccak } from "./sha3.js";
import { abytes, aexists, checkOpts, createHasher } from "./utils.js";

function chooseLen(opts, outputLen) {
  opts = checkOpts(opts);
  return opts.dkLen === undefined ? outputLen : opts.dkLen;
}

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
const kEmpty = new Uint8Array(0);

/**
 * KangarooTwelve's tree over the sponge: the first 8 KiB chunk into the final node, each later
 * chunk a leaf (TurboSHAKE with D = 0x0b) whose chaining value goes into the final node.
 */
export class KangarooTwelve extends Keccak {
  chunkPos = 0;
  chunksDone = 0;
  leafHash = undefined;

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
        } else {
          this.suffix = 0x06;
          super.update(kTree);
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
    super.update(this.leafHash.digest());
  }
  finish() {
    if (this.finished) return;
    this.update(this.personalization).update(lengthEncode(this.personalization.length));
    if (this.leafHash) {
      this.flushLeaf();
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
