/* What libsponge.so exports. The library is compiled with hidden visibility: only what the
 * public headers declare is exported, the C functions (SPONGE_API on each) and the C++ API,
 * whose declarations sit between SPONGE_API_BEGIN and SPONGE_API_END (the classes and
 * functions the headers' inline code calls included). Everything declared only in the
 * library's own sources stays inside it. The export list is checked against a recorded
 * baseline (docs/linking.md). Empty where there is no ELF symbol visibility (Windows: the
 * library is static there). */
#ifndef SPONGE_EXPORT_H
#define SPONGE_EXPORT_H
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define SPONGE_API __attribute__((visibility("default")))
#define SPONGE_API_BEGIN _Pragma("GCC visibility push(default)")
#define SPONGE_API_END _Pragma("GCC visibility pop")
#else
#define SPONGE_API
#define SPONGE_API_BEGIN
#define SPONGE_API_END
#endif
#endif /* SPONGE_EXPORT_H */
