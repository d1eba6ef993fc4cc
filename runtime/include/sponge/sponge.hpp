// sponge: Keccak-256, SHA3-224/256/384/512 and SHAKE128/256 on generated kernels; the
// Keccak-p[1600,12] functions of RFC 9861 (TurboSHAKE128/256, KT128/KT256); the SP 800-185
// functions (cSHAKE, KMAC, KMACXOF, TupleHash, ParallelHash and their XOF forms); Ascon
// (NIST SP 800-232: Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128, Ascon-AEAD128).
//
// No hashing path allocates heap memory but the tree modes' threaded forms (kt128_parallel and
// the like, and the classes built with sponge::Threads). The one-shot functions are noexcept,
// except where a parameter can be out of range (a TurboSHAKE domain byte, a ParallelHash block
// size): those throw std::invalid_argument (so do an Ascon-CXOF128 customization string over 256
// bytes and AEAD buffers of different lengths). The streaming classes throw std::logic_error only
// on misuse (absorbing or taking a digest after squeezing has begun); building an exception is the
// one allocation. The batch functions throw std::invalid_argument when the digest count differs
// from the message count.
//
// This header includes every family's header; each can also be included on its own:
#pragma once

#include "sponge/ascon.hpp"      // Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128, Ascon-AEAD128
#include "sponge/batch.hpp"      // batch hashing, Shake128x4 / Shake256x4
#include "sponge/keccak.hpp"     // Keccak-256, SHA3-*, SHAKE* (FIPS 202)
#include "sponge/kernels.hpp"    // keccak_f1600, active_kernel, KernelFamily
#include "sponge/rfc9861.hpp"    // TurboSHAKE, KT128, KT256
#include "sponge/sp800_185.hpp"  // cSHAKE, KMAC, TupleHash, ParallelHash
#include "sponge/threads.hpp"    // Threads, the threaded tree forms' count
