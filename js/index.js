export * from "./src/sha3.js";
