#!/usr/bin/env bash
# The Go package's tests (go/keccak): go vet for amd64 and arm64, then go test with every
# permutation this CPU runs forced in turn (the tests do that), with and without the
# purego tag, with the differential tests against Debian's x/crypto; and the arm64 build
# (the portable permutation) under qemu-aarch64 where it is installed.
#   go_tests.sh GO SOURCE_DIR WORK_DIR KAT_DIR GOCODE_DIR
# Everything Go writes (build cache, the GOPATH it builds in) stays under WORK_DIR.
set -euo pipefail
go=$1 source=$2 work=$3 kat=$4 gocode=$5
mkdir -p "$work"
work=$(cd "$work" && pwd)
mkdir -p "$work/gopath/src/spongegen.dev" "$work/cache"
ln -sfn "$source/go/keccak" "$work/gopath/src/spongegen.dev/keccak"
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
stage "$go" test -count=1 -v -tags xcrypto "$pkg"
stage "$go" test -count=1 -tags 'xcrypto purego' "$pkg"
if command -v qemu-aarch64 >/dev/null; then
  stage env GOARCH=arm64 "$go" test -count=1 -exec qemu-aarch64 -tags xcrypto "$pkg"
else
  echo "== qemu-aarch64 not found: the arm64 tests are left out"
fi
