/* site_data.c: the small reads of a results site (site_int.h) that
 * site.c (reading the records, writing the directory) and site_html.c
 * (the pages) both make, below both: a status's word, whether it
 * conforms, a case's status and line in a row, and the scratch key of a
 * (rule set, case) pair. */
#include <jansson.h>
#include <string.h>

#include "util.h"
#include "site_int.h"

static const char *const status_words[NSTATUS] = {"pass",  "fail",    "error", "skip",
                                                  "crash", "timeout", "xfail", "xpass"};

const char *zo_site_status_word(int st) { return st >= 0 && st < NSTATUS ? status_words[st] : "?"; }

/* "a\x1fb" in s's scratch buffer (valid until the next call). */
const char *zo_site_pair(zo_site *s, const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la + lb + 2 > s->kcap) s->kbuf = zo_xrealloc(s->kbuf, s->kcap = la + lb + 64);
  memcpy(s->kbuf, a, la);
  s->kbuf[la] = '\x1f';
  memcpy(s->kbuf + la + 1, b, lb + 1);
  return s->kbuf;
}

int zo_site_status(const zo_site *s, int row, int key) {
  int c = s->at[row][key];
  return c < 0 ? -1 : s->rows[row]->cases[c].st;
}

json_t *zo_site_line(const zo_site *s, int row, int key) {
  int c = s->at[row][key];
  return c < 0 ? NULL : s->rows[row]->cases[c].line;
}

int zo_site_conforms(int st) { return st == ZO_SITE_PASS || st == ZO_SITE_XPASS; }
