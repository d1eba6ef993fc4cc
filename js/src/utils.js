// What the hash modules share: noble's argument checks and the callable hashes' wrapper.
// The argument checks, with @noble/hashes 2.4's messages and error types (TypeError for a
// wrong type, RangeError for a wrong value), which its users' code may test for.
const atitle = (title) => (title ? `"${title}" ` : "");
export function isBytes(a) {
  return (
    a instanceof Uint8Array ||
    (ArrayBuffer.isView(a) && a.constructor.name === "Uint8Array" && "BYTES_PER_ELEMENT" in a && a.BYTES_PER_ELEMENT === 1)
  );
}
export function anumber(n, title = "") {
  if (typeof n !== "number") throw new TypeError(atitle(title) + "expected number, got " + typeof n);
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(atitle(title) + "expected integer >= 0, got " + n);
  return n;
}
export function abytes(value, title = "") {
  if (isBytes(value)) return value;
  throw new TypeError(atitle(title) + "expected Uint8Array, got type=" + typeof value);
}
export function aexists(instance, checkFinished = true) {
  if (instance.destroyed) throw new Error("hash was destroyed");
  if (checkFinished && instance.finished) throw new Error("digest() was already called");
}
export function aoutput(out, instance) {
  abytes(out, "output");
  if (!(out.length >= instance.outputLen)) throw new RangeError('"output" expected length >= ' + instance.outputLen);
}
// SHAKE's options: a plain object (its own keys only), as noble's checkOpts takes them.
export function checkOpts(opts, title = "opts") {
  if (opts === undefined) return Object.create(null);
  if (opts === null || typeof opts !== "object" || Array.isArray(opts)) {
    throw new TypeError(`"${title}" expected object, got type=` + typeof opts);
  }
  const proto = Object.getPrototypeOf(opts);
  if (proto !== Object.prototype && proto !== null) throw new TypeError(`"${title}" expected plain object`);
  if (Object.hasOwn(opts, "__proto__")) throw new TypeError(`"${title}.__proto__" is not allowed`);
  return Object.assign(Object.create(null), opts);
}

export function createHasher(hashCons, info = {}, { reuse = true, oneCall } = {}) {
  // A call without options reuses one instance (reset first; its digest wipes its state):
  // allocating a hasher's 200-byte state took more time than the permutation of a short
  // message. JavaScript runs one call at a time, so no two calls share it at once. A hasher
  // with more state than the sponge's (KangarooTwelve's leaves) is made afresh (`reuse`).
  let shared;
  // `oneCall(msg, opts)`, where given, hashes a whole message in one kernel call, or returns
  // undefined (then the hasher does).
  const hashC = (msg, opts) => {
    if (oneCall !== undefined) {
      const out = oneCall(msg, opts);
      if (out !== undefined) return out;
    }
    if (opts !== undefined || !reuse) return hashCons(opts).update(msg).digest();
    shared ||= hashCons(undefined);
    shared._reset();
    return shared.update(msg).digest();
  };
  const tmp = hashCons(undefined);
  hashC.outputLen = tmp.outputLen;
  hashC.blockLen = tmp.blockLen;
  hashC.canXOF = tmp.canXOF;
  hashC.create = (opts) => hashCons(opts);
  Object.assign(hashC, info);
  return Object.freeze(hashC);
}
export const oidNist = (suffix) => ({
  oid: Uint8Array.from([0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, suffix]),
});
