// SHA-3, Keccak and SHAKE with @noble/hashes 2.4's types (its sha3.js), on spongegen's
// generated WebAssembly kernel.

/** Options of the SHAKE functions: the output length in bytes. */
export type ShakeOpts = { dkLen?: number };

/** A hash in progress, as noble's Keccak class. */
export declare class Keccak {
  readonly blockLen: number;
  readonly outputLen: number;
  readonly suffix: number;
  readonly rounds: number;
  readonly enableXOF: boolean;
  readonly canXOF: boolean;
  finished: boolean;
  destroyed: boolean;
  constructor(blockLen: number, suffix: number, outputLen: number, enableXOF?: boolean, rounds?: number);
  update(data: Uint8Array): this;
  digest(): Uint8Array;
  digestInto(out: Uint8Array): void;
  xof(bytes: number): Uint8Array;
  xofInto(out: Uint8Array): Uint8Array;
  clone(): Keccak;
  destroy(): void;
}

/** A fixed-length hash: call it on a message, or `.create()` one to update. */
export type CHash = ((msg: Uint8Array) => Uint8Array) & {
  readonly outputLen: number;
  readonly blockLen: number;
  readonly canXOF: boolean;
  readonly oid?: Uint8Array;
  create(): Keccak;
};
/** An extendable-output function: `{ dkLen }` sets the output length. */
export type CHashXOF = ((msg: Uint8Array, opts?: ShakeOpts) => Uint8Array) & {
  readonly outputLen: number;
  readonly blockLen: number;
  readonly canXOF: boolean;
  readonly oid?: Uint8Array;
  create(opts?: ShakeOpts): Keccak;
};

export declare const sha3_224: CHash;
export declare const sha3_256: CHash;
export declare const sha3_384: CHash;
export declare const sha3_512: CHash;
export declare const keccak_224: CHash;
export declare const keccak_256: CHash;
export declare const keccak_384: CHash;
export declare const keccak_512: CHash;
export declare const shake128: CHashXOF;
export declare const shake256: CHashXOF;
export declare const shake128_32: CHashXOF;
export declare const shake256_64: CHashXOF;
