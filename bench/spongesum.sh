#!/usr/bin/env bash
# spongesum against the SHA-3 command line tools of Debian, page cache warm, one run:
#   1. one 1 GiB file;  2. 10,000 files of 1 KiB;  3. KT128 of the 1 GiB file against b3sum
# spongesum -a sha3-256 against sha3sum -a 256 (Perl, libdigest-sha3-perl), openssl dgst
# -sha3-256, rhash --sha3-256, and b3sum (BLAKE3, for a sense of scale), timed by hyperfine.
# First spongesum_input_paths times each way of reading the 1 GiB file (FileHasher's read()
# paths against mappings) for SHA3-256 and KT128, beside the library's in-memory speed on the
# same bytes (the same hasher and block size spongesum uses), and spongesum's 1 GiB SHA3-256
# throughput is printed as a share of that ceiling. KT128 is timed against b3sum in each of
# its configurations (threads, --no-mmap).
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
cmake --build "$build_dir" --target spongesum spongesum_input_paths -j "$(nproc)"
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

echo "== input paths (FileHasher against mappings, beside the in-memory ceiling), 1 GiB"
input_paths=$(for algorithm in sha3-256 kt128; do
  "$root/$build_dir/tools/spongesum/spongesum_input_paths" "$data/1GiB" "$algorithm" 5
done)
echo "$input_paths"
# SHA3-256's ceiling: the first "in memory" line.
memory_mbps=$(sed -n 's/^in memory .* \([0-9.]*\) MB\/s.*/\1/p' <<<"$input_paths" | head -1)

cd "$data"
echo "== KT128 of the 1 GiB file against b3sum"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$data/tree.json" \
  -n "spongesum -a kt128 -j 1" "$spongesum -a kt128 -j 1 1GiB" \
  -n "spongesum -a kt128 -j $(nproc)" "$spongesum -a kt128 -j $(nproc) 1GiB" \
  -n "b3sum --num-threads 1" "b3sum --num-threads 1 1GiB" \
  -n "b3sum --num-threads 1 --no-mmap" "b3sum --num-threads 1 --no-mmap 1GiB" \
  -n "b3sum" "b3sum 1GiB" \
  -n "b3sum --no-mmap" "b3sum --no-mmap 1GiB" >/dev/null
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

python3 - "$data" "$cpu" "$memory_mbps" "$runs" "$input_paths" >"$out" <<'PYTHON'
import json, sys
data, cpu, memory_mbps, runs, input_paths = sys.argv[1:6]
memory_mbps = float(memory_mbps)
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
results = json.load(open(f"{data}/tree.json"))["results"]
print("KT128 of the 1 GiB file against b3sum (BLAKE3), hyperfine -N:\n")
print("| command | time | MB/s | time / spongesum -j 1's |")
print("|---|---|---|---|")
for result in results:
    print(f"| {result['command']} | {result['mean']:.3f} s ± {result['stddev']:.3f} | "
          f"{(1 << 30) / result['mean'] / 1e6:.0f} | {result['mean'] / results[0]['mean']:.2f}x |")
print("\nEach way of reading the 1 GiB file (spongesum_input_paths, best of 5):\n")
print("```")
print(input_paths)
print("```")
PYTHON
cat "$out"
