// A prototype, measured against the generated wasm-scalar kernel: Keccak-f[1600]'s absorb136
// block loop with the state in linear memory instead of locals, ping-pong between the state
// and a 200-byte scratch after it (as amd64-bmi2 alternates with its stack scratch), theta's
// column sums for the next round gathered from chi's outputs as they are stored, lane
// complementing as in the kernel. Not a kernel: the generator has no scratch parameter for
// it yet, and nothing proves it; the script checks it against the kernel on three blocks and
// times both on 1 MiB in Node.
//   node bench/wasm/memory_round.mjs   (wat2wasm on PATH)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const rho = new Array(25).fill(0);
{ let x = 1, y = 0; for (let t = 0; t < 24; ++t) { rho[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64; [x, y] = [y, (2 * x + 3 * y) % 5]; } }
// chi_rows[y][x]: source lane of B[x,y] = (x + 3y) % 5 + 5x
const src = (x, y) => ((x + 3 * y) % 5) + 5 * x;
const rc = []; { let r = 1; for (let i = 0; i < 24; i++) { let c = 0n; for (let j = 0; j < 7; j++) { if (r & 1) c |= 1n << BigInt((1 << j) - 1); r = r & 0x80 ? ((r << 1) ^ 0x71) & 0xff : r << 1; } rc.push(c); } }
const comp = [1, 2, 8, 12, 17, 20];
const rows = [
  [2, [[0, -1], [0, 1], [1, -1], [0, -1], [1, -1]]],
  [4, [[0, -1], [1, -1], [0, 2], [0, -1], [1, -1]]],
  [3, [[0, -1], [1, -1], [1, 1], [0, 0], [1, -1]]],
  [3, [[1, -1], [0, -1], [0, 1], [1, 0], [0, -1]]],
  [1, [[1, 1], [0, 0], [1, -1], [0, -1], [1, -1]]],
];
let o = [];
const L = (s) => o.push(s);
// locals: $c0-4 $d0-4 $b0-4 $t $n (i64), $from $to $k (i32)
function round(fromBase, toBase, r, first) {
  // theta: D from C (C in $c for this round)
  for (let x = 0; x < 5; x++) L(`(local.set $d${x} (i64.xor (local.get $c${(x + 4) % 5}) (i64.rotl (local.get $c${(x + 1) % 5}) (i64.const 1))))`);
  for (let x = 0; x < 5; x++) L(`(local.set $c${x} (i64.const 0))`);
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      const l = src(x, y);
      const v = `(i64.xor (i64.load offset=${8 * l} (local.get ${fromBase})) (local.get $d${l % 5}))`;
      L(`(local.set $b${x} ${rho[l] ? `(i64.rotl ${v} (i64.const ${rho[l]}))` : v})`);
    }
    const [cb, terms] = rows[y];
    L(`(local.set $n (i64.xor (local.get $b${cb}) (i64.const -1)))`);
    for (let x = 0; x < 5; x++) {
      const [and, c] = terms[x];
      const inp = (k) => (c === k ? `(local.get $n)` : `(local.get $b${(x + k) % 5})`);
      let e = `(i64.xor ${inp(0)} (${and ? "i64.and" : "i64.or"} ${inp(1)} ${inp(2)}))`;
      if (x === 0 && y === 0) e = `(i64.xor ${e} (i64.load offset=${8 * r} (local.get $k)))`;
      L(`(local.set $t ${e})`);
      L(`(i64.store offset=${8 * (x + 5 * y)} (local.get ${toBase}) (local.get $t))`);
      L(`(local.set $c${x} (i64.xor (local.get $c${x}) (local.get $t)))`);
    }
  }
}
L(`(module (import "env" "memory" (memory 1))`);
L(`(data (i32.const 0) "${rc.map((c) => { let s = ""; for (let i = 0; i < 8; i++) s += "\\" + Number((c >> BigInt(8 * i)) & 0xffn).toString(16).padStart(2, "0"); return s; }).join("")}")`);
L(`(func (export "absorb136_blocks") (param $s i32) (param $blk i32) (param $n i32)`);
L(`(local $c0 i64) (local $c1 i64) (local $c2 i64) (local $c3 i64) (local $c4 i64) (local $d0 i64) (local $d1 i64) (local $d2 i64) (local $d3 i64) (local $d4 i64) (local $b0 i64) (local $b1 i64) (local $b2 i64) (local $b3 i64) (local $b4 i64) (local $t i64) (local $n2 i64) (local $k i32) (local $turns i32) (local $scr i32) (local $nn i64)`);
o[o.length - 1] = o[o.length - 1].replace("(local $n2 i64)", "(local $n i64)").replace("(param $n i32)", "(param $cnt i32)");
o[o.length - 2] = o[o.length - 2].replace("(param $n i32)", "(param $cnt i32)");
L(`(local.set $scr (i32.add (local.get $s) (i32.const 200)))`);
for (const l of comp) L(`(i64.store offset=${8 * l} (local.get $s) (i64.xor (i64.load offset=${8 * l} (local.get $s)) (i64.const -1)))`);
L(`(block $done (br_if $done (i32.eqz (local.get $cnt))) (loop $next`);
for (let l = 0; l < 17; l++) L(`(i64.store offset=${8 * l} (local.get $s) (i64.xor (i64.load offset=${8 * l} (local.get $s)) (i64.load offset=${8 * l} (local.get $blk))))`);
for (let x = 0; x < 5; x++) L(`(local.set $c${x} (i64.xor (i64.xor (i64.xor (i64.load offset=${8 * x} (local.get $s)) (i64.load offset=${8 * (x + 5)} (local.get $s))) (i64.xor (i64.load offset=${8 * (x + 10)} (local.get $s)) (i64.load offset=${8 * (x + 15)} (local.get $s)))) (i64.load offset=${8 * (x + 20)} (local.get $s))))`);
L(`(local.set $k (i32.const 0)) (local.set $turns (i32.const 12)) (loop $turn`);
round("$s", "$scr", 0);
round("$scr", "$s", 1);
L(`(local.set $k (i32.add (local.get $k) (i32.const 16))) (local.set $turns (i32.sub (local.get $turns) (i32.const 1))) (br_if $turn (local.get $turns)))`);
L(`(local.set $blk (i32.add (local.get $blk) (i32.const 136))) (local.set $cnt (i32.sub (local.get $cnt) (i32.const 1))) (br_if $next (local.get $cnt))))`);
for (const l of comp) L(`(i64.store offset=${8 * l} (local.get $s) (i64.xor (i64.load offset=${8 * l} (local.get $s)) (i64.const -1)))`);
for (let l = 0; l < 25; l++) L(`(i64.store offset=${8 * l} (local.get $scr) (i64.const 0))`);
L(`))`);
const wat = o.join("\n");

const work = mkdtempSync(join(tmpdir(), "memory-round-"));
writeFileSync(join(work, "prototype.wat"), wat);
execFileSync("wat2wasm", [join(work, "prototype.wat"), "-o", join(work, "prototype.wasm")]);
const here = dirname(fileURLToPath(import.meta.url));
const load = async (f) => { const memory = new WebAssembly.Memory({ initial: 32 }); const { instance } = await WebAssembly.instantiate(readFileSync(f), { env: { memory } }); return { e: instance.exports, heap: new Uint8Array(memory.buffer) }; };
const p = await load(join(work, "prototype.wasm")), g = await load(join(here, "..", "..", "generated", "keccakf1600_wasm_scalar.wasm"));
const blocks = 7710;
for (const m of [p, g]) for (let i = 0; i < 136 * blocks; i++) m.heap[8192 + i] = (i * 7) & 0xff;
p.e.absorb136_blocks(1024, 8192, 3); g.e.sponge_keccakf1600_wasm_scalar_absorb136_blocks(1024, 8192, 3);
if (!Buffer.from(p.heap.subarray(1024, 1224)).equals(Buffer.from(g.heap.subarray(1024, 1224)))) throw new Error("the prototype disagrees with the kernel");
const med = (v) => v.sort((a, b) => a - b)[v.length >> 1];
const a = [], b = [];
for (let r = 0; r < 15; r++) {
  let t = process.hrtime.bigint(); p.e.absorb136_blocks(1024, 8192, blocks); a.push(Number(process.hrtime.bigint() - t) / blocks);
  t = process.hrtime.bigint(); g.e.sponge_keccakf1600_wasm_scalar_absorb136_blocks(1024, 8192, blocks); b.push(Number(process.hrtime.bigint() - t) / blocks);
}
console.log(`memory-based ${med(a).toFixed(0)} ns a block, generated (locals) ${med(b).toFixed(0)} ns a block`);
