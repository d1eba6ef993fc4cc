// cSHAKE, KMAC, TupleHash, ParallelHash (SP 800-185), TurboSHAKE and KangarooTwelve (RFC 9861)
// with @noble/hashes 2.4's types (its sha3-addons.js), on spongegen's WebAssembly kernel.
import { Keccak } from "./sha3.js";

/** cSHAKE's options: the customization S, the function name N, the output length. */
export type CShakeOpts = { personalization?: Uint8Array; NISTfn?: string | Uint8Array; dkLen?: number };
/** KMAC's, TupleHash's and ParallelHash's options (ParallelHash's blockLen: its chunk size). */
export type KMACOpts = { personalization?: Uint8Array; dkLen?: number };
export type ParallelOpts = KMACOpts & { blockLen?: number };

/** TurboSHAKE's options: the domain separation byte D (0x01..0x7f) and the output length. */
export type TurboshakeOpts = { D?: number; dkLen?: number };
/** KangarooTwelve's options: the customization string and the output length. */
export type KangarooOpts = { personalization?: Uint8Array; dkLen?: number };

type Callable<Opts> = ((msg: Uint8Array, opts?: Opts) => Uint8Array) & {
  readonly outputLen: number;
  readonly blockLen: number;
  readonly canXOF: boolean;
  create(opts?: Opts): Keccak;
};

type Keyed = ((key: Uint8Array, message: Uint8Array, opts?: KMACOpts) => Uint8Array) & {
  readonly outputLen: number;
  readonly blockLen: number;
  readonly canXOF: boolean;
  create(key: Uint8Array, opts?: KMACOpts): Keccak;
};
type Tupled = ((messages: Uint8Array[], opts?: KMACOpts) => Uint8Array) & {
  readonly outputLen: number;
  readonly blockLen: number;
  readonly canXOF: boolean;
  create(opts?: KMACOpts): Keccak;
};

export declare const cshake128: Callable<CShakeOpts>;
export declare const cshake256: Callable<CShakeOpts>;
export declare const kmac128: Keyed;
export declare const kmac256: Keyed;
export declare const kmac128xof: Keyed;
export declare const kmac256xof: Keyed;
export declare const tuplehash128: Tupled;
export declare const tuplehash256: Tupled;
export declare const tuplehash128xof: Tupled;
export declare const tuplehash256xof: Tupled;
export declare const parallelhash128: Callable<ParallelOpts>;
export declare const parallelhash256: Callable<ParallelOpts>;
export declare const parallelhash128xof: Callable<ParallelOpts>;
export declare const parallelhash256xof: Callable<ParallelOpts>;
export declare const turboshake128: Callable<TurboshakeOpts>;
export declare const turboshake256: Callable<TurboshakeOpts>;
export declare const kt128: Callable<KangarooOpts>;
export declare const kt256: Callable<KangarooOpts>;
/** KangarooTwelve's tree over the sponge. */
export declare class KangarooTwelve extends Keccak {
  constructor(blockLen: number, leafLen: number, outputLen: number, rounds: number, opts?: KangarooOpts);
}
export declare class KMAC extends Keccak {
  constructor(blockLen: number, outputLen: number, enableXOF: boolean, key: Uint8Array, opts?: KMACOpts);
}
export declare class TupleHash extends Keccak {
  constructor(blockLen: number, outputLen: number, enableXOF: boolean, opts?: KMACOpts);
}
export declare class ParallelHash extends Keccak {
  constructor(blockLen: number, outputLen: number, leafCons: () => Keccak, enableXOF: boolean, opts?: ParallelOpts);
}
