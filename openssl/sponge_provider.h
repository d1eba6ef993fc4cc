/* The names the sponge OpenSSL provider adds to OpenSSL's: its parameters beyond
 * core_names.h, for programs that set them through EVP (docs/openssl.md lists each with the
 * algorithms that take it). */
#ifndef SPONGE_PROVIDER_H
#define SPONGE_PROVIDER_H

/* Digest parameters (EVP_MD_CTX_set_params, or EVP_DigestInit_ex2's params). */
/* cSHAKE's function name N (octet string). */
#define SPONGE_DIGEST_PARAM_FUNCTION_NAME "function-name"
/* cSHAKE's S, KT128/KT256's C, ParallelHash's S, Ascon-CXOF128's Z (octet string). */
#define SPONGE_DIGEST_PARAM_CUSTOMIZATION "customization-string"
/* TurboSHAKE's domain byte D, 0x01..0x7F (unsigned integer; 0x1F by default). */
#define SPONGE_DIGEST_PARAM_DOMAIN "domain"
/* ParallelHash's block size B in bytes (size_t; 8192 by default). */
#define SPONGE_DIGEST_PARAM_LEAF_BYTES "leaf-bytes"
/* ParallelHash: 1 for ParallelHashXOF, 0 (the default) for ParallelHash (int). */
#define SPONGE_DIGEST_PARAM_XOF "xof"
/* KT128/KT256, ParallelHash: threads for long inputs, 0 = one per CPU (unsigned; 1 by default). */
#define SPONGE_DIGEST_PARAM_THREADS "threads"

/* Provider parameters (OSSL_PROVIDER_get_params). */
/* How many digest, MAC and cipher finals the provider has completed in this process
 * (uint64): the proof that a program's hashing reached it. */
#define SPONGE_PROV_PARAM_FINALS "sponge-finals"
/* The Keccak-p[1600] kernel the library chose for this CPU (UTF-8 pointer). */
#define SPONGE_PROV_PARAM_KERNEL "sponge-kernel"

#endif
