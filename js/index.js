export * from "./src/sha3.js";
export { batchIsSimd, keccak_256_batch } from "./src/batch.js";
