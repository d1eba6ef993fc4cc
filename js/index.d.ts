export * from "./sha3.js";
export * from "./sha3-addons.js";
export * from "./ascon.js";
/** Keccak-256 of each message, two at a time with WebAssembly SIMD128 where the engine has it. */
export declare function keccak_256_batch(messages: Uint8Array[]): Uint8Array[];
/** Whether keccak_256_batch runs two messages at a time. */
export declare const batchIsSimd: boolean;
/** The scalar kernel this engine runs: wasm-scalar-memory in V8 before 12, else wasm-scalar. */
export declare const scalarKernel: "wasm-scalar" | "wasm-scalar-memory";
