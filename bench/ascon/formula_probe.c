// The ascon-amd64-bmi2 kernel's entries timed directly, for comparing builds of it: p12 and
// p6 per call, and the Hash absorb and AEAD encrypt block loops over 1 MiB. The kernel's
// header records what this measured for each substitution formula.
//
// To compare formulas: set kMeasuredFormula in generator/kernels/ascon_amd64_bmi2.cpp, run
// `spongegen generate --out DIR` into a scratch folder for each, then for each DIR
//   gcc -O2 bench/ascon/formula_probe.c -x assembler-with-cpp DIR/ascon_p320_amd64_bmi2.S
// and run the programs one after the other, a few times. Each figure is the best of 300
// x 2,000 calls, or of 15 passes over 1 MiB: other programs on the machine only add time.
#include <stdint.h>
#include <stdio.h>
#include <time.h>

void sponge_ascon_p320_amd64_bmi2_p12(uint64_t state[5]);
void sponge_ascon_p320_amd64_bmi2_p6(uint64_t state[5]);
void sponge_ascon_p320_amd64_bmi2_absorb_hash(uint64_t state[5], const uint8_t* blocks,
                                              size_t block_count);
void sponge_ascon_p320_amd64_bmi2_encrypt(uint64_t state[5], const uint8_t* in, uint8_t* out,
                                          size_t block_count);

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static uint8_t in[1 << 20], out[1 << 20];

int main(void) {
  uint64_t state[5] = {1, 2, 3, 4, 5};
  double p12 = 1e9, p6 = 1e9, hash = 1e9, encrypt = 1e9;
  for (int r = 0; r < 300; r++) {
    double t = now_ns();
    for (int i = 0; i < 2000; i++)
      sponge_ascon_p320_amd64_bmi2_p12(state);
    t = (now_ns() - t) / 2000;
    if (t < p12) p12 = t;
    t = now_ns();
    for (int i = 0; i < 2000; i++)
      sponge_ascon_p320_amd64_bmi2_p6(state);
    t = (now_ns() - t) / 2000;
    if (t < p6) p6 = t;
  }
  for (int r = 0; r < 15; r++) {
    double t = now_ns();
    sponge_ascon_p320_amd64_bmi2_absorb_hash(state, in, sizeof in / 8);
    t = (now_ns() - t) / sizeof in;
    if (t < hash) hash = t;
    t = now_ns();
    sponge_ascon_p320_amd64_bmi2_encrypt(state, in, out, sizeof in / 16);
    t = (now_ns() - t) / sizeof in;
    if (t < encrypt) encrypt = t;
  }
  // The state's first word is printed so that the builds can be seen to agree.
  printf("p12 %.2f ns  p6 %.2f ns  Hash absorb %.3f ns/B  AEAD encrypt %.3f ns/B  (x0 %016llx)\n",
         p12, p6, hash, encrypt, (unsigned long long)state[0]);
  return 0;
}
