/* digest.c: what every report shares, below every file that renders one
 * (render.c, render_html.c, table_html.c, and record.c's badge): a
 * record's fields read as text, the escaping of XML, HTML and Markdown,
 * the rules a case cites, and the digest every report opens with (the
 * totals, the failures, the skips by reason, the cases under rule sets
 * the engine doesn't declare summed up in one line, the engine's stderr
 * lines several failures share, shown once) with each failure's rerun
 * command. Calls no renderer and no reader of the record (report_int.h). */
#include "report_int.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The string field k of o, "" when absent (report_int.h). */
const char *zo_record_str(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

/* s as XML (and HTML) text or attribute value: markup escaped, the
 * control characters XML 1.0 forbids dropped, U+FFFE and U+FFFF (valid
 * UTF-8, not XML characters) replaced by U+FFFD. s is valid UTF-8 (it
 * comes from the record). */
void zo_report_xml_text(FILE *f, const char *s) {
  for (; *s; s++) {
    const unsigned char *u = (const unsigned char *)s;
    switch (*s) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default:
      if (u[0] == 0xEF && u[1] == 0xBF && (u[2] == 0xBE || u[2] == 0xBF)) {
        fputs("\xEF\xBF\xBD", f);
        s += 2;
      } else if (u[0] >= 0x20 || *s == '\n' || *s == '\t') {
        fputc(*s, f);
      }
    }
  }
}

/* s in a Markdown table cell: '|' escaped, line breaks as spaces, '<'
 * and '&' as entities (no HTML of an engine's reaches a step summary). */
void zo_report_md_cell(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '|': fputs("\\|", f); break;
    case '\n': case '\r': fputc(' ', f); break;
    case '<': fputs("&lt;", f); break;
    case '&': fputs("&amp;", f); break;
    default: fputc(*s, f);
    }
  }
}

/* The rules case c cites, ", " between, each written by put (report_int.h). */
void zo_report_rules(FILE *f, const json_t *c, void (*put)(FILE *f, const char *s)) {
  size_t k;
  json_t *r;
  json_array_foreach(json_object_get(c, "rules"), k, r) {
    if (k) fputs(", ", f);
    put(f, json_string_value(r) ? json_string_value(r) : "");
  }
}

/* ---- the digest: what every report opens with ------------------------- */

/* A status that makes the run fail (the record's status words). */
int zo_report_failing_status(const char *s) {
  return !strcmp(s, "fail") || !strcmp(s, "error") || !strcmp(s, "crash") ||
         !strcmp(s, "timeout") || !strcmp(s, "xpass");
}

const char *zo_record_skip_reason(json_t *c) {
  const char *m = zo_record_str(c, "message");
  /* "file:line: skipped: why" (a step) or "skipped: why" (the case) */
  const char *k = strstr(m, "skipped: ");
  if (k) return k + 9;
  return *m ? m : "no reason given";
}

/* The n bytes at s as a new string (the caller frees). */
static char *dup_n(const char *s, size_t n) {
  char *out = zo_xmalloc(n + 1);
  memcpy(out, s, n);
  out[n] = 0;
  return out;
}

/* Where the stderr lines a message ends with begin (a crash's: its last
 * lines joined with " | "), or NULL. */
static const char *stderr_tail(const char *m) {
  const char *t = strstr(m, "; stderr: ");
  return t ? t + 10 : NULL;
}

/* One stderr line (n bytes at p) of a case whose lines so far are mine:
 * counted (pass 0), or made common when two or more cases have it (pass
 * 1). */
static void tally(zo_digest *d, json_t *count, json_t *mine, int pass, const char *p, size_t n) {
  char *line = dup_n(p, n);
  if (!json_object_get(mine, line)) { /* once per case */
    json_object_set_new(mine, line, json_true());
    long long times = json_integer_value(json_object_get(count, line));
    if (!pass) json_object_set_new(count, line, json_integer(times + 1));
    else if (times >= 2 && !json_object_get(d->stderr_seen, line)) {
      json_array_append_new(d->stderr_common, json_string(line));
      json_object_set_new(d->stderr_seen, line, json_true());
    }
  }
  free(line);
}

void zo_digest_make(zo_record *rec, zo_digest *d) {
  memset(d, 0, sizeof *d);
  json_t *ft = rec->footer;
  d->passed = json_integer_value(json_object_get(ft, "passed"));
  d->failed = json_integer_value(json_object_get(ft, "failed"));
  d->errors = json_integer_value(json_object_get(ft, "errors"));
  d->skipped = json_integer_value(json_object_get(ft, "skipped"));
  d->xfailed = json_integer_value(json_object_get(ft, "xfailed"));
  d->xpassed = json_integer_value(json_object_get(ft, "xpassed"));
  d->invalid = json_array_size(rec->invalid);
  d->not_run = json_integer_value(json_object_get(ft, "not_run"));
  d->failing = json_array();
  d->gaps = json_array();
  d->skips = json_object();
  d->newly_failing = json_array();
  d->fixed = json_array();
  d->baseline = zo_record_str(rec->header, "baseline");
  d->undeclared_by = json_object();
  d->stderr_common = json_array();
  d->stderr_seen = json_object();
  size_t i;
  json_t *c, *rsn;
  d->undeclared_order = json_object_get(rec->header, "undeclared_rulesets");
  json_array_foreach(d->undeclared_order, i, rsn)
    if (json_is_string(rsn)) json_object_set_new(d->undeclared_by, json_string_value(rsn), json_integer(0));
  json_array_foreach(rec->cases, i, c) {
    const char *st = zo_record_str(c, "status"), *was = zo_record_str(c, "was");
    if (*was && zo_report_failing_status(st) && !zo_report_failing_status(was)) json_array_append(d->newly_failing, c);
    if (*was && !strcmp(st, "pass") && zo_report_failing_status(was)) json_array_append(d->fixed, c);
    if (zo_report_failing_status(st)) json_array_append(d->failing, c);
    else if (!strcmp(st, "xfail")) json_array_append(d->gaps, c);
    else if (!strcmp(st, "skip")) {
      json_t *u = json_object_get(d->undeclared_by, zo_record_str(c, "ruleset"));
      if (u) { /* summed up in one line, never listed */
        if (!json_integer_value(u)) d->undeclared_rs++;
        json_integer_set(u, json_integer_value(u) + 1);
        d->undeclared++;
        continue;
      }
      const char *why = zo_record_skip_reason(c);
      json_t *n = json_object_get(d->skips, why);
      json_object_set_new(d->skips, why, json_integer(json_integer_value(n) + 1));
    }
  }
  /* the stderr lines two or more of the listed cases share (in their
     stderr or the last lines a crash's message quotes): shown once, in
     the order the first case that has them wrote them */
  json_t *count = json_object();
  json_t *lists[2] = {d->failing, d->gaps};
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < 2; k++) {
      json_array_foreach(lists[k], i, c) {
        json_t *mine = json_object();
        for (const char *p = zo_record_str(c, "stderr"); *p;) {
          const char *nl = strchr(p, '\n');
          size_t n = nl ? (size_t)(nl - p) : strlen(p);
          tally(d, count, mine, pass, p, n);
          p += n + (nl != NULL);
        }
        const char *tail = stderr_tail(zo_record_str(c, "message"));
        for (const char *p = tail ? tail : ""; *p;) {
          const char *sep = strstr(p, " | ");
          size_t n = sep ? (size_t)(sep - p) : strlen(p);
          tally(d, count, mine, pass, p, n);
          p += n + (sep ? 3 : 0);
        }
        json_decref(mine);
      }
    }
  json_decref(count);
}

int zo_record_undeclared(zo_record *rec, const char *rs) {
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(rec->header, "undeclared_rulesets"), i, x)
    if (json_is_string(x) && !strcmp(json_string_value(x), rs)) return 1;
  return 0;
}

void zo_digest_undeclared_line(const zo_digest *d, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = 0;
  if (!d->undeclared || !cap) return;
  int n = d->undeclared_rs;
  int w = snprintf(buf, cap, "%lld cases under %d rule set%s this engine doesn't declare:", d->undeclared, n,
                   n == 1 ? "" : "s");
  used = w > 0 ? (size_t)w : 0;
  size_t i;
  json_t *rsn;
  int k = 0;
  json_array_foreach(d->undeclared_order, i, rsn) { /* the header's order */
    const char *rs = json_string_value(rsn);
    json_t *v = rs ? json_object_get(d->undeclared_by, rs) : NULL;
    if (!json_integer_value(v) || used >= cap) continue; /* none of its cases ran */
    w = snprintf(buf + used, cap - used, "%s %s (%lld)", k++ ? "," : "", rs, json_integer_value(v));
    if (w > 0) used += (size_t)w;
  }
  if (used >= cap) buf[cap - 1] = 0;
}

char *zo_digest_stderr_own(const zo_digest *d, json_t *c) {
  const char *err = zo_record_str(c, "stderr");
  if (!*err) return NULL;
  size_t cap = strlen(err) + 128, used = 0;
  char *out = zo_xmalloc(cap);
  int dropped = 0;
  out[0] = 0;
  for (const char *p = err; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    char *line = dup_n(p, n);
    if (json_object_get(d->stderr_seen, line)) dropped++;
    else {
      memcpy(out + used, p, n);
      used += n;
      out[used++] = '\n';
    }
    free(line);
    p += n + (nl != NULL);
  }
  if (dropped)
    used += (size_t)snprintf(out + used, cap - used, "[%d line%s shown once, under the stderr common to "
                             "several cases]\n", dropped, dropped == 1 ? "" : "s");
  while (used && out[used - 1] == '\n') used--;
  out[used] = 0;
  return out;
}

char *zo_digest_message(const zo_digest *d, json_t *c) {
  return zo_report_message_dedup(zo_record_str(c, "message"), d->stderr_seen, 0, NULL);
}

char *zo_report_shell_word(const char *s) {
  static const char safe[] = "_-./,:=@%+";
  int plain = *s != 0;
  for (const char *p = s; *p && plain; p++)
    plain = isalnum((unsigned char)*p) || strchr(safe, *p);
  if (plain) return zo_xstrdup(s);
  size_t n = 3;
  for (const char *p = s; *p; p++) n += *p == '\'' ? 4 : 1;
  char *out = zo_xmalloc(n), *o = out;
  *o++ = '\'';
  for (const char *p = s; *p; p++) {
    if (*p == '\'') memcpy(o, "'\\''", 4), o += 4;
    else *o++ = *p;
  }
  *o++ = '\'';
  *o = 0;
  return out;
}

char *zo_report_message_dedup(const char *message, json_t *set, int add, int *dropped) {
  const char *tail = stderr_tail(message);
  int left = 0;
  if (!tail) {
    if (dropped) *dropped = 0;
    return zo_xstrdup(message);
  }
  size_t cap = strlen(message) + 96, used = (size_t)(tail - message);
  char *out = zo_xmalloc(cap);
  memcpy(out, message, used);
  int kept = 0;
  for (const char *p = tail; *p;) {
    const char *sep = strstr(p, " | ");
    size_t n = sep ? (size_t)(sep - p) : strlen(p);
    char *line = dup_n(p, n);
    if (json_object_get(set, line)) left++;
    else {
      if (kept++) memcpy(out + used, " | ", 3), used += 3;
      memcpy(out + used, p, n);
      used += n;
      if (add) json_object_set_new(set, line, json_true());
    }
    free(line);
    p += n + (sep ? 3 : 0);
  }
  if (!kept && used >= 10) used -= 10; /* no "; stderr: " left to say */
  out[used] = 0;
  if (left)
    snprintf(out + used, cap - used, "; %d %sline%s of stderr shown once above", left, kept ? "more " : "",
             left == 1 ? "" : "s");
  if (dropped) *dropped = left;
  return out;
}

char *zo_record_rerun(zo_record *rec, json_t *c) {
  const char *prefix = zo_record_str(rec->header, "rerun");
  if (!*prefix) return NULL;
  char *rs = zo_report_shell_word(zo_record_str(c, "ruleset"));
  char *file = zo_report_shell_word(zo_record_str(c, "file"));
  size_t n = strlen(prefix) + strlen(rs) + strlen(file) + 16;
  char *out = zo_xmalloc(n);
  snprintf(out, n, "%s --ruleset %s %s", prefix, rs, file);
  free(rs);
  free(file);
  return out;
}

void zo_digest_free(zo_digest *d) {
  json_decref(d->newly_failing);
  json_decref(d->fixed);
  json_decref(d->failing);
  json_decref(d->gaps);
  json_decref(d->skips);
  json_decref(d->undeclared_by);
  json_decref(d->stderr_common);
  json_decref(d->stderr_seen);
  memset(d, 0, sizeof *d);
}

const char *zo_digest_verdict(const zo_digest *d) {
  if (json_array_size(d->failing) || d->invalid) return "failing";
  if (d->passed) return "passing";
  return "no verdict";
}

void zo_digest_counts(const zo_digest *d, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = 0;
#define PART(...)                                                                   \
  do {                                                                              \
    if (used < cap) {                                                               \
      int w = snprintf(buf + used, cap - used, "%s", used ? " · " : "");            \
      if (w > 0) used += (size_t)w;                                                 \
    }                                                                               \
    if (used < cap) {                                                               \
      int w = snprintf(buf + used, cap - used, __VA_ARGS__);                        \
      if (w > 0) used += (size_t)w;                                                 \
    }                                                                               \
  } while (0)
  size_t failing = json_array_size(d->failing);
  if (failing) PART("%zu failing", failing);
  if (d->invalid) PART("%zu invalid case file%s", d->invalid, d->invalid == 1 ? "" : "s");
  PART("%lld passed", d->passed);
  if (d->xfailed) PART("%lld known gap%s", d->xfailed, d->xfailed == 1 ? "" : "s");
  if (d->skipped - d->undeclared) PART("%lld skipped", d->skipped - d->undeclared);
  if (d->undeclared)
    PART("%lld cases under %d undeclared rule set%s", d->undeclared, d->undeclared_rs,
         d->undeclared_rs == 1 ? "" : "s");
  if (d->not_run) PART("%lld case files not run (--max-fail)", d->not_run);
#undef PART
  if (used >= cap && cap) buf[cap - 1] = 0;
}
