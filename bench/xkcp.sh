#!/usr/bin/env bash
# KangarooTwelve (KT128, KT256) and ParallelHash128 against XKCP in one run, one thread
# (bench/xkcp/tree_vs_xkcp.cpp): XKCP's AVX-512 build against our default batch kernel, and
# its AVX2 build against our amd64-avx2-x4 (SPONGE_BATCH_KERNEL); then the permutations alone,
# XKCP's times8 (times4) against amd64-avx512-x8 (amd64-avx2-x4) at 24 and 12 rounds.
#   bench/xkcp.sh XKCP_DIR [--kt128-only] [size ...]
# XKCP_DIR is a checkout of github.com/XKCP/XKCP built by hand: make AVX512/libXKCP.a
# AVX2/libXKCP.a (its flags and commit are in bench/results/tree-and-batch.md). Our library
# is built in SPONGE_XKCP_BENCH_DIR (default build-xkcp-bench/, Release, the library only);
# the programs run pinned to the last CPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
xkcp=$(cd "$1" && pwd)
shift
work=${SPONGE_XKCP_BENCH_DIR:-$root/build-xkcp-bench}
cmake -S "$root" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPONGE_BUILD_TESTS=OFF \
  -DSPONGE_BUILD_GENERATOR=OFF -DSPONGE_BUILD_TOOLS=OFF >/dev/null
cmake --build "$work" >/dev/null
cpu=$(($(nproc) - 1))
grep -m1 'model name' /proc/cpuinfo || true
echo "XKCP $(git -C "$xkcp" log -1 --format=%h 2>/dev/null || echo '(not a git checkout)')," \
  "spongegen $(git -C "$root" log -1 --format=%h)"
for target in AVX512 AVX2; do
  library=$xkcp/bin/$target/libXKCP.a
  if [ ! -f "$library" ]; then
    echo "== $library is missing: make $target/libXKCP.a in $xkcp" >&2
    continue
  fi
  program=$work/tree_vs_xkcp_$target
  times8=
  if [ "$target" = AVX512 ]; then times8=-DXKCP_HAS_TIMES8; fi
  g++ -O2 -std=c++20 -DXKCP_TARGET="\"$target\"" $times8 -I"$root/runtime/include" \
    -I"$xkcp/bin/$target/libXKCP.a.headers" "$root/bench/xkcp/tree_vs_xkcp.cpp" \
    -o "$program" "$work/runtime/libsponge.a" "$library" -pthread
  if [ "$target" = AVX2 ]; then
    SPONGE_BATCH_KERNEL=amd64-avx2-x4 taskset -c "$cpu" "$program" "$@"
  else
    taskset -c "$cpu" "$program" "$@"
  fi
done
