#!/usr/bin/env bash
# The sponge provider through the real openssl command:
#   openssl_command_test.sh <openssl> <folder of sponge.so> <work folder>
# `openssl list` shows every algorithm at provider sponge; `openssl dgst` (with -xoflen for
# the SHAKEs) gives the default provider's bytes for files of every length from 0 to two
# blocks past the largest rate (504 bytes) and for 1 MiB; `openssl mac` gives the default
# provider's KMAC at the lengths around each rate and at 1 MiB; functions OpenSSL lacks answer
# their published vectors; a misuse prints the provider's reason. The work folder is emptied
# first and removed at the end.
set -euo pipefail
openssl=$1 module_dir=$2 work=$3
load=(-provider-path "$module_dir" -provider sponge -provider default)
sponge=(-propquery provider=sponge)
# The reference side loads OpenSSL's default provider alone: with both loaded, the default
# KMAC's inner KECCAK-KMAC digest (fetched with no property query) could be the module's.
default_only=(-provider default)
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# ---- openssl list: every algorithm at provider sponge ----
digests=$("$openssl" list -digest-algorithms "${load[@]}")
for name in SHA3-224 SHA3-256 SHA3-384 SHA3-512 SHAKE-128 SHAKE-256 KECCAK-224 KECCAK-256 \
  KECCAK-384 KECCAK-512 KECCAK-KMAC-128 KECCAK-KMAC-256 TurboSHAKE128 TurboSHAKE256 KT128 KT256 \
  CSHAKE-128 CSHAKE-256 PARALLELHASH-128 PARALLELHASH-256 ASCON-HASH256 ASCON-XOF128 \
  ASCON-CXOF128; do
  grep -qE "(^| |\{ )$name(,| |\}).*@ sponge$" <<<"$digests" || fail "list -digest-algorithms lacks $name @ sponge"
done
macs=$("$openssl" list -mac-algorithms "${load[@]}")
for name in KMAC-128 KMAC-256; do
  grep -qE "$name.*@ sponge$" <<<"$macs" || fail "list -mac-algorithms lacks $name @ sponge"
done
"$openssl" list -cipher-algorithms "${load[@]}" | grep -q "ASCON-AEAD128 @ sponge" ||
  fail "list -cipher-algorithms lacks ASCON-AEAD128 @ sponge"

# ---- openssl dgst: byte-identical to the default provider ----
# Files of 0..504 bytes (two blocks past SHAKE128's 168-byte rate, the largest) cut from one
# random MiB, which is the last file. One openssl run per digest and provider hashes them all.
head -c 1048576 /dev/urandom >"$work/mib"
files=()
for length in $(seq 0 504); do
  head -c "$length" "$work/mib" >"$work/m$length"
  files+=("$work/m$length")
done
files+=("$work/mib")
compare_dgst() {
  local label=$1
  shift
  local ours theirs
  ours=$("$openssl" dgst "$@" "${load[@]}" "${sponge[@]}" "${files[@]}")
  theirs=$("$openssl" dgst "$@" "${default_only[@]}" "${files[@]}")
  local lines
  lines=$(wc -l <<<"$ours")
  if [ "$lines" -ne "${#files[@]}" ]; then
    fail "dgst $label printed $lines lines for ${#files[@]} files"
  elif [ "$ours" != "$theirs" ]; then
    fail "dgst $label differs from the default provider"
    diff <(echo "$ours") <(echo "$theirs") | head -4 >&2
  else
    echo "dgst $label: ${#files[@]} files identical to the default provider"
  fi
}
for digest in -sha3-224 -sha3-256 -sha3-384 -sha3-512 -shake128 -shake256 -keccak-kmac-128 \
  -keccak-kmac-256; do
  compare_dgst "$digest" "$digest"
done
compare_dgst "-shake128 -xoflen 500" -shake128 -xoflen 500
compare_dgst "-shake256 -xoflen 300" -shake256 -xoflen 300

# ---- openssl mac: KMAC byte-identical to the default provider ----
key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
mac_runs=0
for length in 0 1 135 136 137 167 168 169 335 336 337 503 504; do
  for options in "" "-macopt custom:App -macopt size:100" "-macopt xof:1 -macopt size:48"; do
    for mac in KMAC128 KMAC256; do
      # shellcheck disable=SC2086
      ours=$("$openssl" mac -macopt "hexkey:$key" $options -in "$work/m$length" "${load[@]}" \
        "${sponge[@]}" "$mac")
      # shellcheck disable=SC2086
      theirs=$("$openssl" mac -macopt "hexkey:$key" $options -in "$work/m$length" \
        "${default_only[@]}" "$mac")
      [ "$ours" = "$theirs" ] || fail "mac $mac $options of $length bytes: $ours != $theirs"
      mac_runs=$((mac_runs + 1))
    done
  done
done
for mac in KMAC128 KMAC256; do
  ours=$("$openssl" mac -macopt "hexkey:$key" -in "$work/mib" "${load[@]}" "${sponge[@]}" "$mac")
  theirs=$("$openssl" mac -macopt "hexkey:$key" -in "$work/mib" "${default_only[@]}" "$mac")
  [ "$ours" = "$theirs" ] || fail "mac $mac of 1 MiB differs"
  mac_runs=$((mac_runs + 1))
done
echo "mac: $mac_runs KMAC runs identical to the default provider"

# ---- functions OpenSSL lacks: their published vectors (RFC 9861, SP 800-232) ----
expect_dgst() {
  local expected=$1
  shift
  local printed
  printed=$("$openssl" dgst "$@" "${load[@]}" "$work/m0")
  [ "${printed##*= }" = "$expected" ] || fail "dgst $* of the empty file: ${printed##*= }, expected $expected"
}
expect_dgst 1ac2d450fc3b4205d19da7bfca1b37513c0803577ac7167f06fe2ce1f0ef39e5 -kt128
expect_dgst 1e415f1c5983aff2169217277d17bb538cd945a397ddec541f1ce41af2c1b74c -turboshake128
expect_dgst 0b3be5850f2f6b98caf29f8fdea89b64a1fa70aa249b8f839bd53baa304d92b2 -ascon-hash256

# With only the sponge provider loaded, OpenSSL's own names still answer: from the module.
printed=$("$openssl" dgst -sha3-256 -provider-path "$module_dir" -provider sponge "$work/m0")
[ "${printed##*= }" = a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a ] ||
  fail "dgst -sha3-256 with only the sponge provider: $printed"

# ---- misuse: the provider's reason reaches the command's error output ----
if "$openssl" mac -in "$work/m0" "${load[@]}" "${sponge[@]}" KMAC128 >/dev/null 2>"$work/err"; then
  fail "mac KMAC128 without a key succeeded"
elif ! grep -q "no key set" "$work/err"; then
  fail "mac KMAC128 without a key: no reason printed: $(cat "$work/err")"
fi
if "$openssl" mac -macopt hexkey:00 -in "$work/m0" "${load[@]}" "${sponge[@]}" KMAC256 \
  >/dev/null 2>"$work/err"; then
  fail "mac KMAC256 with a 1-byte key succeeded"
elif ! grep -q "invalid key length" "$work/err"; then
  fail "mac KMAC256 with a 1-byte key: no reason printed: $(cat "$work/err")"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failures" >&2
  exit 1
fi
echo "openssl command: all checks passed"
