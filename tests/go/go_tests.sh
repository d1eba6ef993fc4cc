#!/usr/bin/env bash
# The Go package's tests (go/keccak): go vet for amd64 and arm64 (Linux and macOS), then
# go test with every permutation this CPU runs forced in turn (the tests do that), with and
# without the purego tag, with the differential tests against Debian's x/crypto; and the arm64 build
# under qemu-aarch64 where it is installed, on a CPU with SHA3 and one without; then a short
# pass of the fuzz target.
#   go_tests.sh GO SOURCE_DIR WORK_DIR KAT_DIR GOCODE_DIR
# Everything Go writes (build cache, the GOPATH it builds in) stays under WORK_DIR.
set -euo pipefail
go=$1 source=$2 work=$3 kat=$4 gocode=$5
mkdir -p "$work"
work=$(cd "$work" && pwd)
mkdir -p "$work/gopath/src/spongegen.dev" "$work/cache"
# A copy, not a link: go test -fuzz writes a failing input under the package's testdata.
rm -rf "$work/gopath/src/spongegen.dev/keccak"
cp -r "$source/go/keccak" "$work/gopath/src/spongegen.dev/keccak"
export GO111MODULE=off GOPATH="$work/gopath:$gocode" GOCACHE="$work/cache" GOPROXY=off
mkdir -p "$work/tmp"
export SPONGE_KAT_DIR="$kat" TMPDIR="$work/tmp"
pkg=spongegen.dev/keccak
cd "$work"
stage() {
  local start=$SECONDS
  echo "== $*"
  "$@"
  echo "   ($((SECONDS - start)) s)"
}
stage env GOARCH=amd64 "$go" vet -tags xcrypto "$pkg"
stage env GOARCH=amd64 "$go" vet -tags purego "$pkg"
stage env GOARCH=arm64 "$go" vet "$pkg"
# macOS asks sysctl for SHA3 (sha3_darwin_arm64.go): vetted here, run nowhere.
stage env GOOS=darwin GOARCH=arm64 "$go" vet "$pkg"
stage "$go" test -count=1 -v -tags xcrypto "$pkg"
stage "$go" test -count=1 -tags 'xcrypto purego' "$pkg"
if command -v qemu-aarch64 >/dev/null; then
  # A CPU with the SHA3 extension (the generated kernels run) and one without (the portable
  # permutation): each run checks that it chose the kernels named here.
  stage env GOARCH=arm64 QEMU_CPU=max SPONGE_GO_EXPECTED_KERNELS=arm64-sha3,portable \
    SPONGE_GO_EXPECTED_BATCH_KERNELS=arm64-sha3-x2,one-at-a-time \
    "$go" test -count=1 -exec qemu-aarch64 -tags xcrypto "$pkg"
  stage env GOARCH=arm64 QEMU_CPU=cortex-a72 SPONGE_GO_EXPECTED_KERNELS=portable \
    SPONGE_GO_EXPECTED_BATCH_KERNELS=one-at-a-time \
    "$go" test -count=1 -exec qemu-aarch64 -tags xcrypto "$pkg"
else
  echo "== qemu-aarch64 not found: the arm64 tests are left out"
fi
# The fuzz cache stays in GOCACHE; a failing input lands in the copy's testdata/fuzz. Each new
# interesting input is minimized for at most 200 runs: by default Go 1.19 spends up to a
# minute on each, and a short pass then runs nothing else (seen: no execution after 3 s).
stage "$go" test -count=1 -run '^$' -fuzz '^FuzzKeccak256$' -fuzzminimizetime 200x \
  -fuzztime "${SPONGE_GO_FUZZ_TIME:-20s}" "$pkg"
