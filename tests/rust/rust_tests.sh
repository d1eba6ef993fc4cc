#!/usr/bin/env bash
# The Rust crate (rust/): formatting and lints, its tests once per kernel this CPU runs
# (forced through SPONGE_KERNEL, SPONGE_BATCH_KERNEL and SPONGE_ASCON_KERNEL), the no_std
# core (no alloc), the portable-only build, and Debian's rustc 1.63 (the declared minimum):
# the tests on x86-64, then an aarch64 cross build whose tests run under qemu-aarch64 on a
# CPU with the SHA3 extension (-cpu max) and one without (-cpu cortex-a72).
#
# usage: tests/rust/rust_tests.sh BUILD_DIR   (every file it writes is under BUILD_DIR)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$root/rust"
# Cargo.lock is committed in the format both toolchains read; --locked keeps cargo from
# rewriting it, so nothing is written outside BUILD_DIR.
cargo_args=(--offline --locked)

# The newest toolchain: rustup's where present (lints and formatting need it), else Debian's.
if [ -x "$HOME/.cargo/bin/cargo" ]; then
  current=("$HOME/.cargo/bin/cargo")
else
  current=(cargo)
fi
export CARGO_TARGET_DIR=$build/current

echo "== rust: cargo fmt --check, cargo clippy -D warnings ($("${current[@]}" --version))"
if "${current[@]}" fmt --version >/dev/null 2>&1; then
  "${current[@]}" fmt --check
  "${current[@]}" clippy "${cargo_args[@]}" --all-targets -- -D warnings
  "${current[@]}" clippy "${cargo_args[@]}" --lib --no-default-features -- -D warnings
else
  echo "rust: no rustfmt/clippy in this toolchain (rustup's has them); skipped"
fi

echo "== rust: the no_std core without alloc, and the portable-only build"
"${current[@]}" build "${cargo_args[@]}" --lib --no-default-features
"${current[@]}" test "${cargo_args[@]}" --release --features force-portable

# The kernels this CPU runs, by the flags the kernel reports (as the crate's detection does).
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
has() { [[ " $flags " == *" $1 "* ]]; }
single=(portable) batch=(portable) ascon=(portable)
if has bmi1 && has bmi2; then single+=(amd64-bmi2) ascon+=(ascon-amd64-bmi2); fi
if has avx2; then batch+=(amd64-avx2-x4); fi
if has avx512f; then batch+=(amd64-avx512-x8); fi
runs=$((${#single[@]} > ${#batch[@]} ? ${#single[@]} : ${#batch[@]}))
for ((i = 0; i < runs; i++)); do
  # Each run forces one kernel of each family, so every kernel runs in some run.
  k=${single[i % ${#single[@]}]} b=${batch[i % ${#batch[@]}]} a=${ascon[i % ${#ascon[@]}]}
  echo "== rust: cargo test --release with SPONGE_KERNEL=$k SPONGE_BATCH_KERNEL=$b SPONGE_ASCON_KERNEL=$a"
  SPONGE_KERNEL=$k SPONGE_BATCH_KERNEL=$b SPONGE_ASCON_KERNEL=$a \
    "${current[@]}" test "${cargo_args[@]}" --release
done

if [ ! -x /usr/bin/cargo ] || [ ! -x /usr/bin/rustc ]; then
  echo "rust: Debian's rustc and cargo are missing: install rustc, cargo and libstd-rust-dev:arm64 (scripts/deps)" >&2
  exit 1
fi
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO_TARGET_DIR=$build/debian
echo "== rust: $(/usr/bin/rustc --version) (the declared minimum), x86-64"
/usr/bin/cargo test "${cargo_args[@]}" --release

# Statically linked: qemu-aarch64 7.2 hangs creating a thread in a dynamically linked Rust
# program, and the test harness runs tests on threads.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static"
aarch64=(/usr/bin/cargo test "${cargo_args[@]}" --release --target aarch64-unknown-linux-gnu)
for cpu_kernels in "max:arm64-sha3 arm64-scalar portable" "cortex-a72:arm64-scalar portable"; do
  cpu=${cpu_kernels%%:*}
  for k in ${cpu_kernels#*:}; do
    b=portable a=portable
    [ "$k" = arm64-sha3 ] && b=arm64-sha3-x2
    [ "$k" = arm64-scalar ] && a=ascon-arm64
    echo "== rust: aarch64 under qemu-aarch64 -cpu $cpu, SPONGE_KERNEL=$k SPONGE_BATCH_KERNEL=$b SPONGE_ASCON_KERNEL=$a"
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -cpu $cpu" \
      SPONGE_KERNEL=$k SPONGE_BATCH_KERNEL=$b SPONGE_ASCON_KERNEL=$a "${aarch64[@]}"
  done
done
echo "== rust: all passed"
