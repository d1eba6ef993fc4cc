#!/usr/bin/env bash
# The OpenSSL provider's benchmark: builds sponge.so and sponge_openssl_bench in build-bench
# (Release) and runs it (EVP, provider sponge against OpenSSL's default provider, in one
# process), then times Python's hashlib.sha3_256 of 64 B and 1 MiB with and without an
# OPENSSL_CONF that loads and prefers the provider (the system Python, whose _hashlib links
# the system libcrypto; runs alternate, best of each).
#   bench/openssl.sh [rounds, default 15]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build_dir=${SPONGE_BENCH_BUILD_DIR:-build-bench}
echo "== configure $build_dir (Release, SPONGE_BUILD_BENCH=ON)"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPONGE_BUILD_BENCH=ON \
  -DSPONGE_BUILD_TESTS=OFF -DSPONGE_BUILD_GENERATOR=OFF >/dev/null
echo "== build $build_dir: sponge_openssl_bench, sponge.so"
cmake --build "$build_dir" --target sponge_openssl_bench -j 2 >/dev/null
echo "== $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(date -u +%F), commit $(git rev-parse --short HEAD)"
"$build_dir/bench/sponge_openssl_bench" "${1:-15}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/openssl.cnf" <<CONF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
default = default_sect
sponge = sponge_sect
[default_sect]
activate = 1
[sponge_sect]
module = $root/$build_dir/openssl/sponge.so
activate = 1
[evp_properties]
default_properties = ?provider=sponge
CONF
# The system Python times itself (timeit) in child processes, with and without the
# configuration, alternating.
/usr/bin/python3 - "$work/openssl.cnf" <<'PY'
import os, subprocess, sys
config = sys.argv[1]
def ns_per_call(size, use_config):
    env = {k: v for k, v in os.environ.items() if k != "OPENSSL_CONF"}
    if use_config:
        env["OPENSSL_CONF"] = config
    code = ("import hashlib, timeit; m = bytes(%d); t = timeit.Timer(lambda: hashlib.sha3_256(m).digest());"
            "n, _ = t.autorange(); print(min(t.repeat(5, n)) / n * 1e9)" % size)
    return float(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                capture_output=True, text=True).stdout)
print()
print("Python %s hashlib.sha3_256(m).digest(), best of 3 alternating runs:" % sys.version.split()[0])
print("| message | default provider | sponge provider (OPENSSL_CONF) | ratio |")
print("| ---: | ---: | ---: | ---: |")
for size in (64, 1 << 20):
    default, ours = [], []
    for _ in range(3):
        default.append(ns_per_call(size, False))
        ours.append(ns_per_call(size, True))
    print("| %d B | %.0f ns | %.0f ns | %.2fx |" % (size, min(default), min(ours), min(default) / min(ours)))
PY
