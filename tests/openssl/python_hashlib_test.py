"""Python's hashlib through the sponge provider, by configuration alone.

    python3 python_hashlib_test.py <folder of sponge.so> <work folder>

Writes an openssl.cnf that activates the provider beside the default one and prefers it
(default_properties = ?provider=sponge), then runs a child Python under OPENSSL_CONF that
hashes with hashlib.sha3_256, sha3_512, shake_128 and shake_256 (one update, many updates,
copies). Proof that the calls reached the provider, not only equal digests: the provider's
final counter (the "sponge-finals" provider parameter, read through ctypes from the libcrypto
the child's _hashlib uses) grows by exactly the finals the child made, and EVP_MD_fetch with
the configuration's properties names provider "sponge". The digests must equal those of a
child run without the configuration (OpenSSL's default provider).
"""
import json
import os
import shutil
import subprocess
import sys

CHILD = r'''
import ctypes, hashlib, json, _hashlib

crypto = ctypes.CDLL("libcrypto.so.3")

class OsslParam(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("data_type", ctypes.c_uint),
                ("data", ctypes.c_void_p), ("data_size", ctypes.c_size_t),
                ("return_size", ctypes.c_size_t)]

crypto.OSSL_PROVIDER_load.restype = ctypes.c_void_p
crypto.OSSL_PROVIDER_load.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
crypto.OSSL_PROVIDER_unload.argtypes = [ctypes.c_void_p]
crypto.OSSL_PROVIDER_available.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
crypto.OSSL_PROVIDER_get_params.argtypes = [ctypes.c_void_p, ctypes.POINTER(OsslParam)]
crypto.EVP_MD_fetch.restype = ctypes.c_void_p
crypto.EVP_MD_fetch.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
crypto.EVP_MD_get0_provider.restype = ctypes.c_void_p
crypto.EVP_MD_get0_provider.argtypes = [ctypes.c_void_p]
crypto.OSSL_PROVIDER_get0_name.restype = ctypes.c_char_p
crypto.OSSL_PROVIDER_get0_name.argtypes = [ctypes.c_void_p]
crypto.EVP_MD_free.argtypes = [ctypes.c_void_p]

def sponge_finals():
    if not crypto.OSSL_PROVIDER_available(None, b"sponge"):
        return None
    provider = crypto.OSSL_PROVIDER_load(None, b"sponge")  # one more reference
    value = ctypes.c_uint64(0)
    params = (OsslParam * 2)()
    params[0] = OsslParam(b"sponge-finals", 2, ctypes.cast(ctypes.byref(value), ctypes.c_void_p),
                          8, 0)
    ok = crypto.OSSL_PROVIDER_get_params(provider, params)
    crypto.OSSL_PROVIDER_unload(provider)
    return value.value if ok == 1 else None

def provider_of(name):
    md = crypto.EVP_MD_fetch(None, name, None)
    if not md:
        return None
    provider = crypto.OSSL_PROVIDER_get0_name(crypto.EVP_MD_get0_provider(md)).decode()
    crypto.EVP_MD_free(md)
    return provider

message = bytes(range(256)) * 4099  # about 1 MiB
before = sponge_finals()
results = {}
finals = 0
h = hashlib.sha3_256(b"abc"); results["sha3_256(abc)"] = h.hexdigest(); finals += 1
h = hashlib.sha3_256()
for i in range(0, len(message), 1000):
    h.update(message[i:i + 1000])
results["sha3_256(1 MiB in pieces)"] = h.hexdigest(); finals += 1
copy = h.copy(); copy.update(b"more")
results["sha3_256 copy"] = copy.hexdigest(); finals += 1
results["sha3_256 original after copy"] = h.hexdigest(); finals += 1
results["sha3_512(64 B)"] = hashlib.sha3_512(message[:64]).hexdigest(); finals += 1
results["sha3_224(1 MiB)"] = hashlib.new("sha3_224", message).hexdigest(); finals += 1
results["sha3_384(empty)"] = hashlib.sha3_384().hexdigest(); finals += 1
results["shake_128(abc, 200)"] = hashlib.shake_128(b"abc").hexdigest(200); finals += 1
results["shake_256(1 MiB, 64)"] = hashlib.shake_256(message).hexdigest(64); finals += 1
for length in range(0, 400, 7):
    results["sha3_256(%d)" % length] = hashlib.sha3_256(message[:length]).hexdigest(); finals += 1
after = sponge_finals()
print(json.dumps({"results": results, "finals": finals, "before": before, "after": after,
                  "sha3_256_provider": provider_of(b"SHA3-256"),
                  "shake128_provider": provider_of(b"SHAKE128"),
                  "sha256_provider": provider_of(b"SHA2-256"),
                  "hash_type": type(hashlib.sha3_256()).__module__ + "." +
                               type(hashlib.sha3_256()).__name__}))
'''


def run_child(env):
    output = subprocess.run([sys.executable, "-c", CHILD], env=env, check=True,
                            capture_output=True, text=True).stdout
    return json.loads(output)


def main():
    module_dir, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        config = os.path.join(work, "openssl.cnf")
        with open(config, "w") as out:
            out.write(f"""openssl_conf = openssl_init

[openssl_init]
providers = provider_sect
alg_section = evp_properties

[provider_sect]
default = default_sect
sponge = sponge_sect

[default_sect]
activate = 1

[sponge_sect]
module = {os.path.join(os.path.abspath(module_dir), "sponge.so")}
activate = 1

[evp_properties]
default_properties = ?provider=sponge
""")
        plain_env = {k: v for k, v in os.environ.items() if k not in ("OPENSSL_CONF", "OPENSSL_MODULES")}
        ours = run_child(dict(plain_env, OPENSSL_CONF=config))
        theirs = run_child(plain_env)
        failures = []
        if ours["hash_type"] != "_hashlib.HASH":
            failures.append(f"hashlib.sha3_256 is {ours['hash_type']}, not OpenSSL's _hashlib.HASH")
        if ours["results"] != theirs["results"]:
            differing = [k for k in ours["results"] if ours["results"][k] != theirs["results"].get(k)]
            failures.append(f"digests differ from the default provider's: {differing}")
        if ours["before"] is None or ours["after"] is None:
            failures.append("the sponge provider is not loaded under the configuration")
        elif ours["after"] - ours["before"] != ours["finals"]:
            failures.append(f"the provider counted {ours['after'] - ours['before']} finals, "
                            f"the child made {ours['finals']}")
        if ours["sha3_256_provider"] != "sponge" or ours["shake128_provider"] != "sponge":
            failures.append(f"SHA3-256 / SHAKE128 fetched from {ours['sha3_256_provider']} / "
                            f"{ours['shake128_provider']}")
        if ours["sha256_provider"] != "default":
            failures.append(f"SHA2-256 (not ours) fetched from {ours['sha256_provider']}")
        if theirs["before"] is not None or theirs["sha3_256_provider"] != "default":
            failures.append("without the configuration the provider was loaded anyway")
        for failure in failures:
            print("FAIL:", failure, file=sys.stderr)
        if failures:
            return 1
        print(f"hashlib under OPENSSL_CONF: {ours['finals']} finals counted by the sponge "
              f"provider ({ours['before']} -> {ours['after']}), {len(ours['results'])} digests "
              "equal to the default provider's; SHA3-256 and SHAKE128 fetched from sponge")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
