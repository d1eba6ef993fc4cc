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
import { moduleMemoryIsClean } from "../src/wasm.js";

const here = dirname(fileURLToPath(import.meta.url));
const kat = process.env.SPONGE_KAT_DIR ?? join(here, "..", "..", "tests", "kat");
const hex = (bytes) => Buffer.from(bytes).toString("hex");
// RFC 9861's test messages: ptn(n), the bytes 00 01 .. FA repeated.
const ptn = (n) => Uint8Array.from({ length: n }, (_, i) => i % 251);
const names = ["turboshake128", "turboshake256", "kt128", "kt256"];

test("every TurboSHAKE and KangarooTwelve function of noble is here, from the root too", () => {
  for (const name of names) {
    assert.equal(typeof ours[name], "function", name);
    assert.equal(root[name], ours[name], name);
    assert.equal(ours[name].outputLen, noble[name].outputLen, name);
    assert.equal(ours[name].blockLen, noble[name].blockLen, name);
    assert.equal(ours[name].canXOF, noble[name].canXOF, name);
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
    for (const length of [0, 1, 8191, 8192, 8193, 16384, 16385, 3 * 8192 + 100]) {
      const message = ptn(length);
      for (const opts of [undefined, { personalization: ptn(41) }, { dkLen: 100 }]) {
        const expected = hex(noble[name](message, opts));
        assert.equal(hex(ours[name](message, opts)), expected, `${name}, ${length} bytes, ${JSON.stringify(opts)}`);
        const h = ours[name].create(opts);
        for (let at = 0; at < length; at += 5000) h.update(message.subarray(at, at + 5000));
        assert.equal(hex(h.digest()), expected, `${name} streamed, ${length} bytes`);
      }
      assert.ok(moduleMemoryIsClean(), `${name}: the module's memory after ${length} bytes`);
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
  for (const name of names) {
    same(() => ours[name](ptn(1), { dkLen: 0 }), () => noble[name](ptn(1), { dkLen: 0 }), `${name} dkLen 0`);
    same(() => ours[name]("abc"), () => noble[name]("abc"), `${name} of a string`);
  }
  same(() => ours.kt128(ptn(1), { personalization: "x" }), () => noble.kt128(ptn(1), { personalization: "x" }), "a string personalization");
});
