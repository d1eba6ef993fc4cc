#!/usr/bin/env bash
# The Rust crate against RustCrypto keccak 0.1.6 and ascon 0.5 and tiny-keccak 2.0.2 (with
# crunchy), in one run: builds bench/rust/peers.rs in a crate made in WORK_DIR (outside the
# repository), with the crate and the peers' checkouts as path dependencies.
#
# usage: bench/rust.sh PEERS_DIR WORK_DIR
#   PEERS_DIR holds keccak-0.1.6/ (RustCrypto/sponges at keccak-v0.1.6), ascon-0.5/
#   (RustCrypto/sponges at "Release ascon v0.5.0"), tiny-keccak/ (debris/tiny-keccak, 2.0.2)
#   and crunchy/ (eira-fransham/crunchy). keccak 0.1.6 names cpufeatures for aarch64 only,
#   which cargo resolves even on x86-64 without a registry: its copy there has that section
#   removed; tiny-keccak's crunchy dependency is patched to the checkout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peers=$(cd "$1" && pwd)
work=$(mkdir -p "$2" && cd "$2" && pwd)
sed -i '/^\[target.*aarch64.*dependencies\]/,/^cpufeatures/d' "$peers/keccak-0.1.6/keccak/Cargo.toml"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "sponge-peers-bench"
version = "0.0.0"
edition = "2021"
publish = false

[[bin]]
name = "peers"
path = "$root/bench/rust/peers.rs"

[dependencies]
sponge = { path = "$root/rust" }
keccak = { path = "$peers/keccak-0.1.6/keccak" }
ascon = { path = "$peers/ascon-0.5/ascon" }
tiny-keccak = { path = "$peers/tiny-keccak", features = ["keccak"] }

[patch.crates-io]
crunchy = { path = "$peers/crunchy" }

[profile.release]
codegen-units = 1
TOML
cd "$work"
CARGO_TARGET_DIR="$work/target" cargo build --offline --release --bin peers
"$work/target/release/peers"
