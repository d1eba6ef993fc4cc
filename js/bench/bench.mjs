// Keccak-256 in Node: this package against @noble/hashes, hash-wasm and js-sha3 (the
// devDependencies, at the lockfile's versions), in one run: 32 B, 1 KiB and 1 MiB messages;
// keccak_256_batch against one at a time; KT128 of 1 MiB against noble's (bench/cases.mjs,
// which the page of browser/ runs too). `npm run bench`.
import { keccak_256 as noble } from "@noble/hashes/sha3.js";
import { kt128 as nobleKt128 } from "@noble/hashes/sha3-addons.js";
import hashWasm from "hash-wasm";
import jsSha3 from "js-sha3";
import { keccak_256 as ours } from "../sha3.js";
import { keccak_256_batch, kt128, scalarKernel } from "../index.js";
import { batchCase, header, keccakCases, kt128Case } from "./cases.mjs";

const hashWasmKeccak = await hashWasm.createKeccak(256);
const peers = {
  "@spongegen/hashes": (m) => ours(m),
  "@noble/hashes": (m) => noble(m),
  "hash-wasm": (m) => {
    hashWasmKeccak.init();
    hashWasmKeccak.update(m);
    return hashWasmKeccak.digest("binary");
  },
  "js-sha3": (m) => jsSha3.keccak_256.array(m),
};
const now = () => Number(process.hrtime.bigint());
console.log(`Node ${process.version} (V8 ${process.versions.v8}, ${scalarKernel}); ${header}`);
for (const line of keccakCases(peers, now)) console.log(line);
for (const line of batchCase(ours, keccak_256_batch, now)) console.log(line);
for (const line of kt128Case(kt128, nobleKt128, now)) console.log(line);
