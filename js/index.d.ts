export * from "./sha3.js";
