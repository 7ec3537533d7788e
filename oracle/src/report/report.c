/* report.c: the run record, the reports rendered from it, and the report
 * set that carries them into the report directory (report.h).
 *
 * The JSON Lines record (jansson) is the source of truth: a header (run
 * id, suite commit, rule sets, engine and version), one line per case and
 * rule set (status, file:line, expected vs observed on failure, cited
 * rules, rule hits), one per invalid case file, a footer with the totals.
 * JUnit XML (what CI systems read), a Markdown summary (a CI step
 * summary) and the HTML page are rendered by reading that record back, so
 * they can never disagree with it. Every string enters the record through
 * jstr (valid UTF-8, util.h), so none is refused and no line is lost.
 */
#define _GNU_SOURCE /* renameat2, RENAME_EXCHANGE */
#include "report.h"

#include "model.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Fill err as an I/O error on path: "what: strerror(errno)". */
static zo_status io_fail(zo_error *err, const char *path, const char *what) {
  int e = errno;
  if (err) {
    err->code = ZO_ERR_IO;
    zo_utf8_copy(err->file, sizeof err->file, path);
    err->line = err->column = 0;
    zo_snprintf_utf8(err->message, sizeof err->message, "%s: %s", what, strerror(e));
  }
  return ZO_ERR_IO;
}

/* Fill err as an I/O error on path with a message of its own. */
static zo_status io_msg(zo_error *err, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static zo_status io_msg(zo_error *err, const char *path, const char *fmt, ...) {
  if (err) {
    err->code = ZO_ERR_IO;
    zo_utf8_copy(err->file, sizeof err->file, path);
    err->line = err->column = 0;
    va_list ap;
    va_start(ap, fmt);
    zo_vsnprintf_utf8(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return ZO_ERR_IO;
}

/* "a/b" in a new string (the caller frees). */
static char *join_path(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *p = zo_xmalloc(la + lb + 2);
  memcpy(p, a, la);
  p[la] = '/';
  memcpy(p + la + 1, b, lb + 1);
  return p;
}

FILE *zo_report_open(const char *path, char *tmp, size_t cap) {
  snprintf(tmp, cap, "%s.tmp.%ld", path, (long)getpid());
  unlink(tmp); /* one a dead process of the same pid left */
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    int e = errno;
    close(fd);
    unlink(tmp);
    errno = e;
  }
  return f;
}

zo_status zo_report_commit(FILE *f, const char *tmp, const char *path, zo_error *err) {
  int bad = ferror(f);
  if (fclose(f) || bad) {
    if (bad && !errno) errno = EIO;
    zo_status st = io_fail(err, path, "write failed");
    remove(tmp);
    return st;
  }
  if (rename(tmp, path)) {
    zo_status st = io_fail(err, path, "rename failed");
    remove(tmp);
    return st;
  }
  return ZO_OK;
}

/* ---- report sets ------------------------------------------------------ */

const char *const zo_report_set_names[] = {"run.jsonl",  "junit.xml",  "summary.md", "index.html",
                                           "badge.json", "protocol.jsonl", NULL};

#define LOCK_NAME ".zoneoracle.lock"
#define TMP_PREFIX ".zoneoracle-tmp." /* in-place staging, inside DIR */

struct zo_report_set {
  char *real;    /* DIR, resolved (realpath) */
  char *parent;  /* its parent directory */
  char *base;    /* its last component */
  char *staging; /* where the files are written */
  char run_id[64];
  int lockfd;
  int swap;      /* 1: staging beside DIR, exchanged whole; 0: in DIR, file by file */
  char note[300];
};

/* Whether name is one of zo_report_set_names (a file a set owns). */
static int is_report_name(const char *name) {
  for (int i = 0; zo_report_set_names[i]; i++)
    if (!strcmp(name, zo_report_set_names[i])) return 1;
  return 0;
}

/* NAME.tmp.PID of a process that is gone (zo_report_open's temporary
 * files, this version's and older ones'). */
static int dead_tmp_file(const char *name) {
  const char *t = strstr(name, ".tmp.");
  if (!t) return 0;
  for (const char *n; (n = strstr(t + 1, ".tmp.")); t = n) {}
  const char *d = t + 5;
  if (!*d || strlen(d) > 9 || strspn(d, "0123456789") != strlen(d)) return 0;
  long pid = atol(d);
  if (pid <= 0 || pid == (long)getpid()) return 0;
  return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Remove the files (and symlinks) directly in dir, then dir itself when
 * that left it empty; subdirectories are never touched. */
static void remove_files_and_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  int dfd = dirfd(d);
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    struct stat st;
    if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || S_ISDIR(st.st_mode)) continue;
    unlinkat(dfd, de->d_name, 0);
  }
  closedir(d);
  rmdir(dir);
}

/* An interrupted run's temporary directory t of report directory real.
 * Its files and symlinks are the set's own (reports, their temporary
 * files, the lock) or copies of real's (hard links, recreated symlinks):
 * removed. Anything else (a folder, a FIFO) is real's own, caught by a
 * kill between the exchange and its move back: it goes back into real
 * when real lacks that name, else it stays (never deleted). */
static void recover_stale(const char *t, const char *real) {
  DIR *d = opendir(t);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d))) {
    const char *n = de->d_name;
    if (!strcmp(n, ".") || !strcmp(n, "..")) continue;
    char *in_real = join_path(real, n), *in_t = join_path(t, n);
    struct stat st, rst;
    if (!lstat(in_t, &st) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode) && lstat(in_real, &rst) &&
        errno == ENOENT)
      rename(in_t, in_real);
    free(in_real);
    free(in_t);
  }
  closedir(d);
  remove_files_and_dir(t);
}

/* What interrupted runs left, with the lock of real held: temporary
 * directories in real and beside it, and temporary files of dead
 * processes in real. */
static void clean_stale(const char *real, const char *parent, const char *base) {
  DIR *d = opendir(real);
  if (d) {
    struct dirent *de;
    while ((de = readdir(d))) {
      const char *n = de->d_name;
      char *p = join_path(real, n);
      struct stat st;
      if (!lstat(p, &st)) {
        if (S_ISDIR(st.st_mode) && !strncmp(n, TMP_PREFIX, strlen(TMP_PREFIX))) recover_stale(p, real);
        else if (S_ISREG(st.st_mode) && dead_tmp_file(n)) unlink(p);
      }
      free(p);
    }
    closedir(d);
  }
  if (!parent) return;
  char *prefix = zo_xmalloc(strlen(base) + 32);
  sprintf(prefix, ".%s.zoneoracle-tmp.", base);
  if ((d = opendir(parent))) {
    struct dirent *de;
    while ((de = readdir(d))) {
      if (strncmp(de->d_name, prefix, strlen(prefix))) continue;
      char *p = join_path(parent, de->d_name);
      struct stat st;
      if (!lstat(p, &st) && S_ISDIR(st.st_mode)) recover_stale(p, real);
      free(p);
    }
    closedir(d);
  }
  free(prefix);
}

/* Take the exclusive lock on real/.zoneoracle.lock: its descriptor, or -1
 * with err filled (dir names the directory as the user gave it). */
static int take_lock(const char *dir, const char *real, zo_error *err) {
  char *path = join_path(real, LOCK_NAME);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) {
    io_fail(err, path, "cannot open the lock file");
    free(path);
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB)) {
    int e = errno;
    if (e == EWOULDBLOCK) {
      char buf[32] = "";
      ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
      long pid = n > 0 ? atol(buf) : 0;
      /* the message names the directory: err->file stays empty */
      if (pid > 0)
        io_msg(err, "", "report directory %s is in use by another zoneoracle run (pid %ld)", dir, pid);
      else
        io_msg(err, "", "report directory %s is in use by another zoneoracle run", dir);
    } else {
      errno = e;
      io_fail(err, path, "cannot lock");
    }
    close(fd);
    free(path);
    return -1;
  }
  free(path);
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
  if (ftruncate(fd, 0) == 0) {
    ssize_t w = pwrite(fd, buf, (size_t)n, 0);
    (void)w;
  }
  return fd;
}

zo_status zo_report_dir_lock(const char *dir, int *fd, zo_error *err) {
  char *real = realpath(dir, NULL);
  if (!real) return io_fail(err, dir, "cannot resolve");
  *fd = take_lock(dir, real, err);
  if (*fd >= 0) clean_stale(real, NULL, NULL);
  free(real);
  return *fd < 0 ? ZO_ERR_IO : ZO_OK;
}

void zo_report_dir_unlock(int fd) {
  if (fd >= 0) close(fd); /* closing the last descriptor releases the flock */
}

/* Free s (not the lock, not the directories). */
static void set_free(zo_report_set *s) {
  free(s->real);
  free(s->parent);
  free(s->base);
  free(s->staging);
  free(s);
}

/* mkdtemp(dir/prefix<stamp>-XXXXXX) into s->staging and the run id from
 * its name; 0, or -1 with errno set. */
static int make_staging(zo_report_set *s, const char *dir, const char *prefix, const char *stamp) {
  size_t n = strlen(dir) + strlen(prefix) + strlen(stamp) + 16;
  char *t = zo_xmalloc(n);
  snprintf(t, n, "%s/%s%s-XXXXXX", dir, prefix, stamp);
  if (!mkdtemp(t)) {
    int e = errno;
    free(t);
    errno = e;
    return -1;
  }
  free(s->staging);
  s->staging = t;
  snprintf(s->run_id, sizeof s->run_id, "%s", t + strlen(dir) + 1 + strlen(prefix));
  return 0;
}

zo_status zo_report_set_begin(const char *dir, zo_report_set **out, zo_error *err) {
  *out = NULL;
  zo_report_set *s = zo_xcalloc(1, sizeof *s);
  s->lockfd = -1;
  if (!(s->real = realpath(dir, NULL))) {
    set_free(s);
    return io_fail(err, dir, "cannot resolve");
  }
  struct stat st, pst;
  int gone = stat(s->real, &st);
  if (gone || !S_ISDIR(st.st_mode)) {
    if (!gone) errno = ENOTDIR;
    zo_status r = io_fail(err, dir, "not a report directory");
    set_free(s);
    return r;
  }
  char *slash = strrchr(s->real, '/');
  if (slash && slash[1]) {
    s->base = zo_xstrdup(slash + 1);
    s->parent = slash == s->real ? zo_xstrdup("/") : zo_xmalloc((size_t)(slash - s->real) + 1);
    if (slash != s->real) {
      memcpy(s->parent, s->real, (size_t)(slash - s->real));
      s->parent[slash - s->real] = 0;
    }
  }
  if ((s->lockfd = take_lock(dir, s->real, err)) < 0) {
    set_free(s);
    return ZO_ERR_IO;
  }
  clean_stale(s->real, s->parent, s->base);
  char stamp[32];
  time_t now = time(NULL);
  struct tm tmv;
  strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime_r(&now, &tmv));
  /* exchanged whole where that can work */
  char cwd[PATH_MAX];
  size_t rl = strlen(s->real);
  if (!s->parent) snprintf(s->note, sizeof s->note, "it is the root directory");
  else if (getcwd(cwd, sizeof cwd) && !strncmp(cwd, s->real, rl) && (cwd[rl] == '/' || !cwd[rl]))
    snprintf(s->note, sizeof s->note, "it is or contains the current directory");
  else if (stat(s->parent, &pst) || pst.st_dev != st.st_dev)
    snprintf(s->note, sizeof s->note, "it is a mount point");
  else {
    char *prefix = zo_xmalloc(strlen(s->base) + 32);
    sprintf(prefix, ".%s.zoneoracle-tmp.", s->base);
    if (make_staging(s, s->parent, prefix, stamp) == 0) s->swap = 1;
    else zo_snprintf_utf8(s->note, sizeof s->note, "no directory can be made in %s: %s", s->parent, strerror(errno));
    free(prefix);
  }
  if (!s->swap && make_staging(s, s->real, TMP_PREFIX, stamp)) {
    zo_status r = io_fail(err, dir, "cannot create a temporary directory");
    zo_report_set_abandon(s);
    return r;
  }
  *out = s;
  return ZO_OK;
}

const char *zo_report_set_staging(const zo_report_set *s) { return s->staging; }
const char *zo_report_set_run_id(const zo_report_set *s) { return s->run_id; }
const char *zo_report_set_note(const zo_report_set *s) { return s->note[0] ? s->note : NULL; }
char *zo_report_set_path(const zo_report_set *s, const char *name) { return join_path(s->staging, name); }

void zo_report_set_abandon(zo_report_set *s) {
  if (!s) return;
  if (s->staging) remove_files_and_dir(s->staging);
  zo_report_dir_unlock(s->lockfd);
  set_free(s);
}

/* The file-by-file install: each report file of the staging directory
 * renamed into DIR, then those it lacks removed from DIR. */
static zo_status install_files(zo_report_set *s, zo_error *err) {
  zo_status st = ZO_OK;
  for (int i = 0; zo_report_set_names[i]; i++) {
    char *from = join_path(s->staging, zo_report_set_names[i]);
    char *to = join_path(s->real, zo_report_set_names[i]);
    struct stat sb;
    if (!lstat(from, &sb)) {
      if (rename(from, to) && !st) st = io_fail(err, to, "cannot move the report into place");
    } else if (unlink(to) && errno != ENOENT && !st) {
      st = io_fail(err, to, "cannot remove the previous run's report");
    }
    free(from);
    free(to);
  }
  return st;
}

/* Why the exchange cannot be done, into s->note (printf); returns 1. */
static int cannot(zo_report_set *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int cannot(zo_report_set *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  zo_vsnprintf_utf8(s->note, sizeof s->note, fmt, ap);
  va_end(ap);
  return 1;
}

/* The whole-directory exchange: the staging directory takes DIR's mode,
 * the lock file and DIR's foreign files (hard links) and symlinks
 * (copies), then the two are exchanged and DIR's other foreign entries
 * (folders, FIFOs...) moved over. 0 when the exchange happened; -1 before
 * it (s->note says why; DIR untouched, the staging directory may hold
 * links, removed with it). */
static int exchange_dirs(zo_report_set *s) {
  struct stat st;
  int bad = 0;
  if (stat(s->real, &st) || chmod(s->staging, st.st_mode & 07777))
    bad = cannot(s, "the staging directory cannot take the mode of %s: %s", s->real, strerror(errno));
  char *lock_from = join_path(s->real, LOCK_NAME), *lock_to = join_path(s->staging, LOCK_NAME);
  if (!bad && link(lock_from, lock_to))
    bad = cannot(s, "no hard link can be made in %s: %s", s->parent, strerror(errno));
  free(lock_from);
  free(lock_to);
  char **later = NULL; /* foreign entries that are neither files nor symlinks */
  size_t nlater = 0;
  DIR *d = bad ? NULL : opendir(s->real);
  if (!bad && !d) bad = cannot(s, "%s cannot be listed: %s", s->real, strerror(errno));
  struct dirent *de;
  while (d && !bad && (de = readdir(d))) {
    const char *n = de->d_name;
    if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, LOCK_NAME) || is_report_name(n) ||
        !strncmp(n, TMP_PREFIX, strlen(TMP_PREFIX)))
      continue;
    char *from = join_path(s->real, n), *to = join_path(s->staging, n);
    struct stat sb;
    if (lstat(from, &sb)) {
      /* gone since readdir */
    } else if (S_ISREG(sb.st_mode)) {
      if (link(from, to)) bad = cannot(s, "%s cannot be hard-linked: %s", from, strerror(errno));
    } else if (S_ISLNK(sb.st_mode)) {
      char target[PATH_MAX];
      ssize_t len = readlink(from, target, sizeof target - 1);
      if (len >= 0) target[len] = 0;
      if (len < 0 || symlink(target, to))
        bad = cannot(s, "the symlink %s cannot be copied: %s", from, strerror(errno));
    } else {
      later = zo_xrealloc(later, (nlater + 1) * sizeof *later);
      later[nlater++] = zo_xstrdup(n);
    }
    free(from);
    free(to);
  }
  if (d) closedir(d);
  if (!bad && renameat2(AT_FDCWD, s->staging, AT_FDCWD, s->real, RENAME_EXCHANGE))
    bad = cannot(s, "the file system cannot exchange directories: %s", strerror(errno));
  if (!bad) /* the old directory is at s->staging now */
    for (size_t i = 0; i < nlater; i++) {
      char *from = join_path(s->staging, later[i]), *to = join_path(s->real, later[i]);
      if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) && errno == EINVAL) {
        struct stat sb; /* no RENAME_NOREPLACE here: look, then rename */
        if (lstat(to, &sb) && errno == ENOENT) rename(from, to);
      }
      free(from);
      free(to);
    }
  for (size_t i = 0; i < nlater; i++) free(later[i]);
  free(later);
  return bad ? -1 : 0;
}

zo_status zo_report_set_commit(zo_report_set *s, char *note, size_t cap, zo_error *err) {
  zo_status st = ZO_OK;
  if (!s->swap || exchange_dirs(s)) st = install_files(s, err);
  /* the old set (exchanged), or what is left of the staging directory;
     a foreign subdirectory that could not move back stays, for the next
     run to retry */
  remove_files_and_dir(s->staging);
  if (note && cap) zo_utf8_copy(note, cap, s->note);
  zo_report_dir_unlock(s->lockfd);
  set_free(s);
  return st;
}

/* ---- the run record ---------------------------------------------------- */

/* A JSON string of s made valid UTF-8 (NULL: ""); never NULL. */
static json_t *jstr(const char *s) {
  json_t *j;
  if (!s) s = "";
  size_t n = strlen(s);
  if (zo_utf8_valid_prefix(s, n) == n) {
    j = json_stringn(s, n);
  } else {
    char *clean = zo_utf8_sanitize(s);
    j = json_string(clean);
    free(clean);
  }
  if (!j) zo_oom("writing the run record");
  return j;
}

/* One record line; the object is consumed. */
static void put_line(FILE *f, json_t *obj) {
  if (!obj) zo_oom("writing the run record");
  char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
  if (!s) zo_oom("writing the run record");
  fputs(s, f);
  fputc('\n', f);
  free(s);
  json_decref(obj);
}

/* Set key of o to the new value v (consumed). */
static void put(json_t *o, const char *key, json_t *v) {
  if (!v || json_object_set_new(o, key, v)) zo_oom("writing the run record");
}

/* Append the new value v (consumed) to the array a. */
static void add(json_t *a, json_t *v) {
  if (!v || json_array_append_new(a, v)) zo_oom("writing the run record");
}

/* A new JSON object / array (never NULL: zo_oom). */
static json_t *jobj(void) {
  json_t *o = json_object();
  if (!o) zo_oom("writing the run record");
  return o;
}

static json_t *jarr(void) {
  json_t *a = json_array();
  if (!a) zo_oom("writing the run record");
  return a;
}

zo_status zo_report_write_jsonl(const zo_run *run, const zo_run_header *h,
                                const char *path, zo_error *err) {
  size_t cap = strlen(path) + 64;
  char *tmp = zo_xmalloc(cap);
  FILE *f = zo_report_open(path, tmp, cap);
  if (!f) {
    free(tmp);
    return io_fail(err, path, "cannot create");
  }
  char when[32];
  time_t t = time(NULL);
  struct tm tmv;
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tmv));
  json_t *rs = jarr(), *details = jarr();
  for (int i = 0; i < h->nrulesets; i++) {
    add(rs, jstr(h->rulesets[i]));
    /* the rule set as run: its switches with citations, and its rules,
       so every report can be rendered from the record alone */
    const zo_ruleset *r = zo_ruleset_find(h->rulesets[i]);
    if (!r) continue;
    json_t *sw = jarr(), *rules = jarr();
    for (int s = 0; s < SW_COUNT; s++) {
      json_t *cites = jarr();
      for (int k = 0; k < r->sw[s].nrules; k++) add(cites, jstr(r->rules[r->sw[s].rules[k]].id));
      json_t *o = jobj();
      put(o, "switch", jstr(zo_switch_name((zo_switch)s)));
      put(o, "value", jstr(zo_switch_value_name(r->sw[s].value)));
      put(o, "rules", cites);
      add(sw, o);
    }
    for (int k = 0; k < r->nrules; k++) {
      json_t *o = jobj();
      put(o, "id", jstr(r->rules[k].id));
      put(o, "text", jstr(r->rules[k].text));
      put(o, "seed", json_boolean(r->rules[k].seed));
      add(rules, o);
    }
    json_t *o = jobj();
    put(o, "id", jstr(r->id));
    put(o, "title", jstr(r->title));
    put(o, "extends", r->extends ? jstr(r->extends) : json_null());
    put(o, "switches", sw);
    put(o, "rules", rules);
    add(details, o);
  }
  json_t *hd = jobj();
  put(hd, "type", jstr("header"));
  put(hd, "format", jstr("zoneoracle-run/1"));
  if (h->run_id) put(hd, "run_id", jstr(h->run_id));
  put(hd, "started", jstr(when));
  put(hd, "suite_commit", jstr(h->suite_commit));
  put(hd, "engine", jstr(h->engine));
  put(hd, "engine_version", jstr(h->engine_version));
  put(hd, "rulesets", rs);
  put(hd, "ruleset_details", details);
  put(hd, "seeds", jarr());
  if (h->zoneoracle_version) put(hd, "zoneoracle_version", jstr(h->zoneoracle_version));
  put_line(f, hd);
  for (int i = 0; i < run->n; i++) {
    const zo_case_result *r = &run->results[i];
    json_t *o = jobj();
    put(o, "type", jstr("case"));
    put(o, "id", jstr(r->case_id));
    put(o, "ruleset", jstr(r->ruleset));
    put(o, "status", jstr(zo_result_status_name(r->status)));
    put(o, "title", jstr(r->title));
    put(o, "file", jstr(r->file));
    put(o, "ms", json_real(r->ms));
    json_t *rules = jarr();
    for (int k = 0; k < r->nrules; k++) add(rules, jstr(r->rules[k]));
    put(o, "rules", rules);
    json_t *hits = jobj();
    for (int k = 0; k < r->nhits; k++) {
      /* a key is a string too */
      char *key = zo_utf8_sanitize(r->hits[k].id);
      put(hits, key, json_integer(r->hits[k].count));
      free(key);
    }
    put(o, "rule_hits", hits);
    if (r->status != RS_PASS) {
      put(o, "line", json_integer(r->line));
      put(o, "step", json_integer(r->step));
      if (r->what) put(o, "what", jstr(r->what));
      if (r->expected) put(o, "expected", jstr(r->expected));
      if (r->observed) put(o, "observed", jstr(r->observed));
      if (r->message) put(o, "message", jstr(r->message));
    }
    put_line(f, o);
  }
  for (int i = 0; i < run->ninvalid; i++) {
    json_t *o = jobj();
    put(o, "type", jstr("invalid"));
    put(o, "file", jstr(run->invalid[i].file));
    put(o, "message", jstr(run->invalid[i].message));
    put_line(f, o);
  }
  json_t *ft = jobj();
  put(ft, "type", jstr("footer"));
  if (h->run_id) put(ft, "run_id", jstr(h->run_id));
  put(ft, "passed", json_integer(run->passed));
  put(ft, "failed", json_integer(run->failed));
  put(ft, "errors", json_integer(run->errors));
  put(ft, "skipped", json_integer(run->skipped));
  put(ft, "xfailed", json_integer(run->xfailed));
  put(ft, "xpassed", json_integer(run->xpassed));
  put(ft, "invalid", json_integer(run->ninvalid));
  put(ft, "ms", json_real(run->ms));
  put_line(f, ft);
  zo_status st = zo_report_commit(f, tmp, path, err);
  free(tmp);
  return st;
}

/* ---- reading the record back ---------------------------------------- */

typedef struct {
  json_t *header, *footer;
  json_t *cases;   /* array of case objects */
  json_t *invalid; /* array */
} record;

static zo_status read_record(const char *path, record *rec, zo_error *err) {
  memset(rec, 0, sizeof *rec);
  FILE *f = fopen(path, "r");
  if (!f) return io_fail(err, path, "cannot open");
  rec->cases = json_array();
  rec->invalid = json_array();
  char *line = NULL;
  size_t cap = 0;
  int ln = 0;
  while (getline(&line, &cap, f) > 0) {
    ln++;
    json_error_t je;
    json_t *o = json_loads(line, 0, &je);
    const char *type = o ? json_string_value(json_object_get(o, "type")) : NULL;
    if (!type) {
      if (err) {
        err->code = ZO_ERR_IO;
        snprintf(err->file, sizeof err->file, "%s", path);
        err->line = ln;
        err->column = o ? 1 : je.column;
        snprintf(err->message, sizeof err->message, "not a run record line: %s",
                 o ? "no type" : je.text);
      }
      json_decref(o);
      free(line);
      fclose(f);
      json_decref(rec->cases);
      json_decref(rec->invalid);
      json_decref(rec->header);
      json_decref(rec->footer);
      return ZO_ERR_IO;
    }
    if (!strcmp(type, "header")) rec->header = o;
    else if (!strcmp(type, "footer")) rec->footer = o;
    else if (!strcmp(type, "case")) json_array_append_new(rec->cases, o);
    else if (!strcmp(type, "invalid")) json_array_append_new(rec->invalid, o);
    else json_decref(o);
  }
  free(line);
  fclose(f);
  if (!rec->header) rec->header = json_object();
  if (!rec->footer) rec->footer = json_object();
  return ZO_OK;
}

json_t *zo_report_read_cases(const char *jsonl, zo_error *err) {
  record rec;
  if (read_record(jsonl, &rec, err)) return NULL;
  json_t *cases = json_incref(rec.cases);
  json_decref(rec.header);
  json_decref(rec.footer);
  json_decref(rec.cases);
  json_decref(rec.invalid);
  return cases;
}

static void free_record(record *rec) {
  json_decref(rec->header);
  json_decref(rec->footer);
  json_decref(rec->cases);
  json_decref(rec->invalid);
}

static const char *S(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

/* s as XML (and HTML) text or attribute value: markup escaped, the
 * control characters XML 1.0 forbids dropped, U+FFFE and U+FFFF (valid
 * UTF-8, not XML characters) replaced by U+FFFD. s is valid UTF-8 (it
 * comes from the record). */
static void xml_text(FILE *f, const char *s) {
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
static void md_cell(FILE *f, const char *s) {
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

/* Read the record, write one report from it through `body`, whole or not
 * at all. */
static zo_status render(const char *jsonl, const char *path, zo_error *err,
                        void (*body)(FILE *f, record *rec)) {
  record rec;
  zo_status st = read_record(jsonl, &rec, err);
  if (st) return st;
  size_t cap = strlen(path) + 64;
  char *tmp = zo_xmalloc(cap);
  FILE *f = zo_report_open(path, tmp, cap);
  if (!f) {
    free(tmp);
    free_record(&rec);
    return io_fail(err, path, "cannot create");
  }
  body(f, &rec);
  free_record(&rec);
  st = zo_report_commit(f, tmp, path, err);
  free(tmp);
  return st;
}

static void junit_body(FILE *f, record *rec) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  if (*S(rec->header, "run_id")) { /* the report set's run (report.h) */
    fputs("<!-- zoneoracle run ", f);
    xml_text(f, S(rec->header, "run_id"));
    fputs(" -->\n", f);
  }
  fputs("<testsuites name=\"zoneoracle\">\n", f);
  /* one testsuite per rule set, in first-seen order */
  json_t *seen = json_array();
  size_t i;
  json_t *c;
  json_array_foreach(rec->cases, i, c) {
    const char *rs = S(c, "ruleset");
    int dup = 0;
    size_t j;
    json_t *x;
    json_array_foreach(seen, j, x) dup |= !strcmp(json_string_value(x), rs);
    if (!dup) json_array_append_new(seen, json_string(rs));
  }
  json_t *rsname;
  json_array_foreach(seen, i, rsname) {
    const char *rs = json_string_value(rsname);
    int tests = 0, fail = 0, errs = 0, skip = 0;
    double secs = 0;
    size_t j;
    json_array_foreach(rec->cases, j, c) {
      if (strcmp(S(c, "ruleset"), rs)) continue;
      tests++;
      secs += json_real_value(json_object_get(c, "ms")) / 1000.0;
      const char *s = S(c, "status");
      fail += !strcmp(s, "fail") || !strcmp(s, "xpass");
      errs += !strcmp(s, "error") || !strcmp(s, "crash") || !strcmp(s, "timeout");
      skip += !strcmp(s, "skip") || !strcmp(s, "xfail");
    }
    fputs("  <testsuite name=\"", f);
    xml_text(f, rs);
    fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
            tests, fail, errs, skip, secs);
    json_array_foreach(rec->cases, j, c) {
      if (strcmp(S(c, "ruleset"), rs)) continue;
      fputs("    <testcase classname=\"", f);
      xml_text(f, rs);
      fputs("\" name=\"", f);
      xml_text(f, S(c, "id"));
      fprintf(f, "\" file=\"");
      xml_text(f, S(c, "file"));
      fprintf(f, "\" time=\"%.4f\"", json_real_value(json_object_get(c, "ms")) / 1000.0);
      const char *s = S(c, "status");
      if (!strcmp(s, "pass")) {
        fputs("/>\n", f);
        continue;
      }
      fputs(">\n", f);
      const char *tag = !strcmp(s, "fail") || !strcmp(s, "xpass") ? "failure"
                        : !strcmp(s, "skip") || !strcmp(s, "xfail")  ? "skipped"
                                                                      : "error";
      fprintf(f, "      <%s message=\"", tag);
      xml_text(f, S(c, "message"));
      fputs("\">", f);
      if (json_object_get(c, "expected")) {
        fputs("expected: ", f);
        xml_text(f, S(c, "expected"));
        fputs("\nobserved: ", f);
        xml_text(f, S(c, "observed"));
      }
      fprintf(f, "</%s>\n    </testcase>\n", tag);
    }
    fputs("  </testsuite>\n", f);
  }
  json_t *inv;
  if (json_array_size(rec->invalid)) {
    fprintf(f, "  <testsuite name=\"case files\" tests=\"%zu\" failures=\"0\" errors=\"%zu\">\n",
            json_array_size(rec->invalid), json_array_size(rec->invalid));
    json_array_foreach(rec->invalid, i, inv) {
      fputs("    <testcase classname=\"case files\" name=\"", f);
      xml_text(f, S(inv, "file"));
      fputs("\">\n      <error message=\"invalid case file\">", f);
      xml_text(f, S(inv, "message"));
      fputs("</error>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
  }
  fputs("</testsuites>\n", f);
  json_decref(seen);
}

zo_status zo_report_render_junit(const char *jsonl, const char *path, zo_error *err) {
  return render(jsonl, path, err, junit_body);
}

static void markdown_body(FILE *f, record *rec) {
  json_t *ft = rec->footer;
  long long passed = json_integer_value(json_object_get(ft, "passed"));
  long long failed = json_integer_value(json_object_get(ft, "failed"));
  long long errors = json_integer_value(json_object_get(ft, "errors"));
  long long skipped = json_integer_value(json_object_get(ft, "skipped"));
  if (*S(rec->header, "run_id")) /* the report set's run (report.h) */
    fprintf(f, "<!-- zoneoracle run %s -->\n", S(rec->header, "run_id"));
  fprintf(f, "# zoneoracle conformance run\n\nEngine **");
  md_cell(f, S(rec->header, "engine"));
  fputc(' ', f);
  md_cell(f, S(rec->header, "engine_version"));
  fprintf(f, "**, suite commit `%s`, started %s.\n\n", S(rec->header, "suite_commit"), S(rec->header, "started"));
  fprintf(f, "| passed | failed | errors | skipped | invalid case files |\n| ---: | ---: | ---: | ---: | ---: |\n");
  fprintf(f, "| %lld | %lld | %lld | %lld | %zu |\n\n", passed, failed, errors, skipped,
          json_array_size(rec->invalid));
  /* per rule set: cases and the rules the engine applied */
  fprintf(f, "## By rule set\n\n| rule set | cases | passed | not passed | distinct rules applied |\n| --- | ---: | ---: | ---: | ---: |\n");
  json_t *rsl = json_object_get(rec->header, "rulesets");
  size_t i, j;
  json_t *rsn, *c;
  json_array_foreach(rsl, i, rsn) {
    const char *rs = json_string_value(rsn);
    int n = 0, pass = 0;
    json_t *rules = json_object();
    json_array_foreach(rec->cases, j, c) {
      if (strcmp(S(c, "ruleset"), rs)) continue;
      n++;
      pass += !strcmp(S(c, "status"), "pass");
      const char *k;
      json_t *v;
      json_object_foreach(json_object_get(c, "rule_hits"), k, v) json_object_set_new(rules, k, json_true());
    }
    if (n) {
      fputs("| ", f);
      md_cell(f, rs);
      fprintf(f, " | %d | %d | %d | %zu |\n", n, pass, n - pass, json_object_size(rules));
    }
    json_decref(rules);
  }
  int header = 0;
  json_array_foreach(rec->cases, i, c) {
    if (!strcmp(S(c, "status"), "pass")) continue;
    if (!header) {
      fprintf(f, "\n## Not passed\n\n| case | rule set | status | where | expected | observed |\n| --- | --- | --- | --- | --- | --- |\n");
      header = 1;
    }
    fputs("| `", f);
    md_cell(f, S(c, "id"));
    fputs("` | ", f);
    md_cell(f, S(c, "ruleset"));
    fprintf(f, " | %s | ", S(c, "status"));
    md_cell(f, S(c, "file"));
    fprintf(f, ":%lld | ", json_integer_value(json_object_get(c, "line")));
    md_cell(f, S(c, "expected"));
    fputs(" | ", f);
    md_cell(f, S(c, "observed"));
    fputs(" |\n", f);
  }
  if (json_array_size(rec->invalid)) {
    fprintf(f, "\n## Invalid case files\n\n");
    json_t *inv;
    json_array_foreach(rec->invalid, i, inv) {
      /* a fence longer than any run of backticks in the message */
      const char *m = S(inv, "message");
      size_t run = 0, longest = 0;
      for (const char *p = m; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
      }
      size_t fence = longest < 3 ? 3 : longest + 1;
      for (size_t k = 0; k < fence; k++) fputc('`', f);
      fprintf(f, "\n%s\n", m);
      for (size_t k = 0; k < fence; k++) fputc('`', f);
      fputc('\n', f);
    }
  }
}

zo_status zo_report_render_markdown(const char *jsonl, const char *path, zo_error *err) {
  return render(jsonl, path, err, markdown_body);
}

/* ---- HTML: the conformance matrix --------------------------------- */

/* Status of the cases of one rule set citing one rule: the worst wins. */
static const char *cell_status(json_t *cases, const char *ruleset, const char *rule, int *n) {
  int fail = 0, pass = 0, skip = 0;
  size_t i;
  json_t *c;
  *n = 0;
  json_array_foreach(cases, i, c) {
    if (strcmp(S(c, "ruleset"), ruleset)) continue;
    size_t j;
    json_t *r;
    int cites = 0;
    json_array_foreach(json_object_get(c, "rules"), j, r) cites |= !strcmp(json_string_value(r), rule);
    if (!cites) continue;
    (*n)++;
    const char *s = S(c, "status");
    if (!strcmp(s, "pass")) pass++;
    else if (!strcmp(s, "skip")) skip++;
    else fail++;
  }
  if (fail) return "fail";
  if (pass) return "pass";
  if (skip) return "skip";
  return "none";
}

static void html_id(FILE *f, const char *ruleset, const char *id) {
  fputs("c-", f);
  for (const char *s = ruleset; *s; s++) fputc(isalnum((unsigned char)*s) ? *s : '-', f);
  fputc('-', f);
  for (const char *s = id; *s; s++) fputc(isalnum((unsigned char)*s) ? *s : '-', f);
}

static void html_body(FILE *f, record *rec) {
  json_t *details = json_object_get(rec->header, "ruleset_details");
  json_t *ft = rec->footer;
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<title>zoneoracle conformance</title>\n", f);
  if (*S(rec->header, "run_id")) { /* the report set's run (report.h) */
    fputs("<meta name=\"zoneoracle-run\" content=\"", f);
    xml_text(f, S(rec->header, "run_id"));
    fputs("\">\n", f);
  }
  fputs("<style>\n"
        "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
        "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
        "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\n"
        "th{background:#f2f2f2;position:sticky;top:0}\n"
        "td.pass{background:#c8f0c8}td.fail{background:#f6b8b8}td.skip{background:#f4e8a8}\n"
        "td.none{background:#fff;color:#999}td.na{background:#eee;color:#aaa}\n"
        "td.cell a{color:inherit;text-decoration:none;font-size:12px}\n"
        "code{font-size:12px}.seed{font-weight:bold}\n"
        "</style></head><body>\n<h1>zoneoracle conformance</h1>\n", f);
  fprintf(f, "<p>Engine <b>");
  xml_text(f, S(rec->header, "engine"));
  fputc(' ', f);
  xml_text(f, S(rec->header, "engine_version"));
  fputs("</b>, suite commit <code>", f);
  xml_text(f, S(rec->header, "suite_commit"));
  fputs("</code>, started ", f);
  xml_text(f, S(rec->header, "started"));
  fprintf(f, ".</p>\n<p>%lld passed, %lld failed, %lld errors, %lld skipped.</p>\n",
          json_integer_value(json_object_get(ft, "passed")),
          json_integer_value(json_object_get(ft, "failed")),
          json_integer_value(json_object_get(ft, "errors")),
          json_integer_value(json_object_get(ft, "skipped")));
  /* rows: every rule of every rule set, in first-seen order */
  json_t *rows = json_array(), *seen = json_object();
  size_t i, j;
  json_t *d, *r;
  json_array_foreach(details, i, d) json_array_foreach(json_object_get(d, "rules"), j, r) {
    const char *id = S(r, "id");
    if (json_object_get(seen, id)) continue;
    json_object_set_new(seen, id, json_true());
    json_array_append(rows, r);
  }
  fputs("<h2>Conformance matrix: rules x rule sets</h2>\n"
        "<p>Each cell: the cases of that rule set citing the rule (green all pass, red any "
        "fails, yellow skipped, white no case, grey not a rule of that rule set). "
        "Bold rules are numbered in a seed text. Cells link to the cases.</p>\n"
        "<table id=\"matrix\"><tr><th>rule</th><th>what it says</th>", f);
  json_array_foreach(details, i, d) {
    fputs("<th>", f);
    xml_text(f, S(d, "id"));
    fputs("</th>", f);
  }
  fputs("</tr>\n", f);
  json_array_foreach(rows, i, r) {
    const char *id = S(r, "id");
    fputs("<tr><td", f);
    if (json_is_true(json_object_get(r, "seed"))) fputs(" class=\"seed\"", f);
    fputs(">", f);
    xml_text(f, id);
    fputs("</td><td>", f);
    xml_text(f, S(r, "text"));
    fputs("</td>", f);
    json_array_foreach(details, j, d) {
      int has = 0;
      size_t k;
      json_t *x;
      json_array_foreach(json_object_get(d, "rules"), k, x) has |= !strcmp(S(x, "id"), id);
      if (!has) {
        fputs("<td class=\"na\">n/a</td>", f);
        continue;
      }
      int n;
      const char *cls = cell_status(rec->cases, S(d, "id"), id, &n);
      fprintf(f, "<td class=\"cell %s\">", cls);
      json_t *c;
      int shown = 0;
      json_array_foreach(rec->cases, k, c) {
        if (strcmp(S(c, "ruleset"), S(d, "id"))) continue;
        size_t m;
        json_t *cr;
        int cites = 0;
        json_array_foreach(json_object_get(c, "rules"), m, cr) cites |= !strcmp(json_string_value(cr), id);
        if (!cites) continue;
        if (shown++ < 3) {
          fputs("<a href=\"#", f);
          html_id(f, S(d, "id"), S(c, "id"));
          fputs("\" title=\"", f);
          xml_text(f, S(c, "id"));
          fprintf(f, "\">%s</a> ", S(c, "status"));
        }
      }
      if (shown > 3) fprintf(f, "+%d", shown - 3);
      if (!n) fputs("no case", f);
      fputs("</td>", f);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n<h2>Switches per rule set</h2>\n", f);
  json_array_foreach(details, i, d) {
    fputs("<h3>", f);
    xml_text(f, S(d, "id"));
    fputs(": ", f);
    xml_text(f, S(d, "title"));
    fputs("</h3>\n<table class=\"switches\"><tr><th>switch</th><th>value</th><th>rules</th></tr>\n", f);
    json_t *sw;
    json_array_foreach(json_object_get(d, "switches"), j, sw) {
      fputs("<tr><td>", f);
      xml_text(f, S(sw, "switch"));
      fputs("</td><td>", f);
      xml_text(f, S(sw, "value"));
      fputs("</td><td>", f);
      json_t *rules = json_object_get(sw, "rules");
      if (!json_array_size(rules)) fputs("<i>unspecified</i>", f);
      size_t k;
      json_t *x;
      json_array_foreach(rules, k, x) {
        if (k) fputs(", ", f);
        xml_text(f, json_string_value(x));
      }
      fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  fputs("<h2>Cases</h2>\n<table id=\"cases\"><tr><th>case</th><th>rule set</th><th>status</th>"
        "<th>rules</th><th>detail</th></tr>\n", f);
  json_t *c;
  json_array_foreach(rec->cases, i, c) {
    fputs("<tr id=\"", f);
    html_id(f, S(c, "ruleset"), S(c, "id"));
    fputs("\"><td><code>", f);
    xml_text(f, S(c, "id"));
    fputs("</code><br>", f);
    xml_text(f, S(c, "title"));
    fputs("</td><td>", f);
    xml_text(f, S(c, "ruleset"));
    const char *s = S(c, "status");
    fprintf(f, "</td><td class=\"%s\">%s</td><td>", !strcmp(s, "error") ? "fail" : s, s);
    json_t *x;
    json_array_foreach(json_object_get(c, "rules"), j, x) {
      if (j) fputs(", ", f);
      xml_text(f, json_string_value(x));
    }
    fputs("</td><td>", f);
    xml_text(f, S(c, "message"));
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
  if (json_array_size(rec->invalid)) { /* every record of the run is shown */
    fputs("<h2>Invalid case files</h2>\n<table id=\"invalid\"><tr><th>file</th><th>error</th></tr>\n", f);
    json_t *inv;
    json_array_foreach(rec->invalid, i, inv) {
      fputs("<tr><td><code>", f);
      xml_text(f, S(inv, "file"));
      fputs("</code></td><td><pre>", f);
      xml_text(f, S(inv, "message"));
      fputs("</pre></td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  fputs("</body></html>\n", f);
  json_decref(rows);
  json_decref(seen);
}

zo_status zo_report_render_html(const char *jsonl, const char *path, zo_error *err) {
  return render(jsonl, path, err, html_body);
}

/* ---- verdicts ------------------------------------------------------ */

int zo_run_empty(const zo_run *run, char *why, size_t cap) {
  if (run->passed || run->failed || run->errors || run->xpassed) return 0;
  if (!run->n) {
    zo_snprintf_utf8(why, cap, "no case ran: no case file matched (check the PATHs, --filter and --ruleset)");
    return 1;
  }
  if (run->xfailed) {
    zo_snprintf_utf8(why, cap, "no case passed: %d skipped, %d known gap%s (--expect-failures)", run->skipped,
                     run->xfailed, run->xfailed == 1 ? "" : "s");
    return 1;
  }
  /* the skips' reasons, most frequent first (at most three named) */
  enum { MAXR = 64 };
  const char *reason[MAXR];
  int count[MAXR], nr = 0, other = 0;
  for (int i = 0; i < run->n; i++) {
    const char *m = run->results[i].message ? run->results[i].message : "no reason given";
    int k = 0;
    while (k < nr && strcmp(reason[k], m)) k++;
    if (k < nr) count[k]++;
    else if (nr < MAXR) {
      reason[nr] = m;
      count[nr++] = 1;
    } else other++;
  }
  char list[600] = "";
  size_t used = 0;
  for (int shown = 0; shown < 3 && shown < nr; shown++) {
    int best = shown;
    for (int k = shown + 1; k < nr; k++)
      if (count[k] > count[best]) best = k;
    const char *r = reason[best];
    int c = count[best];
    reason[best] = reason[shown];
    count[best] = count[shown];
    reason[shown] = r;
    count[shown] = c;
    char one[160];
    if (!strncmp(r, "skipped: ", 9)) r += 9;
    zo_utf8_copy(one, sizeof one, r); /* cut on a character boundary */
    int w = zo_snprintf_utf8(list + used, sizeof list - used, "%s%s: %d", shown ? "; " : "", one, c);
    if (w < 0 || (size_t)w >= sizeof list - used) break;
    used += (size_t)w;
  }
  for (int k = 3; k < nr; k++) other += count[k];
  if (other && used < sizeof list) zo_snprintf_utf8(list + used, sizeof list - used, "; other reasons: %d", other);
  zo_snprintf_utf8(why, cap, "no case ran: %d skipped (%s)", run->skipped, list);
  return 1;
}

zo_status zo_report_write_badge(const zo_run *run, int protocol_invalid, const char *path,
                                zo_error *err) {
  int failing = run->failed + run->errors + run->xpassed;
  char msg[256] = "";
  size_t used = 0;
  /* appends one part, " · " between parts */
#define PART(...)                                                                            \
  do {                                                                                       \
    if (used < sizeof msg && used) used += (size_t)snprintf(msg + used, sizeof msg - used, " \xC2\xB7 "); \
    if (used < sizeof msg) used += (size_t)snprintf(msg + used, sizeof msg - used, __VA_ARGS__); \
  } while (0)
  if (!run->passed && !failing && !run->xfailed) {
    PART("0 run");
  } else {
    PART("%d passed", run->passed);
    if (run->xfailed) PART("%d known gap%s", run->xfailed, run->xfailed == 1 ? "" : "s");
    if (failing) PART("%d failing", failing);
  }
  if (run->skipped) PART("%d skipped", run->skipped);
  if (run->ninvalid) PART("%d invalid case file%s", run->ninvalid, run->ninvalid == 1 ? "" : "s");
  if (protocol_invalid > 0)
    PART("%d invalid protocol message%s", protocol_invalid, protocol_invalid == 1 ? "" : "s");
#undef PART
  const char *color = failing || run->ninvalid || protocol_invalid > 0 ? "red"
                      : run->passed                                    ? "brightgreen"
                                                                       : "lightgrey";
  json_t *badge = jobj();
  put(badge, "schemaVersion", json_integer(1));
  put(badge, "label", jstr("zone rules"));
  put(badge, "message", jstr(msg));
  put(badge, "color", jstr(color));
  size_t cap = strlen(path) + 64;
  char *tmp = zo_xmalloc(cap);
  FILE *f = zo_report_open(path, tmp, cap);
  zo_status st;
  if (!f) {
    st = io_fail(err, path, "cannot create");
  } else {
    json_dumpf(badge, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fputc('\n', f);
    st = zo_report_commit(f, tmp, path, err);
  }
  json_decref(badge);
  free(tmp);
  return st;
}
