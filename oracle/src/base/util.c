/* util.c: allocation and the out-of-memory policy (util.h), UTF-8 text
 * that is always valid, nearest-name suggestions for messages. */
#include "util.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double zo_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- out of memory ---------------------------------------------------- */

static _Atomic(zo_oom_handler) oom_handler; /* NULL: default_oom */
static _Thread_local char activity_buf[256];

/* The library's default: the message on stderr (no allocation), abort. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
static void default_oom(const char *activity) {
  zo_oom_print(activity);
  abort();
}

void zo_oom_print(const char *activity) {
  char msg[400];
  int n = snprintf(msg, sizeof msg, "zoneoracle: out of memory%s%s\n", *activity ? " while " : "", activity);
  if (n > 0) {
    ssize_t w = write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    (void)w;
  }
}

zo_oom_handler zo_set_oom_handler(zo_oom_handler h) {
  return atomic_exchange(&oom_handler, h);
}

void zo_oom(const char *what) {
  const char *a = what && *what ? what : activity_buf;
  zo_oom_handler h = atomic_load(&oom_handler);
  if (h) h(a);
  default_oom(a); /* a handler that returned: still never return */
}

void zo_activity_set(const char *fmt, ...) {
  if (!fmt) {
    activity_buf[0] = 0;
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  zo_vsnprintf_utf8(activity_buf, sizeof activity_buf, fmt, ap);
  va_end(ap);
}

const char *zo_activity(void) { return activity_buf; }

#ifndef NDEBUG
/* ZO_FAIL_MALLOC_AFTER=N (debug builds): the allocation after the first N
 * fails, and every one after it. limit: -2 not read yet, -1 off. */
static atomic_long fail_limit = -2;
static atomic_long nallocs;

/* Whether this allocation is to fail on purpose. */
static int injected_failure(void) {
  long limit = atomic_load(&fail_limit);
  if (limit == -2) {
    const char *e = getenv("ZO_FAIL_MALLOC_AFTER");
    long v = -1;
    if (e && *e) {
      char *end;
      long x = strtol(e, &end, 10);
      if (!*end && x >= 0) v = x;
    }
    long unread = -2;
    atomic_compare_exchange_strong(&fail_limit, &unread, v);
    limit = atomic_load(&fail_limit);
  }
  return limit >= 0 && atomic_fetch_add(&nallocs, 1) >= limit;
}
#else
#define injected_failure() 0
#endif

void *zo_xmalloc(size_t n) {
  void *p = injected_failure() ? NULL : malloc(n ? n : 1);
  if (!p) zo_oom(NULL);
  return p;
}

void *zo_xcalloc(size_t n, size_t size) {
  if (!n) n = 1;
  if (!size) size = 1;
  if (n > SIZE_MAX / size) zo_oom(NULL);
  void *p = injected_failure() ? NULL : calloc(n, size);
  if (!p) zo_oom(NULL);
  return p;
}

void *zo_xrealloc(void *p, size_t n) {
  void *q = injected_failure() ? NULL : realloc(p, n ? n : 1);
  if (!q) zo_oom(NULL);
  return q;
}

char *zo_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = zo_xmalloc(n);
  memcpy(d, s, n);
  return d;
}

/* ---- UTF-8 ------------------------------------------------------------ */

/* The length a lead byte announces (2-4; 1 for ASCII), 0 for a byte that
 * starts no valid sequence (a continuation byte, C0, C1, F5-FF). */
static size_t lead_len(unsigned c) {
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return 2;
  if (c >= 0xE0 && c <= 0xEF) return 3;
  if (c >= 0xF0 && c <= 0xF4) return 4;
  return 0;
}

/* The length of the valid sequence at s[0..n) (n >= 1), 0 when s[0]
 * starts none (invalid, overlong, a surrogate, above U+10FFFF, or cut
 * short by n). */
static size_t seq_len(const unsigned char *s, size_t n) {
  size_t len = lead_len(s[0]);
  if (len <= 1) return len;
  if (n < len) return 0;
  unsigned lo = 0x80, hi = 0xBF;
  if (s[0] == 0xE0) lo = 0xA0;      /* overlong */
  else if (s[0] == 0xED) hi = 0x9F; /* surrogates */
  else if (s[0] == 0xF0) lo = 0x90; /* overlong */
  else if (s[0] == 0xF4) hi = 0x8F; /* above U+10FFFF */
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t k = 2; k < len; k++)
    if (s[k] < 0x80 || s[k] > 0xBF) return 0;
  return len;
}

size_t zo_utf8_valid_prefix(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    size_t l = seq_len(u + i, n - i);
    if (!l) return i;
    i += l;
  }
  return n;
}

size_t zo_utf8_cut(const char *s, size_t n, size_t max) {
  if (max >= n) return n;
  const unsigned char *u = (const unsigned char *)s;
  /* a sequence spanning the cut starts at most 3 bytes before it */
  for (size_t back = 1; back <= 3 && back <= max; back++) {
    unsigned c = u[max - back];
    if (c < 0x80) break;
    if (c >= 0xC0) {
      size_t l = seq_len(u + max - back, n - (max - back));
      return l > back ? max - back : max;
    }
  }
  return max;
}

/* The length of s[0..n) without a partial character at its end (a lead
 * byte followed by fewer continuation bytes than it announces). */
static size_t trim_partial(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t back = 1; back <= 3 && back <= n; back++) {
    unsigned c = u[n - back];
    if (c < 0x80) return n;
    if (c >= 0xC0) return lead_len(c) > back ? n - back : n;
  }
  return n;
}

static const char hexdig[] = "0123456789ABCDEF";

char *zo_utf8_sanitize(const char *s) {
  if (!s) s = "";
  size_t n = strlen(s), out = 0;
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    size_t l = seq_len(u + i, n - i);
    out += l ? l : 4;
    i += l ? l : 1;
  }
  char *d = zo_xmalloc(out + 1), *p = d;
  for (size_t i = 0; i < n;) {
    size_t l = seq_len(u + i, n - i);
    if (l) {
      memcpy(p, s + i, l);
      p += l;
      i += l;
    } else {
      *p++ = '\\';
      *p++ = 'x';
      *p++ = hexdig[u[i] >> 4];
      *p++ = hexdig[u[i] & 15];
      i++;
    }
  }
  *p = 0;
  return d;
}

size_t zo_utf8_copy(char *dst, size_t cap, const char *src) {
  if (!cap) return 0;
  if (!src) src = "";
  size_t n = strlen(src), used = 0;
  const unsigned char *u = (const unsigned char *)src;
  for (size_t i = 0; i < n;) {
    size_t l = seq_len(u + i, n - i);
    size_t w = l ? l : 4;
    if (used + w > cap - 1) break;
    if (l) memcpy(dst + used, src + i, l);
    else {
      dst[used] = '\\';
      dst[used + 1] = 'x';
      dst[used + 2] = hexdig[u[i] >> 4];
      dst[used + 3] = hexdig[u[i] & 15];
    }
    used += w;
    i += l ? l : 1;
  }
  dst[used] = 0;
  return used;
}

int zo_vsnprintf_utf8(char *buf, size_t cap, const char *fmt, va_list ap) {
  int w = vsnprintf(buf, cap, fmt, ap);
  if (w >= 0 && cap && (size_t)w >= cap) buf[trim_partial(buf, cap - 1)] = 0;
  return w;
}

int zo_snprintf_utf8(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int w = zo_vsnprintf_utf8(buf, cap, fmt, ap);
  va_end(ap);
  return w;
}

/* ---- names ------------------------------------------------------------ */

static size_t distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64) return (size_t)-1;
  size_t row[65];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t cost = tolower((unsigned char)a[i - 1]) ==
                            tolower((unsigned char)b[j - 1])
                        ? 0
                        : 1;
      size_t best = diag + cost;
      if (row[j] + 1 < best) best = row[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

const char *zo_nearest(const char *word, const char *const *cands, size_t n) {
  const char *best = NULL;
  size_t bestd = (size_t)-1;
  for (size_t i = 0; i < n; i++) {
    size_t d = distance(word, cands[i]);
    if (d < bestd) {
      bestd = d;
      best = cands[i];
    }
  }
  size_t len = strlen(word), limit = len / 3 > 2 ? len / 3 : 2;
  return bestd <= limit ? best : NULL;
}

void zo_join(char *buf, size_t cap, const char *const *names, size_t n) {
  size_t used = 0;
  if (!cap) return;
  buf[0] = 0;
  for (size_t i = 0; i < n; i++) {
    int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i]);
    if (w < 0 || (size_t)w >= cap - used) {
      if (cap > 4) {
        /* "..." where it fits, never inside a character */
        size_t k = zo_utf8_cut(buf, cap - 1, cap - 4);
        memcpy(buf + k, "...", 4);
      }
      return;
    }
    used += (size_t)w;
  }
}

/* ---- SHA-256 (FIPS 180-4), for rule set digests ------------------------ */

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define SHA_ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* One 64-byte block into the state h. */
static void sha256_block(uint32_t h[8], const unsigned char *b) {
  uint32_t w[64], a[8];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 |
           (uint32_t)b[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = SHA_ROR(w[i - 15], 7) ^ SHA_ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = SHA_ROR(w[i - 2], 17) ^ SHA_ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  memcpy(a, h, sizeof a);
  for (int i = 0; i < 64; i++) {
    uint32_t S1 = SHA_ROR(a[4], 6) ^ SHA_ROR(a[4], 11) ^ SHA_ROR(a[4], 25);
    uint32_t ch = (a[4] & a[5]) ^ (~a[4] & a[6]);
    uint32_t t1 = a[7] + S1 + ch + sha_k[i] + w[i];
    uint32_t S0 = SHA_ROR(a[0], 2) ^ SHA_ROR(a[0], 13) ^ SHA_ROR(a[0], 22);
    uint32_t mj = (a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]);
    uint32_t t2 = S0 + mj;
    memmove(a + 1, a, 7 * sizeof *a);
    a[4] += t1;
    a[0] = t1 + t2;
  }
  for (int i = 0; i < 8; i++) h[i] += a[i];
}

void zo_sha256_hex(const void *data, size_t len, char hex[65]) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const unsigned char *p = data;
  size_t left = len;
  for (; left >= 64; left -= 64, p += 64) sha256_block(h, p);
  unsigned char last[128] = {0};
  if (left) memcpy(last, p, left);
  last[left] = 0x80;
  size_t n = left + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = (uint64_t)len * 8;
  for (int i = 0; i < 8; i++) last[n - 1 - i] = (unsigned char)(bits >> (8 * i));
  sha256_block(h, last);
  if (n == 128) sha256_block(h, last + 64);
  for (int i = 0; i < 8; i++) snprintf(hex + 8 * i, 9, "%08x", (unsigned)h[i]);
}
