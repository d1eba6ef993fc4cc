// The package against @noble/hashes (the API it mirrors) and the known answers of tests/kat:
// every function both have, at every length around each rate and split across updates at
// every place around a block's end; SHAKE at output lengths around its rate; noble's errors
// for misuse; and the kernel's memory left clean after every call.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import * as noble from "@noble/hashes/sha3.js";
import * as ours from "../sha3.js";
import * as root from "../index.js";
import { hashInOneCall, moduleMemoryIsClean, scalarKernel } from "../src/wasm.js";

const here = dirname(fileURLToPath(import.meta.url));
const kat = process.env.SPONGE_KAT_DIR ?? join(here, "..", "..", "tests", "kat");
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const bytesOf = (text) => Uint8Array.from(Buffer.from(text, "hex"));

const names = ["sha3_224", "sha3_256", "sha3_384", "sha3_512", "keccak_224", "keccak_256", "keccak_384", "keccak_512", "shake128", "shake256", "shake128_32", "shake256_64"];

let seed = 0x2545f4914f6cdd1dn;
function randomBytes(length) {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; ++i) {
    seed ^= seed << 13n;
    seed ^= seed >> 7n;
    seed ^= seed << 17n;
    seed &= (1n << 64n) - 1n;
    out[i] = Number(seed & 0xffn);
  }
  return out;
}
// The lengths that matter to a sponge of rate r: around 0, r, 2r and 3r, and a large one.
const lengthsAround = (rate) => [...new Set([0, 1, 7, 8, 9, rate - 1, rate, rate + 1, 2 * rate - 1, 2 * rate, 2 * rate + 1, 3 * rate + 5, 5000])];

test("every function of noble's sha3.js is here, from the root too, with its figures", () => {
  for (const name of names) {
    assert.equal(typeof ours[name], "function", name);
    assert.equal(root[name], ours[name], name);
    assert.equal(ours[name].outputLen, noble[name].outputLen, name);
    assert.equal(ours[name].blockLen, noble[name].blockLen, name);
    assert.deepEqual(ours[name].oid, noble[name].oid, name);
    assert.equal(ours[name].canXOF, noble[name].canXOF, name);
  }
});

test("one call and streaming agree with noble at every length around each rate", () => {
  for (const name of names) {
    const rate = ours[name].blockLen;
    for (const length of lengthsAround(rate)) {
      const message = randomBytes(length);
      const expected = hex(noble[name](message));
      assert.equal(hex(ours[name](message)), expected, `${name}, ${length} bytes`);
      // Split at each place around the first block's end, in two updates and in three.
      for (const cut of [1, rate - 1, rate, rate + 1]) {
        if (cut > length) continue;
        const h = ours[name].create().update(message.subarray(0, cut));
        const third = Math.min(length, cut + rate + 3);
        h.update(message.subarray(cut, third)).update(message.subarray(third));
        assert.equal(hex(h.digest()), expected, `${name}, ${length} bytes cut at ${cut} and ${third}`);
      }
      assert.ok(moduleMemoryIsClean(), `${name}: the module's memory after ${length} bytes`);
    }
  }
});

test("Node 20's V8 (11.3) runs wasm-scalar-memory, so these tests reach it", () => {
  // Chromium's newer V8 runs wasm-scalar (test/browser/run.mjs requires it there).
  if (Number(process.versions.v8.split(".")[0]) < 12) assert.equal(scalarKernel, "wasm-scalar-memory");
  assert.equal(root.scalarKernel, scalarKernel);
});

test("one kernel call with more output than a block permutes for each further block", () => {
  // No function of the package asks this of hashInOneCall today (SHAKE with a dkLen goes
  // through a hasher), so it is asked here: SHAKE128's padding, 2.5 blocks of output.
  for (const length of [0, 100, 167, 168, 400]) {
    const message = randomBytes(length);
    assert.equal(hex(hashInOneCall(168, 0x1f, 24, message, 420)), hex(noble.shake128(message, { dkLen: 420 })), `${length} bytes`);
    assert.ok(moduleMemoryIsClean());
  }
});

test("inputs longer than the module's memory go in chunks, and the memory is left clean", () => {
  // 124 KiB of blocks a call: 300,000 bytes is three chunks, the last one shorter.
  for (const name of ["keccak_256", "sha3_512", "shake128"]) {
    const message = randomBytes(300000);
    const expected = hex(noble[name](message));
    assert.equal(hex(ours[name](message)), expected, name);
    assert.equal(hex(ours[name].create().update(message.subarray(0, 5)).update(message.subarray(5)).digest()), expected, `${name} streamed`);
    assert.ok(moduleMemoryIsClean(), `${name}: the module's memory after 300,000 bytes`);
  }
});

test("SHAKE at output lengths around its rate, and its XOF reader, agree with noble", () => {
  for (const name of ["shake128", "shake256"]) {
    const rate = ours[name].blockLen;
    const message = randomBytes(rate + 3);
    for (const dkLen of [0, 1, 32, rate - 1, rate, rate + 1, 3 * rate + 7]) {
      assert.equal(hex(ours[name](message, { dkLen })), hex(noble[name](message, { dkLen })), `${name}, dkLen ${dkLen}`);
    }
    const a = ours[name].create().update(message);
    const b = noble[name].create().update(message);
    for (const take of [1, rate - 2, rate, 5]) assert.equal(hex(a.xof(take)), hex(b.xof(take)), `${name} xof(${take})`);
  }
});

test("clone and digestInto behave as noble's", () => {
  const message = randomBytes(300);
  const h = ours.keccak_256.create().update(message.subarray(0, 150));
  const copy = h.clone();
  h.update(message.subarray(150));
  copy.update(message.subarray(150));
  assert.equal(hex(h.digest()), hex(copy.digest()));
  const out = new Uint8Array(40);
  ours.sha3_256.create().update(message).digestInto(out);
  assert.equal(hex(out.subarray(0, 32)), hex(noble.sha3_256(message)));
});

// The known answers: FIPS 202's CAVP vectors and the Keccak team's (Keccak-256 as Ethereum uses
// it), byte-aligned ones.
function vectors(file, count) {
  const text = readFileSync(file, "utf8");
  const found = [];
  const pattern = /Len = (\d+)\s+Msg = ([0-9a-fA-F]*)\s+(?:MD|Output) = ([0-9a-fA-F]+)/g;
  for (let m; (m = pattern.exec(text)) && found.length < count; ) {
    const bits = Number(m[1]);
    if (bits % 8 !== 0) continue;
    found.push({ message: bytesOf(m[2]).subarray(0, bits / 8), digest: m[3].toLowerCase() });
  }
  assert.ok(found.length > 0, `no vectors read from ${file}`);
  return found;
}

test("the known answers of tests/kat", () => {
  const cases = [
    ["sha3_224", "fips202-cavp/SHA3_224ShortMsg.rsp"],
    ["sha3_256", "fips202-cavp/SHA3_256ShortMsg.rsp"],
    ["sha3_384", "fips202-cavp/SHA3_384ShortMsg.rsp"],
    ["sha3_512", "fips202-cavp/SHA3_512ShortMsg.rsp"],
    ["sha3_256", "fips202-cavp/SHA3_256LongMsg.rsp"],
    ["keccak_256", "keccak-legacy/ShortMsgKAT_256.txt"],
    ["keccak_256", "keccak-legacy/LongMsgKAT_256.txt"],
    ["keccak_224", "keccak-legacy/ShortMsgKAT_224.txt"],
  ];
  for (const [name, file] of cases) {
    for (const { message, digest } of vectors(join(kat, file), 40)) {
      assert.equal(hex(ours[name](message)), digest, `${name}, ${file}, ${message.length} bytes`);
    }
  }
});

test("misuse raises noble's errors", () => {
  const same = (f, g, what) => {
    let expected, expectedName;
    try {
      g();
    } catch (error) {
      expected = error.message;
      expectedName = error.name;
    }
    assert.ok(expected, `noble accepts ${what}`);
    assert.throws(f, { name: expectedName, message: expected }, what);
  };
  for (const input of ["abc", 42, null, [1, 2], new Uint16Array(2)]) {
    same(() => ours.keccak_256(input), () => noble.keccak_256(input), `keccak_256(${typeof input})`);
  }
  for (const opts of [null, [], "32", new Map()]) {
    same(() => ours.shake128(new Uint8Array(1), opts), () => noble.shake128(new Uint8Array(1), opts), `opts ${String(opts)}`);
  }
  for (const dkLen of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, NaN, "32"]) {
    same(() => ours.shake256(new Uint8Array(1), { dkLen }), () => noble.shake256(new Uint8Array(1), { dkLen }), `dkLen ${dkLen}`);
  }
  const used = (lib) => {
    const h = lib.sha3_256.create();
    h.digest();
    return h;
  };
  same(() => used(ours).update(new Uint8Array(1)), () => used(noble).update(new Uint8Array(1)), "update after digest");
  same(() => used(ours).digest(), () => used(noble).digest(), "digest after digest");
  same(() => ours.sha3_256.create().xof(4), () => noble.sha3_256.create().xof(4), "xof of a hash");
  same(
    () => ours.sha3_256.create().digestInto(new Uint8Array(31)),
    () => noble.sha3_256.create().digestInto(new Uint8Array(31)),
    "digestInto a short output",
  );
});
