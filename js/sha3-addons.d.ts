// TurboSHAKE and KangarooTwelve (RFC 9861) with @noble/hashes 2.4's types (its
// sha3-addons.js), on spongegen's generated WebAssembly kernel.
import type { Keccak } from "./sha3.js";

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

export declare const turboshake128: Callable<TurboshakeOpts>;
export declare const turboshake256: Callable<TurboshakeOpts>;
export declare const kt128: Callable<KangarooOpts>;
export declare const kt256: Callable<KangarooOpts>;
/** KangarooTwelve's tree over the sponge. */
export declare class KangarooTwelve extends Keccak {
  constructor(blockLen: number, leafLen: number, outputLen: number, rounds: number, opts?: KangarooOpts);
}
