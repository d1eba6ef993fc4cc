// The Node bench's cases (bench/cases.mjs) in a browser page, js-sha3 (a CommonJS module)
// left out: this package against @noble/hashes and hash-wasm. The page leaves its lines in
// window.bench for bench/browser/run.mjs.
import { keccak_256 as noble } from "@noble/hashes/sha3.js";
import { kt128 as nobleKt128 } from "@noble/hashes/sha3-addons.js";
import { createKeccak } from "hash-wasm";
import { keccak_256 as ours, keccak_256_batch, kt128, scalarKernel } from "/pkg/index.js";
import { batchCase, header, keccakCases, kt128Case } from "/pkg/bench/cases.mjs";

const lines = [];
try {
  const hashWasm = await createKeccak(256);
  const peers = {
    "@spongegen/hashes": (m) => ours(m),
    "@noble/hashes": (m) => noble(m),
    "hash-wasm": (m) => {
      hashWasm.init();
      hashWasm.update(m);
      return hashWasm.digest("binary");
    },
  };
  const now = () => performance.now() * 1e6;
  lines.push(`${scalarKernel}; ${header}`);
  lines.push(...keccakCases(peers, now), ...batchCase(ours, keccak_256_batch, now), ...kt128Case(kt128, nobleKt128, now));
} catch (error) {
  lines.push(`threw: ${error.stack ?? error}`);
}
window.bench = lines;
