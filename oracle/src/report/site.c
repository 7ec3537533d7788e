/* site.c: the results site (`zoneoracle site`): static pages comparing
 * engines and their versions from any number of run records, readable from
 * disk with no server, no script and no network (report.h):
 *
 *   index.html      the conformance table (one row per engine and version,
 *                   its newest run by `started`; a column per rule set),
 *                   a trend plot (inline SVG drawn here), the cases where
 *                   engines disagree, rule set by rule set, and every run;
 *   engine-*.html   one per row: its failing cases (where, expected,
 *                   observed, message, what the other engines did), known
 *                   gaps, skips by reason, and the engine's runs.
 *
 * The records are streamed a line at a time (a 50,000-case record is never
 * held whole); a run keeps, per case, its (rule set, id) key and status,
 * and the line itself only when the case did not pass. Everything after
 * the reading is linear in the cases (hash maps, dense per-row arrays).
 * The site is written in a private directory beside DIR and swapped in
 * whole (site_install). The pages are site_html.c's; the small reads both
 * files make of a zo_site are site_data.c's, below them (site_int.h). */
#define _GNU_SOURCE /* renameat2, RENAME_EXCHANGE (where ZO_HAVE_RENAMEAT2) */
#include "report_int.h"

#include "error.h"
#include "util.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "site_int.h"

/* ---- statuses -------------------------------------------------------- */

/* The status of a record's word, or -1. */
static int status_of(const char *w) {
  for (int i = 0; i < NSTATUS; i++)
    if (!strcmp(w, zo_site_status_word(i))) return i;
  return -1;
}

/* ---- interning: rule sets and (rule set, case) keys -------------------- */

/* The index of rule set rs, added when new. */
static int rs_index(zo_site *s, const char *rs) {
  json_t *v = json_object_get(s->rs_ix, rs);
  if (v) return (int)json_integer_value(v);
  int n = (int)json_array_size(s->rs_names);
  json_object_set_new(s->rs_ix, rs, json_integer(n));
  json_array_append_new(s->rs_names, json_string(rs));
  return n;
}

/* The key of case id in rule set rs, added when new (first-seen order). */
static int key_index(zo_site *s, const char *rs, const char *id) {
  int r = rs_index(s, rs);
  const char *k = zo_site_pair(s, rs, id);
  json_t *v = json_object_get(s->keys, k);
  if (v) return (int)json_integer_value(v);
  if (s->nkeys == s->capkeys) s->key_rs = zo_xrealloc(s->key_rs, (s->capkeys = s->capkeys * 2 + 256) * sizeof *s->key_rs);
  s->key_rs[s->nkeys] = r;
  json_object_set_new(s->keys, k, json_integer((json_int_t)s->nkeys));
  return (int)s->nkeys++;
}

/* The counts of run r in rule set rs (grown, zeroed, as rule sets appear). */
static long long *run_counts(zo_site_run *r, int rs) {
  if (rs >= r->ncnt) {
    r->cnt = zo_xrealloc(r->cnt, (size_t)(rs + 1) * sizeof *r->cnt);
    memset(r->cnt + r->ncnt, 0, (size_t)(rs + 1 - r->ncnt) * sizeof *r->cnt);
    r->ncnt = rs + 1;
  }
  return r->cnt[rs];
}

/* ---- reading a record -------------------------------------------------- */

/* One line of r's record (object o, consumed) at line ln. */
static zo_status take_line(zo_site *s, zo_site_run *r, json_t *o, int ln, zo_error *err) {
  const char *type = zo_record_str(o, "type");
  zo_status st = ZO_OK;
  if (!r->header && strcmp(type, "header")) {
    st = zo_error_set(err, ZO_ERR_SYNTAX, r->path, ln, 1,
                      "not a run record: its first line is a '%s' line, not the header", type);
  } else if (!strcmp(type, "header")) {
    const char *format = zo_record_str(o, "format");
    if (r->header)
      st = zo_error_set(err, ZO_ERR_SYNTAX, r->path, ln, 1, "a second header line (records joined?)");
    else if (strcmp(format, "zoneoracle-run/1"))
      st = zo_error_set(err, ZO_ERR_SYNTAX, r->path, ln, 1,
                        "not a run record: format '%s' (expected zoneoracle-run/1)", format);
    else {
      r->header = json_incref(o);
      r->engine = zo_record_str(o, "engine");
      r->version = zo_record_str(o, "engine_version");
      r->started = zo_record_str(o, "started");
      if (!*r->engine) r->engine = "(unnamed engine)";
    }
  } else if (!strcmp(type, "case")) {
    const char *id = zo_record_str(o, "id"), *rs = zo_record_str(o, "ruleset");
    const char *word = zo_record_str(o, "status");
    int stc = status_of(word);
    if (!*id || !*rs)
      st = zo_error_set(err, ZO_ERR_SYNTAX, r->path, ln, 1, "a case line without %s", *id ? "a ruleset" : "an id");
    else if (stc < 0)
      st = zo_error_set(err, ZO_ERR_SYNTAX, r->path, ln, 1, "case %s: unknown status '%s'", id, word);
    else {
      if (r->ncases == r->capcases)
        r->cases = zo_xrealloc(r->cases, (r->capcases = r->capcases * 2 + 256) * sizeof *r->cases);
      zo_site_case *c = &r->cases[r->ncases++];
      c->key = key_index(s, rs, id);
      c->st = (unsigned char)stc;
      c->line = stc == ZO_SITE_PASS ? NULL : json_incref(o);
      run_counts(r, s->key_rs[c->key])[stc]++;
      r->tot[stc]++;
    }
  } else if (!strcmp(type, "invalid")) {
    json_array_append(r->invalid, o);
  } /* the footer's totals are recounted from the lines; other types: newer records */
  json_decref(o);
  return st;
}

/* Stream the record of r into s. ZO_ERR_IO (cannot open or read) or
 * ZO_ERR_SYNTAX (not a run record: file, line, what). */
static zo_status read_record(zo_site *s, zo_site_run *r, zo_error *err) {
  FILE *f = fopen(r->path, "r");
  if (!f) return zo_error_set(err, ZO_ERR_IO, r->path, 0, 0, "cannot open: %s", strerror(errno));
  zo_activity_set("reading the run record %s", r->path);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int ln = 0;
  zo_status st = ZO_OK;
  while (!st && (n = getline(&line, &cap, f)) > 0) {
    ln++;
    json_error_t je;
    json_t *o = json_loadb(line, (size_t)n, 0, &je);
    if (!json_is_string(json_object_get(o, "type")))
      st = zo_error_set(err, ZO_ERR_SYNTAX, r->path, ln, o ? 1 : je.column, "not a run record line: %s",
                        o ? "no \"type\"" : je.text);
    else
      st = take_line(s, r, json_incref(o), ln, err);
    json_decref(o);
  }
  if (!st && ferror(f)) st = zo_error_set(err, ZO_ERR_IO, r->path, 0, 0, "cannot read: %s", strerror(errno));
  if (!st && !r->header)
    st = zo_error_set(err, ZO_ERR_SYNTAX, r->path, 1, 1, "not a run record: %s", ln ? "no header line" : "empty file");
  free(line);
  fclose(f);
  return st;
}

/* ---- what the pages are made of ----------------------------------------- */

/* Runs in time order: started, then the order given. */
static int by_started(const void *a, const void *b) {
  const zo_site_run *x = a, *y = b;
  int c = strcmp(x->started, y->started);
  return c ? c : x->order - y->order;
}

/* Rows: engine, then the newest version first. */
static int by_row(const void *a, const void *b) {
  const zo_site_run *x = *(zo_site_run *const *)a, *y = *(zo_site_run *const *)b;
  int c = strcmp(x->engine, y->engine);
  if (!c) c = strcmp(y->started, x->started);
  return c ? c : strcmp(x->version, y->version);
}

static int by_string(const void *a, const void *b) {
  return strcmp(json_string_value(*(json_t *const *)a), json_string_value(*(json_t *const *)b));
}

/* The page file of row r: "engine-SLUG.html", SLUG its engine and version
 * with anything but [A-Za-z0-9._-] as '_', made unique with the row number. */
static char *page_name(json_t *used, const zo_site_run *r, int row) {
  char slug[80];
  size_t n = 0;
  for (const char *p = r->engine; *p && n < 40; p++, n++)
    slug[n] = (strchr("._-", *p) || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')) ? *p : '_';
  slug[n++] = '-';
  for (const char *p = r->version; *p && n < sizeof slug - 1; p++, n++)
    slug[n] = (strchr("._-", *p) || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')) ? *p : '_';
  slug[n] = 0;
  char *name = zo_xmalloc(sizeof slug + 32);
  snprintf(name, sizeof slug + 32, "engine-%s.html", slug);
  if (json_object_get(used, name)) snprintf(name, sizeof slug + 32, "engine-%s-%d.html", slug, row + 1);
  json_object_set_new(used, name, json_true());
  return name;
}

/* After the reading: runs sorted, rows (the newest run of each engine and
 * version), engines, the dense per-row case index, the disagreements and
 * the rules' texts. */
static void prepare(zo_site *s) {
  zo_activity_set("building the results site");
  qsort(s->runs, (size_t)s->nruns, sizeof *s->runs, by_started);
  json_t *groups = json_object(), *engines = json_object(), *names = json_array(), *used = json_object();
  for (int i = 0; i < s->nruns; i++) {
    zo_site_run *r = &s->runs[i];
    r->row = -1;
    json_object_set_new(groups, zo_site_pair(s, r->engine, r->version), json_integer(i));
    if (!json_object_get(engines, r->engine)) {
      json_object_set_new(engines, r->engine, json_true());
      json_array_append_new(names, json_string(r->engine));
    }
    /* rule texts for tooltips: the newest record's word wins */
    size_t k, j;
    json_t *d, *rule;
    json_array_foreach(json_object_get(r->header, "ruleset_details"), k, d)
      json_array_foreach(json_object_get(d, "rules"), j, rule)
        json_object_set(s->rule_text, zo_site_pair(s, zo_record_str(d, "id"), zo_record_str(rule, "id")),
                        json_object_get(rule, "text"));
  }
  s->rows = zo_xcalloc(json_object_size(groups) + 1, sizeof *s->rows);
  const char *gk;
  json_t *gv;
  json_object_foreach(groups, gk, gv) s->rows[s->nrows++] = &s->runs[json_integer_value(gv)];
  qsort(s->rows, (size_t)s->nrows, sizeof *s->rows, by_row);
  /* engines in name order, each one colour of the plot */
  s->nengines = (int)json_array_size(names);
  s->engines = zo_xcalloc((size_t)s->nengines + 1, sizeof *s->engines);
  for (int e = 0; e < s->nengines; e++) s->engines[e] = json_array_get(names, (size_t)e);
  qsort(s->engines, (size_t)s->nengines, sizeof *s->engines, by_string);
  for (int e = 0; e < s->nengines; e++) json_object_set_new(engines, json_string_value(s->engines[e]), json_integer(e));
  for (int i = 0; i < s->nruns; i++) s->runs[i].engine_ix = (int)json_integer_value(json_object_get(engines, s->runs[i].engine));
  s->at = zo_xcalloc((size_t)s->nrows + 1, sizeof *s->at);
  for (int w = 0; w < s->nrows; w++) {
    zo_site_run *r = s->rows[w];
    r->row = w;
    r->page = page_name(used, r, w);
    s->at[w] = zo_xmalloc((s->nkeys + 1) * sizeof **s->at);
    memset(s->at[w], 0xff, (s->nkeys + 1) * sizeof **s->at); /* -1: absent */
    for (size_t c = 0; c < r->ncases; c++) s->at[w][r->cases[c].key] = (int)c;
  }
  /* a disagreement: among the rows that ran the case, one conforms and
     another does not */
  s->dis = zo_xcalloc(s->nkeys + 1, 1);
  for (size_t k = 0; k < s->nkeys; k++) {
    int yes = 0, no = 0;
    for (int w = 0; w < s->nrows; w++) {
      int st = zo_site_status(s, w, (int)k);
      if (st < 0 || st == ZO_SITE_SKIP) continue;
      if (zo_site_conforms(st)) yes = 1;
      else no = 1;
    }
    if (yes && no) {
      s->dis[k] = 1;
      s->ndis++;
    }
  }
  json_decref(groups);
  json_decref(engines);
  json_decref(used);
  s->engine_names = names; /* keeps the strings of s->engines */
}

static void site_free(zo_site *s) {
  for (int i = 0; i < s->nruns; i++) {
    zo_site_run *r = &s->runs[i];
    for (size_t c = 0; c < r->ncases; c++) json_decref(r->cases[c].line);
    free(r->cases);
    free(r->cnt);
    free(r->page);
    free(r->shown);
    json_decref(r->header);
    json_decref(r->invalid);
  }
  for (int w = 0; w < s->nrows; w++) free(s->at[w]);
  free(s->at);
  free(s->runs);
  free(s->rows);
  free(s->engines);
  free(s->dis);
  free(s->key_rs);
  free(s->kbuf);
  json_decref(s->engine_names);
  json_decref(s->keys);
  json_decref(s->rs_ix);
  json_decref(s->rs_names);
  json_decref(s->rule_text);
}

/* ---- the site directory, whole or not at all ----------------------------- */

/* A name site writes: index.html or engine-*.html. */
static int site_file(const char *n) {
  size_t l = strlen(n);
  return !strcmp(n, "index.html") || (!strncmp(n, "engine-", 7) && l > 12 && !strcmp(n + l - 5, ".html"));
}

/* Remove the site files of dir, then dir when that emptied it. */
static void remove_site(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d)))
    if (site_file(de->d_name)) unlinkat(dirfd(d), de->d_name, 0);
  closedir(d);
  rmdir(dir);
}

/* out may be replaced: absent, or a directory holding site files only. */
static zo_status check_out(const char *out, zo_error *err) {
  struct stat st;
  if (lstat(out, &st)) {
    if (errno == ENOENT) return ZO_OK;
    return zo_error_set(err, ZO_ERR_IO, out, 0, 0, "cannot look at it: %s", strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) return zo_error_set(err, ZO_ERR_IO, out, 0, 0, "not a directory");
  DIR *d = opendir(out);
  if (!d) return zo_error_set(err, ZO_ERR_IO, out, 0, 0, "cannot list it: %s", strerror(errno));
  zo_status rc = ZO_OK;
  struct dirent *de;
  while (!rc && (de = readdir(d))) {
    const char *n = de->d_name;
    struct stat fs;
    if (!strcmp(n, ".") || !strcmp(n, "..")) continue;
    if (!site_file(n) || fstatat(dirfd(d), n, &fs, AT_SYMLINK_NOFOLLOW) || !S_ISREG(fs.st_mode))
      rc = zo_error_set(err, ZO_ERR_IO, out, 0, 0,
                        "holds '%s', which zoneoracle site does not write: give --out a new or empty "
                        "directory, or a site's",
                        n);
  }
  closedir(d);
  return rc;
}

/* Swap the complete site stage (inside the private directory tmp) in as
 * out: exchanged with an existing out in one step (renameat2, where the
 * system has it: ZO_HAVE_RENAMEAT2), or renamed when out is absent; where
 * the system or file system cannot exchange, out is moved aside, the new
 * site renamed in and the old one moved back on failure (for the moment
 * between the two renames, out is absent). The old site is removed. */
static zo_status site_install(const char *tmp, const char *stage, const char *out, zo_error *err) {
  struct stat st;
  if (lstat(out, &st) && errno == ENOENT) {
    if (!rename(stage, out)) return ZO_OK;
    return zo_error_set(err, ZO_ERR_IO, out, 0, 0, "cannot move the site into place: %s", strerror(errno));
  }
#ifdef ZO_HAVE_RENAMEAT2
  if (!renameat2(AT_FDCWD, stage, AT_FDCWD, out, RENAME_EXCHANGE)) {
    remove_site(stage); /* the old site */
    return ZO_OK;
  }
  if (errno != EINVAL && errno != ENOSYS)
    return zo_error_set(err, ZO_ERR_IO, out, 0, 0, "cannot swap the site in: %s", strerror(errno));
#endif
  /* no exchange on this system or file system: aside, then in */
  char *old = zo_report_join_path(tmp, "old");
  zo_status rc = ZO_OK;
  if (rename(out, old)) {
    rc = zo_error_set(err, ZO_ERR_IO, out, 0, 0, "cannot move the old site aside: %s", strerror(errno));
  } else if (rename(stage, out)) {
    rc = zo_error_set(err, ZO_ERR_IO, out, 0, 0, "cannot move the site into place: %s", strerror(errno));
    rename(old, out);
  } else {
    remove_site(old);
  }
  free(old);
  return rc;
}

/* Write one page, name in dir, through body. */
static zo_status write_page(const char *dir, const char *name, zo_site *s, zo_site_run *r,
                            void (*body)(FILE *f, zo_site *s, zo_site_run *r), zo_error *err) {
  char *path = zo_report_join_path(dir, name);
  zo_activity_set("writing %s of the results site", name);
  FILE *f = fopen(path, "w");
  zo_status rc = ZO_OK;
  if (!f) {
    rc = zo_error_set(err, ZO_ERR_IO, path, 0, 0, "cannot create: %s", strerror(errno));
  } else {
    body(f, s, r);
    int bad = ferror(f);
    if (fclose(f) || bad) rc = zo_error_set(err, ZO_ERR_IO, path, 0, 0, "write failed: %s", strerror(errno ? errno : EIO));
  }
  free(path);
  return rc;
}

/* Write every page into the private directory tmp/site and install it. */
static zo_status build(zo_site *s, const char *out, zo_error *err) {
  char *parent, *base;
  if (zo_report_split_path(out, &parent, &base))
    return zo_error_set(err, ZO_ERR_USAGE, out, 0, 0, "not a directory the site can be written to");
  char *tmp = zo_xmalloc(strlen(parent) + strlen(base) + 40);
  sprintf(tmp, "%s/.%s.zoneoracle-site.XXXXXX", parent, base);
  zo_status rc = ZO_OK;
  if (!mkdtemp(tmp)) {
    rc = zo_error_set(err, ZO_ERR_IO, parent, 0, 0, "cannot create a temporary directory beside %s: %s", base,
                      strerror(errno));
    goto out;
  }
  char *stage = zo_report_join_path(tmp, "site");
  if (mkdir(stage, 0777)) /* the umask's mode, unlike mkdtemp's 0700 */
    rc = zo_error_set(err, ZO_ERR_IO, stage, 0, 0, "cannot create: %s", strerror(errno));
  if (!rc) rc = write_page(stage, "index.html", s, NULL, zo_site_index_page, err);
  for (int w = 0; !rc && w < s->nrows; w++)
    rc = write_page(stage, s->rows[w]->page, s, s->rows[w], zo_site_engine_page, err);
  if (!rc) rc = site_install(tmp, stage, out, err);
  remove_site(stage); /* what is left on failure */
  free(stage);
  rmdir(tmp);
out:
  free(tmp);
  free(parent);
  free(base);
  return rc;
}

zo_status zo_report_site(const char *const *paths, int n, const char *out, zo_site_summary *sum, zo_error *err) {
  if (sum) memset(sum, 0, sizeof *sum);
  if (n < 1) return zo_error_set(err, ZO_ERR_USAGE, "", 0, 0, "no run record given");
  zo_status rc = check_out(out, err);
  if (rc) return rc;
  zo_site s = {0};
  s.keys = json_object();
  s.rs_ix = json_object();
  s.rs_names = json_array();
  s.rule_text = json_object();
  s.runs = zo_xcalloc((size_t)n, sizeof *s.runs);
  for (int i = 0; i < n && !rc; i++) {
    zo_site_run *r = &s.runs[s.nruns++];
    r->path = paths[i];
    r->shown = zo_utf8_sanitize(paths[i]);
    r->order = i;
    r->invalid = json_array();
    rc = read_record(&s, r, err);
  }
  if (!rc) {
    prepare(&s);
    rc = build(&s, out, err);
  }
  if (!rc && sum) {
    sum->runs = s.nruns;
    sum->engines = s.nengines;
    sum->rows = s.nrows;
    sum->disagreements = s.ndis;
    for (int i = 0; i < s.nruns; i++) sum->cases += (long long)s.runs[i].ncases;
  }
  site_free(&s);
  zo_activity_set(NULL);
  return rc;
}
