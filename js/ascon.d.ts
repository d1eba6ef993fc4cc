// Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128 and Ascon-AEAD128 (NIST SP 800-232) on
// spongegen's generated WebAssembly kernel ascon-wasm.

/** A hash in progress: Hash256's, XOF128's or CXOF128's sponge. */
export declare class AsconHash {
  readonly blockLen: number;
  readonly outputLen: number;
  readonly canXOF: boolean;
  update(data: Uint8Array): this;
  digest(): Uint8Array;
  xof(bytes: number): Uint8Array;
  clone(): AsconHash;
  destroy(): void;
}
type AsconCallable<Opts> = ((msg: Uint8Array, opts?: Opts) => Uint8Array) & {
  readonly outputLen: number;
  readonly blockLen: number;
  readonly canXOF: boolean;
  create(opts?: Opts): AsconHash;
};
/** Ascon-Hash256: 32 bytes. */
export declare const ascon_hash256: AsconCallable<undefined>;
/** Ascon-XOF128: `{ dkLen }` bytes, 32 by default. */
export declare const ascon_xof128: AsconCallable<{ dkLen?: number }>;
/** Ascon-CXOF128: the customization string (up to 256 bytes) and the output length. */
export declare const ascon_cxof128: AsconCallable<{ customization?: Uint8Array; dkLen?: number }>;
/**
 * Ascon-AEAD128 with a 16-byte key and a 16-byte nonce: encrypt gives the ciphertext with the
 * 16-byte tag after it; decrypt gives the plaintext or throws "invalid tag".
 */
export declare function ascon_aead128(
  key: Uint8Array,
  nonce: Uint8Array,
  associatedData?: Uint8Array,
): { encrypt(plaintext: Uint8Array): Uint8Array; decrypt(sealed: Uint8Array): Uint8Array };
