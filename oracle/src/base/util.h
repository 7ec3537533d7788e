/* util.h: small helpers shared across the library: allocation and the
 * out-of-memory policy, UTF-8 text that is always valid, the "did you
 * mean" lookup that error messages use, and the mark that keeps invariant
 * checks out of the fuzzers' coverage.
 *
 * Out of memory, one policy for the whole library:
 *
 *   Running out of memory is never a verdict. No case is ever reported
 *   invalid, failed or errored because an allocation failed, and no
 *   function hands ZO_ERR_NOMEM to a caller that would turn it into one.
 *   Every allocation goes through zo_xmalloc and its siblings (or, for
 *   memory a library such as libyaml allocated, is checked and passed to
 *   zo_oom); when one fails they call zo_oom(), which calls the process's
 *   out-of-memory handler and never returns. Code that still meets
 *   ZO_ERR_NOMEM (a status from a lower layer) calls zo_oom() rather than
 *   reporting it.
 *
 *   The handler gets a description of what was being done: the argument
 *   of zo_oom, or else the calling thread's activity, which code that
 *   knows (the CLI, the runner) keeps current with zo_activity_set
 *   ("loading cases/x.yaml"). The default handler prints "zoneoracle: out
 *   of memory while <activity>" on stderr and aborts; the zoneoracle
 *   command installs one that prints the same line and exits 2 (_exit:
 *   nothing half-written is committed; an unfinished report set stays a
 *   temporary directory that the next run removes, report.h).
 *
 *   Debug builds (NDEBUG not defined) can fail allocations on purpose:
 *   with ZO_FAIL_MALLOC_AFTER=N in the environment, the first N
 *   allocations through zo_xmalloc and its siblings succeed and the next
 *   one fails (oracle/tests/oom.sh). Release builds ignore the variable.
 */
#ifndef ZO_UTIL_H
#define ZO_UTIL_H

#include <stdarg.h>
#include <stddef.h>

/* malloc/calloc/realloc/strdup that never return NULL: on failure they
 * call zo_oom(NULL). zo_xcalloc also fails (rather than wrapping) when
 * n * size overflows. */
void *zo_xmalloc(size_t n);
/* A monotonic clock, in seconds (CLOCK_MONOTONIC: only differences mean
 * anything): the one clock of the library and the CLI. */
double zo_now(void);
void *zo_xcalloc(size_t n, size_t size);
void *zo_xrealloc(void *p, size_t n);
char *zo_xstrdup(const char *s);

/* An out-of-memory handler: told what was being done (never NULL, may be
 * ""); must not return (it exits or aborts). It must not allocate. */
typedef void (*zo_oom_handler)(const char *activity);

/* Install h as the process's out-of-memory handler (NULL: the default,
 * which prints and aborts); returns the previous one (NULL for the
 * default). Call it once at start-up, before any other thread runs. */
zo_oom_handler zo_set_oom_handler(zo_oom_handler h);

/* Write "zoneoracle: out of memory while <activity>" (or without "while"
 * for an empty activity) to stderr with write(2): allocates nothing, for
 * out-of-memory handlers. */
void zo_oom_print(const char *activity);

/* Out of memory: call the handler with `what` ("loading cases/x.yaml"),
 * or with the thread's activity when what is NULL or "". Never returns. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void zo_oom(const char *what);

/* What the calling thread is doing, for an out-of-memory message: printf
 * into a per-thread buffer (no allocation; cut at 255 bytes on a UTF-8
 * boundary). zo_activity_set(NULL) clears it. zo_activity returns it
 * ("" when none), valid until the next zo_activity_set of this thread. */
void zo_activity_set(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
const char *zo_activity(void);

/* ---- UTF-8 ------------------------------------------------------------
 * Every string that enters a report (run.jsonl, junit.xml, summary.md,
 * index.html, badge.json) is valid UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF): zo_utf8_sanitize at the door, and
 * fixed buffers cut on character boundaries (zo_utf8_cut,
 * zo_snprintf_utf8) so that nothing is lost to a cut mid-character. */

/* The number of leading bytes of s[0..n) that are valid UTF-8: n when all
 * are, else the offset of the first byte that starts no valid sequence
 * (which includes a sequence cut short by the end of the buffer). */
size_t zo_utf8_valid_prefix(const char *s, size_t n);

/* The largest k <= max (and <= n) such that s[0..k) does not end inside a
 * valid multi-byte sequence of s[0..n): where to cut s so that no
 * character is split. Bytes that are invalid anyway are cut anywhere. */
size_t zo_utf8_cut(const char *s, size_t n, size_t max);

/* A copy of s (NUL-terminated; NULL is taken as "") that is valid UTF-8:
 * each byte that starts no valid sequence becomes the four characters
 * "\xNN" (its value in hex), so a Latin-1 file name stays readable.
 * malloc'd, the caller frees; never NULL (zo_oom). */
char *zo_utf8_sanitize(const char *s);

/* Copy src into dst (cap > 0 bytes with its NUL), sanitized like
 * zo_utf8_sanitize and cut on a character boundary when it does not fit.
 * Returns the length written. No allocation. */
size_t zo_utf8_copy(char *dst, size_t cap, const char *src);

/* snprintf into buf (cap > 0), then, when the text was cut, drop a
 * partial character the cut left at the end. Returns what snprintf
 * returned (the untruncated length, or < 0 on a format error). The text
 * is not otherwise checked: arguments that hold invalid bytes keep them
 * (sanitize where the text enters a report). */
int zo_snprintf_utf8(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int zo_vsnprintf_utf8(char *buf, size_t cap, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;

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

/* Join `n` names as "a, b, c" into buf (truncated with "...", never
 * inside a character). */
void zo_join(char *buf, size_t cap, const char *const *names, size_t n);

/* The SHA-256 digest (FIPS 180-4) of len bytes at data, as 64 lower-case
 * hex digits and a NUL in hex[65]. Pure; never fails. A rule set's digest
 * (zo_ruleset.digest) is made of it, so engines in any language can
 * compute the same (Python: hashlib.sha256). */
void zo_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
