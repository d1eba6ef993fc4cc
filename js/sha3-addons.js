export * from "./src/sha3-addons.js";
