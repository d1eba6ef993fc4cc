#!/usr/bin/env bash
# Times the Go package (go/keccak) against fastkeccak and x/crypto in one run
# (bench/go/keccakbench), and the longest stop-the-world pause while hashing.
#   bench/go.sh FASTKECCAK_DIR [keccakbench flags]
# FASTKECCAK_DIR is a checkout of github.com/erigontech/fastkeccak, fetched and built by hand
# (Go 1.19 needs its two slice-to-array conversions written as *(*[32]byte)(s), see
# bench/results/go.md). Everything Go writes stays under SPONGE_GO_BENCH_DIR (default
# build-go-bench/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fastkeccak=$(cd "$1" && pwd)
shift
work=${SPONGE_GO_BENCH_DIR:-$root/build-go-bench}
mkdir -p "$work"
work=$(cd "$work" && pwd)
src=$work/gopath/src
rm -rf "$src"
mkdir -p "$src/spongegen.dev" "$src/github.com/erigontech" "$work/cache"
cp -r "$root/go/keccak" "$src/spongegen.dev/keccak"
cp -r "$root/bench/go/keccakbench" "$src/keccakbench"
ln -s "$fastkeccak" "$src/github.com/erigontech/fastkeccak"
export GO111MODULE=off GOPATH="$work/gopath:${SPONGE_GOCODE_DIR:-/usr/share/gocode}" \
  GOCACHE="$work/cache" GOPROXY=off
(cd "$work" && go build -o "$work/keccakbench" keccakbench)
grep -m1 'model name' /proc/cpuinfo || true
echo "fastkeccak $(git -C "$fastkeccak" log -1 --format=%h 2>/dev/null || echo '(not a git checkout)')," \
  "spongegen $(git -C "$root" log -1 --format=%h)"
"$work/keccakbench" "$@"
