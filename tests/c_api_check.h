/* A C API check written in plain C (C11), run from a doctest case. */
#ifndef SPONGE_TESTS_C_API_CHECK_H
#define SPONGE_TESTS_C_API_CHECK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the checks; returns how many failed and describes the first one in `first_failure`.
 * `*checks_run` receives how many checks ran. */
int sponge_c_api_check(char* first_failure, size_t first_failure_size, int* checks_run);

#ifdef __cplusplus
}
#endif

#endif
