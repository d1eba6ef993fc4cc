#!/usr/bin/env bash
# Models, with llvm-mca (LLVM 14), what a Keccak-f[1600] round costs on arm64 cores without
# the SHA3 extension for Go programs: the package's portable permutation (keccakF1600Generic,
# compiled by this machine's Go for GOARCH=arm64) against x/crypto's (Debian's
# golang-golang-x-crypto-dev, what fastkeccak falls back to there) and the generated
# arm64-scalar kernel (`spongegen audit --mca`, which Go cannot take: see docs/go.md).
# Modelled cycles, not measured; LLVM 14 gives every Arm core model the same figures.
#   bench/mca/go_arm64_portable.sh [CPU]       (default cortex-a72)
# Everything Go writes stays under SPONGE_MCA_WORK (default build-mca/).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cpu=${1:-cortex-a72}
work=${SPONGE_MCA_WORK:-$root/build-mca}
mkdir -p "$work"
work=$(cd "$work" && pwd)
rm -rf "$work/gopath/src"
mkdir -p "$work/gopath/src/spongegen.dev" "$work/gopath/src/xcryptoarm64" "$work/cache"
cp -r "$root/go/keccak" "$work/gopath/src/spongegen.dev/keccak"
cat > "$work/gopath/src/xcryptoarm64/main.go" <<'GO'
// Command xcryptoarm64 links x/crypto's legacy Keccak-256, so that its permutation can be
// disassembled.
package main

import "golang.org/x/crypto/sha3"

func main() {
	h := sha3.NewLegacyKeccak256()
	h.Write(make([]byte, 1000))
	println(h.Sum(nil)[0])
}
GO
export GO111MODULE=off GOPATH="$work/gopath:${SPONGE_GOCODE_DIR:-/usr/share/gocode}" \
  GOCACHE="$work/cache" GOPROXY=off GOARCH=arm64
go test -c -o "$work/keccak_arm64.test" spongegen.dev/keccak
go build -o "$work/xcrypto_arm64" xcryptoarm64
# The body of the function's loop (from the target of its one backward conditional branch to
# that branch), branches left out, and how many rounds it holds.
loop() {
  llvm-objdump-14 -d --no-show-raw-insn --disassemble-symbols="$2" "$1" | python3 -c '
import re, sys
code = []
for line in sys.stdin:
    m = re.match(r"\s*([0-9a-f]+):\s+(\S.*)", line)
    if m:
        text = re.sub(r"\s*<[^>]*>", "", m.group(2).split("//")[0]).strip()
        code.append((int(m.group(1), 16), text))
for address, text in code:
    m = re.match(r"b\.\w+\s+0x([0-9a-f]+)", text)
    if m and int(m.group(1), 16) < address:
        start, end = int(m.group(1), 16), address
print("\n".join(t for a, t in code if start <= a < end and not re.match(r"b(\.\w+)?\s", t)))'
}
model() {  # FILE ROUNDS NAME
  cycles=$(llvm-mca-14 -mtriple=aarch64 -mcpu="$cpu" -iterations=200 "$1" | awk '/Total Cycles/ {print $3}')
  printf '  %-42s %6.1f cycles a round, %5.1f instructions a round\n' "$3" \
    "$(echo "$cycles / 200 / $2" | bc -l)" "$(echo "$(wc -l < "$1") / $2" | bc -l)"
}
loop "$work/keccak_arm64.test" spongegen.dev/keccak.keccakF1600Generic > "$work/portable.s"
loop "$work/xcrypto_arm64" golang.org/x/crypto/sha3.keccakF1600 > "$work/xcrypto.s"
echo "llvm-mca-14 -mcpu=$cpu (modelled); $(go version)"
model "$work/portable.s" 2 "go/keccak keccakF1600Generic (portable Go)"
model "$work/xcrypto.s" 4 "x/crypto keccakF1600 (portable Go)"
"$root/build/generator/spongegen" audit --mca "$cpu" --kernel arm64-scalar |
  awk -v cpu="$cpu" '$1 == cpu {printf "  %-42s %6.1f cycles a round\n", "arm64-scalar (generated, System V file only)", $2}'
