export * from "./src/sha3.js";
export * from "./src/sha3-addons.js";
export { AsconHash, ascon_aead128, ascon_cxof128, ascon_hash256, ascon_xof128 } from "./src/ascon.js";
export { batchIsSimd, keccak_256_batch } from "./src/batch.js";
export { scalarKernel } from "./src/wasm.js";
