// TurboSHAKE and KangarooTwelve against @noble/hashes' sha3-addons.js: lengths around the
// rates and around KangarooTwelve's 8 KiB chunks, split across updates, with personalization,
// domain bytes and output lengths; RFC 9861's known answers; noble's errors for misuse.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import * as noble from "@noble/hashes/sha3-addons.js";
import * as ours from "../sha3-addons.js";
import * as root from "../index.js";
import { batchMemoryIsClean } from "../src/batch.js";
import { moduleMemoryIsClean } from "../src/wasm.js";

const here = dirname(fileURLToPath(import.meta.url));
const kat = process.env.SPONGE_KAT_DIR ?? join(here, "..", "..", "tests", "kat");
const hex = (bytes) => Buffer.from(bytes).toString("hex");
// RFC 9861's test messages: ptn(n), the bytes 00 01 .. FA repeated.
const ptn = (n) => Uint8Array.from({ length: n }, (_, i) => i % 251);
const names = ["turboshake128", "turboshake256", "kt128", "kt256", "cshake128", "cshake256", "kmac128", "kmac256", "kmac128xof", "kmac256xof", "tuplehash128", "tuplehash256", "tuplehash128xof", "tuplehash256xof", "parallelhash128", "parallelhash256", "parallelhash128xof", "parallelhash256xof"];

test("every TurboSHAKE and KangarooTwelve function of noble is here, from the root too", () => {
  for (const name of names) {
    assert.equal(typeof ours[name], "function", name);
    assert.equal(root[name], ours[name], name);
    assert.equal(ours[name].outputLen, noble[name].outputLen, name);
    assert.equal(ours[name].blockLen, noble[name].blockLen, name);
    assert.equal(ours[name].canXOF, noble[name].canXOF, name);
  }
});

test("cSHAKE, KMAC, TupleHash and ParallelHash agree with noble around their rates", () => {
  for (const bitsName of ["128", "256"]) {
    const rate = ours[`cshake${bitsName}`].blockLen;
    for (const length of [0, 1, rate - 1, rate, rate + 1, 2 * rate + 3, 3000]) {
      const message = ptn(length);
      const check = (name, f, what) => assert.equal(hex(f(ours[name])), hex(f(noble[name])), `${name}, ${length} bytes, ${what}`);
      for (const opts of [undefined, {}, { personalization: ptn(3) }, { NISTfn: "Email Signature", personalization: ptn(rate) }, { dkLen: rate + 2 }]) {
        check(`cshake${bitsName}`, (h) => h(message, opts), JSON.stringify(opts));
      }
      for (const key of [ptn(0), ptn(32), ptn(rate + 1)]) {
        for (const suffix of ["", "xof"]) {
          check(`kmac${bitsName}${suffix}`, (h) => h(key, message, { personalization: ptn(5) }), `key ${key.length}`);
          check(`kmac${bitsName}${suffix}`, (h) => h(key, message, { dkLen: 50 }), `key ${key.length}, dkLen 50`);
        }
      }
      for (const suffix of ["", "xof"]) {
        check(`tuplehash${bitsName}${suffix}`, (h) => h([message, ptn(3), ptn(0)], { personalization: ptn(7) }), "three elements");
        check(`tuplehash${bitsName}${suffix}`, (h) => h([]), "no element");
        for (const blockLen of [1, 8, rate, 1000]) {
          check(`parallelhash${bitsName}${suffix}`, (h) => h(message, { blockLen, personalization: ptn(2) }), `blockLen ${blockLen}`);
        }
        check(`parallelhash${bitsName}${suffix}`, (h) => h(message), "defaults");
      }
      // Streamed: updates of 5 bytes never hold two whole leaves of 8; of 20, some do (and go
      // through the SIMD kernel together).
      for (const step of [5, 20]) {
        const h = ours[`parallelhash${bitsName}`].create({ blockLen: 8 });
        for (let at = 0; at < length; at += step) h.update(message.subarray(at, at + step));
        assert.equal(hex(h.digest()), hex(noble[`parallelhash${bitsName}`](message, { blockLen: 8 })), `parallelhash${bitsName} streamed ${step} at a time, ${length} bytes`);
      }
      assert.ok(batchMemoryIsClean(), `the SIMD module's memory after ${length} bytes`);
      // Streaming and clone.
      const a = ours[`kmac${bitsName}`].create(ptn(16)).update(message.subarray(0, length >> 1));
      const b = a.clone();
      a.update(message.subarray(length >> 1));
      b.update(message.subarray(length >> 1));
      assert.equal(hex(a.digest()), hex(b.digest()), `kmac${bitsName} clone, ${length} bytes`);
    }
  }
});

test("TurboSHAKE agrees with noble around its rate, for every D tried and output lengths", () => {
  for (const name of ["turboshake128", "turboshake256"]) {
    const rate = ours[name].blockLen;
    for (const length of [0, 1, rate - 1, rate, rate + 1, 2 * rate + 3, 3000]) {
      const message = ptn(length);
      assert.equal(hex(ours[name](message)), hex(noble[name](message)), `${name}, ${length} bytes`);
      for (const opts of [{ D: 0x01 }, { D: 0x06 }, { D: 0x7f, dkLen: rate + 1 }, { dkLen: 1 }]) {
        assert.equal(hex(ours[name](message, opts)), hex(noble[name](message, opts)), `${name}, ${length} bytes, ${JSON.stringify(opts)}`);
      }
    }
  }
});

test("KangarooTwelve agrees with noble around its chunks, streamed and with personalization", () => {
  for (const name of ["kt128", "kt256"]) {
    // Three chunks and more: two whole leaves in one update go through the SIMD kernel
    // together; the updates of 20,000 bytes hold two leaves or not depending on where they
    // begin.
    for (const length of [0, 1, 8191, 8192, 8193, 16384, 16385, 3 * 8192, 3 * 8192 + 100, 5 * 8192 + 1, 6 * 8192 - 1]) {
      const message = ptn(length);
      for (const opts of [undefined, { personalization: ptn(41) }, { dkLen: 100 }]) {
        const expected = hex(noble[name](message, opts));
        assert.equal(hex(ours[name](message, opts)), expected, `${name}, ${length} bytes, ${JSON.stringify(opts)}`);
        for (const step of [5000, 20000]) {
          const h = ours[name].create(opts);
          for (let at = 0; at < length; at += step) h.update(message.subarray(at, at + step));
          assert.equal(hex(h.digest()), expected, `${name} streamed ${step} at a time, ${length} bytes`);
        }
      }
      assert.ok(moduleMemoryIsClean(), `${name}: the module's memory after ${length} bytes`);
      assert.ok(batchMemoryIsClean(), `${name}: the SIMD module's memory after ${length} bytes`);
    }
  }
});

// tests/kat/rfc9861: every vector of the RFC (Message, Customization or Domain, L, Output of
// bytes OutputOffset .. L-1).
function rfcVectors(file) {
  const text = readFileSync(join(kat, "rfc9861", file), "utf8");
  const message = (field) => {
    if (field === "empty") return new Uint8Array(0);
    const [kind, a, b] = field.split(" ");
    if (kind === "ptn") return ptn(Number(a));
    if (kind === "repeat") return new Uint8Array(Number(b)).fill(parseInt(a, 16));
    throw new Error(`${file}: a message '${field}'`);
  };
  return text
    .split(/\n\s*\n/)
    .map((block) => Object.fromEntries([...block.matchAll(/^(\w+) = (.*)$/gm)].map((m) => [m[1], m[2]])))
    .filter((v) => v.Output !== undefined)
    .map((v) => ({
      message: message(v.Message),
      customization: v.Customization === undefined ? undefined : message(v.Customization),
      domain: v.Domain === undefined ? undefined : parseInt(v.Domain, 16),
      length: Number(v.OutputLength),
      offset: Number(v.OutputOffset),
      output: v.Output,
    }));
}

test("RFC 9861's known answers (tests/kat/rfc9861)", () => {
  for (const [file, name] of [["turboshake128.txt", "turboshake128"], ["turboshake256.txt", "turboshake256"], ["kt128.txt", "kt128"], ["kt256.txt", "kt256"]]) {
    const vectors = rfcVectors(file);
    assert.ok(vectors.length >= 15, `${file}: ${vectors.length} vectors read`);
    for (const v of vectors) {
      const opts = name.startsWith("kt")
        ? { dkLen: v.length, personalization: v.customization?.length ? v.customization : undefined }
        : { dkLen: v.length, D: v.domain };
      const out = ours[name](v.message, opts);
      assert.equal(hex(out.subarray(v.offset)), v.output, `${name}, ${v.message.length} bytes, L ${v.length}`);
    }
  }
});

// tests/kat/sp800-185: NIST's examples of cSHAKE, KMAC, KMACXOF, TupleHash and ParallelHash.
test("SP 800-185's examples (tests/kat/sp800-185)", () => {
  const bytes = (field) => Uint8Array.from(Buffer.from(field ?? "", "hex"));
  let count = 0;
  for (const file of ["cshake.txt", "kmac.txt", "kmacxof.txt", "tuplehash.txt", "tuplehashxof.txt", "parallelhash.txt", "parallelhashxof.txt"]) {
    const text = readFileSync(join(kat, "sp800-185", file), "utf8");
    for (const block of text.split(/\n\s*\n/)) {
      const fields = [...block.matchAll(/^(\w+) =[ ]?(.*)$/gm)];
      const v = Object.fromEntries(fields.map((m) => [m[1], m[2]]));
      if (v.Output === undefined) continue;
      const elements = fields.filter((m) => m[1] === "Element").map((m) => bytes(m[2]));
      const dkLen = Number(v.OutputBits) / 8;
      const personalization = bytes(v.Customization);
      const name = v.Function.toLowerCase().replace(/xof(\d+)$/, "$1xof"); // KMACXOF128: kmac128xof
      let out;
      if (name.startsWith("cshake")) {
        out = ours[name](bytes(v.Data), { dkLen, personalization, NISTfn: bytes(v.FunctionName) });
      } else if (name.startsWith("kmac")) {
        out = ours[name](bytes(v.Key), bytes(v.Data), { dkLen, personalization });
      } else if (name.startsWith("tuplehash")) {
        out = ours[name](elements, { dkLen, personalization });
      } else {
        out = ours[name](bytes(v.Data), { dkLen, personalization, blockLen: Number(v.BlockSize) });
      }
      assert.equal(hex(out), v.Output, `${file}: ${v.Function}`);
      ++count;
    }
  }
  assert.ok(count >= 20, `${count} examples read`);
});

test("misuse raises noble's errors", () => {
  const same = (f, g, what) => {
    let expected;
    try {
      g();
    } catch (error) {
      expected = { name: error.name, message: error.message };
    }
    assert.ok(expected, `noble accepts ${what}`);
    assert.throws(f, expected, what);
  };
  for (const D of [0, 0x80, 1.5, "6"]) {
    same(() => ours.turboshake128(ptn(1), { D }), () => noble.turboshake128(ptn(1), { D }), `D ${D}`);
  }
  for (const name of ["turboshake128", "turboshake256", "kt128", "kt256"]) {
    same(() => ours[name](ptn(1), { dkLen: 0 }), () => noble[name](ptn(1), { dkLen: 0 }), `${name} dkLen 0`);
    same(() => ours[name]("abc"), () => noble[name]("abc"), `${name} of a string`);
  }
  // SP 800-185's functions take an empty output as noble does.
  assert.equal(hex(ours.cshake128(ptn(1), { dkLen: 0 })), hex(noble.cshake128(ptn(1), { dkLen: 0 })));
  same(() => ours.cshake128("abc"), () => noble.cshake128("abc"), "cshake128 of a string");
  same(() => ours.kt128(ptn(1), { personalization: "x" }), () => noble.kt128(ptn(1), { personalization: "x" }), "a string personalization");
  same(() => ours.kmac256("key", ptn(1)), () => noble.kmac256("key", ptn(1)), "a string key");
  same(() => ours.tuplehash256(ptn(3)), () => noble.tuplehash256(ptn(3)), "a tuple that is no array");
  same(() => ours.tuplehash256([ptn(1), "x"]), () => noble.tuplehash256([ptn(1), "x"]), "an element that is no bytes");
  for (const blockLen of [0, -1, 1.5]) {
    same(() => ours.parallelhash128(ptn(9), { blockLen }), () => noble.parallelhash128(ptn(9), { blockLen }), `ParallelHash blockLen ${blockLen}`);
  }
  same(() => ours.cshake128(ptn(1), { personalization: "x" }), () => noble.cshake128(ptn(1), { personalization: "x" }), "cSHAKE string customization");
});
