export * from "./src/sha3.js";
export * from "./src/sha3-addons.js";
export { batchIsSimd, keccak_256_batch } from "./src/batch.js";
