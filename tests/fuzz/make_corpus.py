#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets: tests/fuzz/corpus/<target>/<name>.

Each seed is a meaningful program in the target's input format (documented at the top of
each target's source), so a fuzzing run starts from inputs that already reach every
operation, every algorithm and every placement. Run it after changing a format and commit
the result:  tests/fuzz/make_corpus.py
"""
import pathlib
import random
import shutil
import struct

CORPUS = pathlib.Path(__file__).resolve().parent / "corpus"

# sponge_fuzz_hashers ------------------------------------------------------------------
ALGORITHMS = [  # (name, rate)
    ("keccak256", 136), ("sha3_224", 144), ("sha3_256", 136), ("sha3_384", 104),
    ("sha3_512", 72), ("shake128", 168), ("shake256", 136)]
UPDATE, PEEK, SQUEEZE, RESET, COPY, MOVE, ONE_SHOT = range(7)
GUARD_IN, GUARD_OUT = 0x01, 0x10  # placement nibbles: odd = ending at the guard page


def op(opcode, slot=0, placement=0, variant=0, length=0, extra=0):
    return struct.pack("<BBBBHH", opcode, slot, placement, variant, length, extra)


def hasher_program(algorithm, rate):
    return bytes([algorithm]) + b"".join([
        op(UPDATE, 0, 0x00, 0, rate - 1, 1),           # span, aligned, one short of a block
        op(UPDATE, 0, GUARD_IN, 2, 2, 2),              # string_view at the guard: crosses it
        op(PEEK, 0, length=rate + 5),                   # digest() twice, a copy squeezes
        op(COPY, 1, variant=0, extra=0),                # slot 1 = slot 0 (assignment)
        op(UPDATE, 1, 0x06, 1, 3 * rate + 7, 3),        # byte span, offset 3: fused blocks
        op(SQUEEZE, 0, GUARD_OUT, 0, rate + 1, 0),      # across a block, at the guard
        op(UPDATE, 0, 0x00, 0, 5, 4),                   # must throw: slot 0 squeezes
        op(SQUEEZE, 0, 0x20, 1, 50, 0),                 # std::byte span, offset 1
        op(MOVE, 2, variant=1, extra=0),                # slot 2 move-constructed from slot 0
        op(RESET, 1),
        op(UPDATE, 1, GUARD_IN, 0, 0, 5),               # the empty update
        op(ONE_SHOT, 0, GUARD_IN | GUARD_OUT, 0, rate, 6),
        op(ONE_SHOT, 0, 0x0E, 1, 2 * rate + 1, 7),      # byte span, offset 7
        op(ONE_SHOT, 0, 0x00, 2, 0, 8),                 # string_view, empty
    ])


# The RFC 9861 and SP 800-185 functions, after the seven (hashers_modes.cpp), with rates.
MODE_FUNCTIONS = [
    ("turboshake128", 168), ("turboshake256", 136), ("kt128", 168), ("kt256", 136),
    ("cshake128", 168), ("cshake256", 136), ("kmac128", 168), ("kmac256", 136),
    ("kmacxof128", 168), ("kmacxof256", 136), ("tuplehash128", 168), ("tuplehash256", 136),
    ("tuplehashxof128", 168), ("tuplehashxof256", 136), ("parallelhash128", 168),
    ("parallelhash256", 136), ("parallelhashxof128", 168), ("parallelhashxof256", 136)]
M_UPDATE, M_OUTPUT, M_RESET, M_LONG_UPDATE = range(4)


def mode_op(opcode, placement=0, length=0):
    return struct.pack("<BBH", opcode, placement, length)


def mode_program(function, rate):
    # key 32 bytes, customization 13, name 4, parameter 11 (D = 0x0C, B = 12), seed 9
    header = bytes([len(ALGORITHMS) + function]) + struct.pack("<HHBBH", 32, 13, 4, 11, 9)
    return header + b"".join([
        mode_op(M_UPDATE, 0x00, rate - 1),
        mode_op(M_UPDATE, GUARD_IN, 2 * rate + 3),
        mode_op(M_OUTPUT, GUARD_OUT, 40),             # a digest of 40 bytes, or a squeeze
        mode_op(M_OUTPUT, 0x20, rate + 1),
        mode_op(M_UPDATE, 0x00, 5),                   # XOF forms: must throw
        mode_op(M_RESET),
        mode_op(M_LONG_UPDATE, 0x06, 8192 + 1000),    # KT: past the first chunk
        mode_op(M_LONG_UPDATE, GUARD_IN, 2 * 8192),   # KT: whole leaves
        mode_op(M_OUTPUT, 0x00, 300),
    ])


# sponge_fuzz_c_api ---------------------------------------------------------------------
# The C functions, in kFunctions' order: the seven, the 18 of RFC 9861 and SP 800-185 and
# the two calls with a parameter out of range.
C_FUNCTIONS = [name for name, _ in ALGORITHMS] + [name for name, _ in MODE_FUNCTIONS] + [
    "turboshake128-bad-domain", "parallelhash256-block-size-0"]
C_RATES = [rate for _, rate in ALGORITHMS] + [rate for _, rate in MODE_FUNCTIONS] + [168, 136]
SEPARATE, IN_NULL, OUT_NULL, BOTH_NULL, SHARED = range(5)


def call(function, layout, placement=0, in_off=0, out_off=0, canary=0xA5, in_len=0,
         out_len=0, seed=0):
    return struct.pack("<BBBBBBHHH", function, layout, placement, in_off, out_off, canary,
                       in_len, out_len, seed)


def c_api_program(function, rate):
    return b"".join([
        call(function, SEPARATE, 0x00, in_len=3, out_len=64, seed=1),
        call(function, SEPARATE, 0x11, in_len=rate, out_len=rate + 1, seed=2),  # at guards
        call(function, IN_NULL, in_len=0, out_len=32),     # NULL, 0: the empty message
        call(function, IN_NULL, in_len=10, out_len=32),    # SPONGE_ERROR_NULL_INPUT
        call(function, OUT_NULL, in_len=10, out_len=0),    # fine for SHAKE only
        call(function, OUT_NULL, in_len=10, out_len=16),   # SPONGE_ERROR_NULL_OUTPUT
        call(function, BOTH_NULL, in_len=1, out_len=1),
        call(function, SHARED, 0x00, 0, 0, in_len=rate + 3, out_len=40, seed=3),  # same start
        call(function, SHARED, 0x01, 5, 9, in_len=2 * rate, out_len=300, seed=4),
    ])


# sponge_fuzz_kernels -------------------------------------------------------------------
def kernel_input(block_placement, state_placement, calls, state, block):
    assert len(state) == 200 and len(block) == 168
    return bytes([block_placement, state_placement, calls]) + state + block


# sponge_fuzz_batch ---------------------------------------------------------------------
BATCH_FUNCTIONS = [("keccak256", 136), ("sha3_224", 144), ("sha3_256", 136), ("sha3_384", 104),
                   ("sha3_512", 72)]


def batch_input(function, placement, windows, pool):
    # windows: (offset, length) per message; the pool is up to 1024 bytes.
    return bytes([function, len(windows), placement]) + b"".join(
        struct.pack("<HH", offset, length) for offset, length in windows) + pool


def batch_seeds():
    rng = random.Random(0xBA7C)
    pool = rng.randbytes(1024)
    seeds = {}
    for index, (name, rate) in enumerate(BATCH_FUNCTIONS):
        mixed = [(rng.randrange(1024), rng.randrange(4 * rate + 2)) for _ in range(9)]
        seeds[f"{name}-9-mixed"] = batch_input(index, 0x00, mixed, pool)
        seeds[f"{name}-33-at-guard"] = batch_input(
            index, 0x01, [(7 * i, (i * 61) % (4 * rate + 2)) for i in range(33)], pool)
    seeds["keccak256-one-long-many-short"] = batch_input(
        0, 0x00, [(0, 4 * 136 + 1)] + [(i, i % 5) for i in range(1, 12)], pool)
    seeds["sha3_256-same-message-5-times"] = batch_input(2, 0x01, [(3, 2 * 136 + 5)] * 5, pool)
    seeds["sha3_512-block-boundaries"] = batch_input(
        4, 0x00, [(0, k * 72 + d) for k in range(3) for d in (0, 1, 71) if k * 72 + d >= 0], pool)
    seeds["keccak256-empty-batch"] = batch_input(0, 0x01, [], b"")
    seeds["sha3_224-one-empty-message"] = batch_input(1, 0x01, [(0, 0)], b"")
    return seeds


# sponge_fuzz_shake_x4 ------------------------------------------------------------------
X4_UPDATE_EQUAL, X4_UPDATE, X4_SQUEEZE, X4_RESET = range(4)
X4_GUARD = 0x10


def x4_update_equal(length, offsets=(0, 1, 2, 3), guard=0):
    return bytes([X4_UPDATE_EQUAL | guard]) + struct.pack("<H", length) + bytes(offsets)


def x4_update(lengths, offsets=(0, 5, 10, 15), guard=0):
    return bytes([X4_UPDATE | guard]) + struct.pack("<HHHH", *lengths) + bytes(offsets)


def x4_squeeze(length, guard=0):
    return bytes([X4_SQUEEZE | guard]) + struct.pack("<H", length)


def x4_program(variant, seed, operations):
    return bytes([variant]) + struct.pack("<H", seed) + b"".join(operations)


def shake_x4_seeds():
    seeds = {}
    for variant, (name, rate) in enumerate([("shake128", 168), ("shake256", 136)]):
        seeds[f"{name}-ml-kem-34-bytes-3-blocks"] = x4_program(variant, 1, [
            x4_update_equal(34), x4_squeeze(rate), x4_squeeze(rate), x4_squeeze(rate)])
        seeds[f"{name}-equal-streaming-small-squeezes"] = x4_program(variant, 2, [
            x4_update_equal(rate - 1), x4_update_equal(2), x4_update_equal(2 * rate + 1),
            x4_squeeze(1), x4_squeeze(7), x4_squeeze(8), x4_squeeze(rate), x4_squeeze(0)])
        seeds[f"{name}-unequal-then-equal-at-guard"] = x4_program(variant, 3, [
            x4_update((0, 1, rate, 3 * rate + 1), guard=X4_GUARD),
            x4_update_equal(rate + 5, guard=X4_GUARD),
            x4_squeeze(3 * rate + 1, guard=X4_GUARD), x4_squeeze(5)])
        seeds[f"{name}-update-after-squeeze-reset"] = x4_program(variant, 4, [
            x4_update_equal(10), x4_squeeze(20), x4_update_equal(3), x4_update((1, 2, 3, 4)),
            x4_squeeze(rate + 1), bytes([X4_RESET]), x4_update((rate, 0, 0, 0)),
            x4_squeeze(2 * rate)])
    seeds["shake128-empty-streams"] = x4_program(0, 5, [x4_squeeze(200)])
    return seeds


# sponge_fuzz_ascon_hash ----------------------------------------------------------------
HASH256, XOF128, CXOF128 = range(3)


def ascon_hash_input(function, message_length, seed, placement, customization_length,
                     output_length, update_pieces=(), squeeze_pieces=()):
    # Past the listed pieces the input ends, so the rest of each split is one piece; a
    # squeeze piece is only read once the update pieces cover the message.
    assert sum(update_pieces) <= message_length
    assert not squeeze_pieces or sum(update_pieces) == message_length
    return struct.pack("<BHHBHH", function, message_length, seed, placement,
                       customization_length, output_length) + bytes(update_pieces + squeeze_pieces)


ASCON_HASH_SEEDS = {
    "hash256-empty": ascon_hash_input(HASH256, 0, 1, 0x00, 0, 0),
    "hash256-100-bytes-in-pieces": ascon_hash_input(HASH256, 100, 2, 0x01, 0, 0,
                                                    (7, 1, 0, 8, 9, 16, 40)),
    "hash256-1024-bytes-at-guard": ascon_hash_input(HASH256, 1024, 3, 0x01, 0, 0),
    "xof128-squeeze-in-pieces": ascon_hash_input(XOF128, 33, 4, 0x16, 0, 300, (8, 8, 17),
                                                 (1, 7, 8, 9, 0, 40)),
    "xof128-no-output": ascon_hash_input(XOF128, 5, 5, 0x00, 0, 0),
    "cxof128-no-customization": ascon_hash_input(CXOF128, 16, 6, 0x00, 0, 64, (3, 13),
                                                 (8, 8, 1)),
    "cxof128-customization-256": ascon_hash_input(CXOF128, 50, 7, 0x11, 256, 100,
                                                  (25, 25), (33,)),
    "cxof128-customization-257-refused": ascon_hash_input(CXOF128, 10, 8, 0x00, 257, 32),
    "cxof128-customization-300-refused": ascon_hash_input(CXOF128, 0, 9, 0x11, 300, 0),
}


# sponge_fuzz_ascon_aead ----------------------------------------------------------------
def ascon_aead_input(ad_length, text_length, seed, placement, tampered_bit, ad_pieces=(),
                     text_pieces=()):
    # The tampered bit counts through the ciphertext, then the tag, then the associated data.
    assert sum(ad_pieces) <= ad_length and sum(text_pieces) <= text_length
    assert not text_pieces or sum(ad_pieces) == ad_length
    return struct.pack("<HHHBH", ad_length, text_length, seed, placement,
                       tampered_bit) + bytes(ad_pieces + text_pieces)


ASCON_AEAD_SEEDS = {
    "empty-tag-bit-0": ascon_aead_input(0, 0, 1, 0x00, 0),
    "associated-data-only-ad-bit-2": ascon_aead_input(5, 0, 2, 0x10, 128 + 2, (2, 0, 3)),
    "text-only-ciphertext-bit-3": ascon_aead_input(0, 17, 3, 0x01, 3, (), (16, 1)),
    "blocks-in-pieces-ciphertext-bit-500": ascon_aead_input(
        37, 100, 4, 0x13, 500, (1, 15, 16, 5), (16, 0, 1, 40, 7)),
    "longest-at-guard-tag-bit-100": ascon_aead_input(300, 1024, 5, 0x11, 8 * 1024 + 100),
    "one-block-each-tag-bit-127": ascon_aead_input(16, 16, 6, 0x02, 8 * 16 + 127, (16,), (16,)),
    "last-associated-data-bit": ascon_aead_input(16, 32, 7, 0x00, 8 * 32 + 128 + 127,
                                                 (8, 8), (15, 17)),
    # Texts of one and two bytes: the overlap check's shortest cases (one byte has no
    # partial overlap at all; two have one, one byte away).
    "one-byte-text": ascon_aead_input(0, 1, 8, 0x00, 3),
    "two-byte-text-odd-seed": ascon_aead_input(0, 2, 9, 0x00, 3),
}


# sponge_fuzz_openssl_provider ------------------------------------------------------------
PROVIDER_ALGORITHMS = ["sha3-256", "keccak-256", "shake128", "turboshake128", "kt128",
                       "cshake256", "parallelhash128", "ascon-hash256", "ascon-cxof128",
                       "kmac128", "kmac256"]
P_INIT, P_UPDATE, P_BYTES, P_FINAL, P_COPY, P_SWITCH, P_BAD, P_AEAD = range(8)


def provider_settings(algorithm):
    # lengths byte (customization % 40, N / 40 % 6), then per setting the algorithm takes.
    name = PROVIDER_ALGORITHMS[algorithm]
    settings = bytes([40 * 2 + 5])
    if name in ("kt128", "cshake256", "parallelhash128", "ascon-cxof128", "kmac128", "kmac256"):
        settings += b"custo"
    if name == "cshake256":
        settings += b"NN"
    if name == "turboshake128":
        settings += bytes([0x0A])
    if name == "parallelhash128":
        settings += bytes([7])  # B = 8
    if name in ("parallelhash128", "kmac128", "kmac256"):
        settings += bytes([algorithm % 2])  # XOF for some
    if name in ("kmac128", "kmac256"):
        settings += bytes([28]) + bytes(range(32)) + struct.pack("<H", 40)
    return settings


def provider_program(algorithm):
    rng = random.Random(algorithm)
    return bytes([algorithm]) + b"".join([
        bytes([P_INIT]) + provider_settings(algorithm),
        bytes([P_UPDATE]) + struct.pack("<H", 300) + rng.randbytes(300),
        bytes([P_COPY]),
        bytes([P_BYTES, 40]) + rng.randbytes(40),
        bytes([P_BAD, 3]),
        bytes([P_FINAL]) + struct.pack("<H", 99),
        bytes([P_FINAL]) + struct.pack("<H", 5),     # final twice: refused
        bytes([P_BYTES, 3]) + b"abc",                # update after final: refused
        bytes([P_SWITCH]),
        bytes([P_BAD, 1]),
        bytes([P_UPDATE]) + struct.pack("<H", 17) + rng.randbytes(17),
        bytes([P_FINAL]) + struct.pack("<H", 200),
        bytes([P_INIT]) + provider_settings(algorithm),
        bytes([P_FINAL]) + struct.pack("<H", 31),
        bytes([P_AEAD]) + rng.randbytes(32) + bytes([20]) + rng.randbytes(20)
        + struct.pack("<H", 33) + rng.randbytes(33) + bytes([algorithm]) + struct.pack("<H", algorithm),
    ])


def main():
    shutil.rmtree(CORPUS, ignore_errors=True)
    seeds = {}
    for index, (name, rate) in enumerate(ALGORITHMS):
        seeds[("sponge_fuzz_hashers", name)] = hasher_program(index, rate)
    for index, (name, rate) in enumerate(MODE_FUNCTIONS):
        seeds[("sponge_fuzz_hashers", name)] = mode_program(index, rate)
    for index, (name, rate) in enumerate(zip(C_FUNCTIONS, C_RATES)):
        seeds[("sponge_fuzz_c_api", name)] = c_api_program(index, rate)
    rng = random.Random(0x5EED)
    state, block = rng.randbytes(200), rng.randbytes(168)
    seeds[("sponge_fuzz_kernels", "zero-state-aligned")] = kernel_input(
        0, 0, 0, bytes(200), bytes(168))
    seeds[("sponge_fuzz_kernels", "random-at-guard-pages-4-calls")] = kernel_input(
        1, 1, 3, state, block)
    seeds[("sponge_fuzz_kernels", "random-block-offset-5")] = kernel_input(
        10, 0, 1, state[::-1], block[::-1])
    for name, data in ASCON_HASH_SEEDS.items():
        seeds[("sponge_fuzz_ascon_hash", name)] = data
    for name, data in ASCON_AEAD_SEEDS.items():
        seeds[("sponge_fuzz_ascon_aead", name)] = data
    for name, data in batch_seeds().items():
        seeds[("sponge_fuzz_batch", name)] = data
    for name, data in shake_x4_seeds().items():
        seeds[("sponge_fuzz_shake_x4", name)] = data
    for index, name in enumerate(PROVIDER_ALGORITHMS):
        seeds[("sponge_fuzz_openssl_provider", name)] = provider_program(index)
    for (target, name), data in sorted(seeds.items()):
        path = CORPUS / target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"make_corpus: {len(seeds)} seeds, {sum(map(len, seeds.values()))} bytes in {CORPUS}")


if __name__ == "__main__":
    main()
