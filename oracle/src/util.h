/* util.h: small helpers shared across the library: allocation that aborts
 * on exhaustion (the library reports ZO_ERR_NOMEM only where it can
 * recover; elsewhere running out of memory in a test oracle is fatal), the
 * "did you mean" lookup that error messages use, and the mark that keeps
 * invariant checks out of the fuzzers' coverage. */
#ifndef ZO_UTIL_H
#define ZO_UTIL_H

#include <stddef.h>

/* malloc/calloc/realloc/strdup that abort with a message on failure. */
void *zo_xmalloc(size_t n);
void *zo_xcalloc(size_t n, size_t size);
void *zo_xrealloc(void *p, size_t n);
char *zo_xstrdup(const char *s);

/* The candidate nearest to `word` by edit distance (case-insensitive), or
 * NULL when none is within max(2, len/3) edits. Static storage of cands. */
const char *zo_nearest(const char *word, const char *const *cands, size_t n);

/* Marks a function the fuzzers' coverage instrumentation leaves out: the
 * invariant checks that run after every fuzzed step. They measure the
 * model rather than being the code under test, and their loops over every
 * zone would otherwise flood libFuzzer's comparison tables and cost most
 * of each execution. Empty where the compiler lacks the attribute. */
#if defined(__clang__)
#define ZO_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define ZO_NO_COVERAGE
#endif

/* Join `n` names as "a, b, c" into buf (truncated with "..."). */
void zo_join(char *buf, size_t cap, const char *const *names, size_t n);

#endif
