#!/usr/bin/env bash
# spongesum against the SHA-3 command line tools of Debian, page cache warm, one run:
#   1. one 1 GiB file;  2. 10,000 files of 1 KiB
# spongesum -a sha3-256 against sha3sum -a 256 (Perl, libdigest-sha3-perl), openssl dgst
# -sha3-256, rhash --sha3-256, and b3sum (BLAKE3, for a sense of scale), timed by hyperfine.
# First it measures the library's in-memory SHA3-256 throughput (spongesum_memory_throughput:
# the same hasher and block size spongesum uses, on a buffer already in memory) and prints
# spongesum's 1 GiB throughput as a share of it.
# Writes the tables to bench/results/spongesum-<cpu-slug>.md and prints them.
#
# Environment: SPONGESUM_BENCH_BUILD_DIR (default build-bench-spongesum),
# SPONGESUM_BENCH_DIR (where the files are made; default a temporary folder), SPONGESUM_BENCH_RUNS
# (hyperfine runs per command, default 5).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

scripts/deps

build_dir=${SPONGESUM_BENCH_BUILD_DIR:-build-bench-spongesum}
runs=${SPONGESUM_BENCH_RUNS:-5}
echo "== configure $build_dir (Release, tools only)"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPONGE_BUILD_TESTS=OFF \
  -DSPONGE_BUILD_GENERATOR=OFF -DSPONGE_BUILD_TOOLS=ON >/dev/null
cmake --build "$build_dir" --target spongesum spongesum_memory_throughput -j "$(nproc)"
spongesum="$root/$build_dir/tools/spongesum/spongesum"

data=${SPONGESUM_BENCH_DIR:-$(mktemp -d)}
cleanup() { [ -n "${SPONGESUM_BENCH_DIR:-}" ] || rm -rf "$data"; }
trap cleanup EXIT
echo "== files in $data"
mkdir -p "$data/small"
[ -s "$data/1GiB" ] || head -c $((1 << 30)) /dev/urandom >"$data/1GiB"
if [ ! -s "$data/small/09999" ]; then
  head -c $((10000 * 1024)) /dev/urandom >"$data/small.all"
  (cd "$data/small" && split -a 5 -d -b 1024 ../small.all '') && rm "$data/small.all"
fi
cat "$data/1GiB" "$data"/small/* >/dev/null  # the page cache warm

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
slug=$(printf '%s' "$cpu" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | sed 's/-$//')
out="bench/results/spongesum-$slug.md"
mkdir -p bench/results

echo "== in-memory throughput of the library (the ceiling for one file)"
memory_line=$("$root/$build_dir/tools/spongesum/spongesum_memory_throughput" sha3-256 1024 3)
echo "$memory_line"
memory_mbps=$(sed -n 's/.* \([0-9.]*\) MB\/s.*/\1/p' <<<"$memory_line")

cd "$data"
for workload in large small; do
  if [ "$workload" = large ]; then
    args=1GiB
    title="one 1 GiB file"
  else
    args='small/*'
    title="10,000 files of 1 KiB"
  fi
  echo "== $title"
  hyperfine --warmup 1 --runs "$runs" --export-json "$data/$workload.json" \
    -n spongesum "$spongesum -a sha3-256 $args" \
    -n "sha3sum -a 256" "sha3sum -a 256 $args" \
    -n "openssl dgst -sha3-256" "openssl dgst -sha3-256 $args" \
    -n "rhash --sha3-256" "rhash --sha3-256 $args" \
    -n "b3sum (BLAKE3)" "b3sum $args" >/dev/null
done
cd "$root"

python3 - "$data" "$cpu" "$memory_mbps" "$runs" >"$out" <<'PYTHON'
import json, sys
data, cpu, memory_mbps, runs = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
print(f"CPU: {cpu} ({runs} runs each, mean ± standard deviation, hyperfine)\n")
for workload, title, size in (("large", "one 1 GiB file", 1 << 30),
                              ("small", "10,000 files of 1 KiB", 10000 * 1024)):
    results = json.load(open(f"{data}/{workload}.json"))["results"]
    ours = results[0]["mean"]
    print(f"{title}:\n")
    print("| tool | time | MB/s | time / spongesum's |")
    print("|---|---|---|---|")
    for result in results:
        print(f"| {result['command']} | {result['mean']:.3f} s ± {result['stddev']:.3f} | "
              f"{size / result['mean'] / 1e6:.0f} | {result['mean'] / ours:.2f}x |")
    print()
    if workload == "large":
        share = size / ours / 1e6 / memory_mbps
        print(f"spongesum on the 1 GiB file: {size / ours / 1e6:.0f} MB/s, {share:.0%} of the "
              f"library's in-memory SHA3-256 throughput ({memory_mbps:.0f} MB/s).\n")
PYTHON
cat "$out"
