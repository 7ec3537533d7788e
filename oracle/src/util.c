/* util.c: allocation helpers and nearest-name suggestions for messages. */
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void) {
  fputs("zoneoracle: out of memory\n", stderr);
  abort();
}

void *zo_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) oom();
  return p;
}

void *zo_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) oom();
  return p;
}

void *zo_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) oom();
  return q;
}

char *zo_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = zo_xmalloc(n);
  memcpy(d, s, n);
  return d;
}

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
  buf[0] = 0;
  for (size_t i = 0; i < n; i++) {
    int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i]);
    if (w < 0 || (size_t)w >= cap - used) {
      if (cap > 4) strcpy(buf + cap - 4, "...");
      return;
    }
    used += (size_t)w;
  }
}
