/* report_set.c: how reports reach the report directory whole or not at
 * all: one report file written beside its place and renamed in
 * (zo_report_open / zo_report_commit), and the report set, a staging
 * directory swapped in for the old set in one step, under a lock, with the
 * leftovers of killed runs cleaned up (report.h). */
#define _GNU_SOURCE /* renameat2, RENAME_EXCHANGE (where ZO_HAVE_RENAMEAT2) */
#include "report_int.h"

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
zo_status zo_report_io_fail(zo_error *err, const char *path, const char *what) {
  int e = errno;
  return zo_error_set(err, ZO_ERR_IO, path, 0, 0, "%s: %s", what, strerror(e));
}

/* Fill err as an I/O error on path with a message of its own. */
zo_status zo_report_io_msg(zo_error *err, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
zo_status zo_report_io_msg(zo_error *err, const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  zo_error_setv(err, ZO_ERR_IO, path, 0, 0, fmt, ap);
  va_end(ap);
  return ZO_ERR_IO;
}

/* "a/b" in a new string (the caller frees). */
char *zo_report_join_path(const char *a, const char *b) {
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
    zo_status st = zo_report_io_fail(err, path, "write failed");
    remove(tmp);
    return st;
  }
  if (rename(tmp, path)) {
    zo_status st = zo_report_io_fail(err, path, "rename failed");
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
#define OLD_INFIX ".zoneoracle-old."  /* PARENT/.NAME.zoneoracle-old.RUNID: DIR moved aside */

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
 * when real lacks that name, else it stays (never deleted). With old, t
 * is a previous DIR moved aside (OLD_INFIX): its files are the originals,
 * so every entry but the set's own goes back where real lacks it. */
static void recover_stale(const char *t, const char *real, int old) {
  DIR *d = opendir(t);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d))) {
    const char *n = de->d_name;
    if (!strcmp(n, ".") || !strcmp(n, "..")) continue;
    char *in_real = zo_report_join_path(real, n), *in_t = zo_report_join_path(t, n);
    struct stat st, rst;
    int own = is_report_name(n) || !strcmp(n, LOCK_NAME) || strstr(n, ".tmp.");
    if (!lstat(in_t, &st) && (old ? !own : !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) &&
        lstat(in_real, &rst) && errno == ENOENT)
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
      char *p = zo_report_join_path(real, n);
      struct stat st;
      if (!lstat(p, &st)) {
        if (S_ISDIR(st.st_mode) && !strncmp(n, TMP_PREFIX, strlen(TMP_PREFIX))) recover_stale(p, real, 0);
        else if (S_ISREG(st.st_mode) && dead_tmp_file(n)) unlink(p);
      }
      free(p);
    }
    closedir(d);
  }
  if (!parent) return;
  char *prefix = zo_xmalloc(strlen(base) + 32), *old = zo_xmalloc(strlen(base) + 32);
  sprintf(prefix, ".%s.zoneoracle-tmp.", base);
  sprintf(old, ".%s" OLD_INFIX, base);
  if ((d = opendir(parent))) {
    struct dirent *de;
    while ((de = readdir(d))) {
      int is_old = !strncmp(de->d_name, old, strlen(old));
      if (!is_old && strncmp(de->d_name, prefix, strlen(prefix))) continue;
      char *p = zo_report_join_path(parent, de->d_name);
      struct stat st;
      if (!lstat(p, &st) && S_ISDIR(st.st_mode)) recover_stale(p, real, is_old);
      free(p);
    }
    closedir(d);
  }
  free(prefix);
  free(old);
}

/* Take the exclusive lock on real/.zoneoracle.lock: its descriptor, or -1
 * with err filled (dir names the directory as the user gave it). */
static int take_lock(const char *dir, const char *real, zo_error *err) {
  char *path = zo_report_join_path(real, LOCK_NAME);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) {
    zo_report_io_fail(err, path, "cannot open the lock file");
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
        zo_report_io_msg(err, "", "report directory %s is in use by another zoneoracle run (pid %ld)", dir, pid);
      else
        zo_report_io_msg(err, "", "report directory %s is in use by another zoneoracle run", dir);
    } else {
      errno = e;
      zo_report_io_fail(err, path, "cannot lock");
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
  if (!real) return zo_report_io_fail(err, dir, "cannot resolve");
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

/* out without trailing slashes split into its parent ("." for none) and
 * last component, both new strings; -1 when out names no directory one can
 * make ("", "/", ".", ".."). */
int zo_report_split_path(const char *out, char **parent, char **base) {
  size_t l = strlen(out);
  while (l > 1 && out[l - 1] == '/') l--;
  char *o = zo_xmalloc(l + 1);
  memcpy(o, out, l);
  o[l] = 0;
  char *slash = strrchr(o, '/');
  const char *b = slash ? slash + 1 : o;
  if (!*b || !strcmp(b, ".") || !strcmp(b, "..")) {
    free(o);
    return -1;
  }
  *base = zo_xstrdup(b);
  if (!slash) *parent = zo_xstrdup(".");
  else if (slash == o) *parent = zo_xstrdup("/");
  else {
    *slash = 0;
    *parent = zo_xstrdup(o);
  }
  free(o);
  return 0;
}

/* DIR absent because a run was killed between moving it aside and
 * renaming its new set in (the fallback of exchange_dirs): the directory
 * moved aside, PARENT/.NAME.zoneoracle-old.RUNID, renamed back to dir.
 * One whose lock is held belongs to a run committing right now: left
 * alone (dir then stays absent for the moment, and the caller fails as
 * for any absent directory). */
static void restore_aside(const char *dir) {
  char *parent, *base;
  if (zo_report_split_path(dir, &parent, &base)) return;
  char *path = zo_report_join_path(parent, base);
  char *prefix = zo_xmalloc(strlen(base) + 32);
  sprintf(prefix, ".%s" OLD_INFIX, base);
  free(base);
  DIR *d = opendir(parent);
  struct dirent *de;
  int done = 0;
  while (d && !done && (de = readdir(d))) {
    if (strncmp(de->d_name, prefix, strlen(prefix))) continue;
    char *aside = zo_report_join_path(parent, de->d_name), *lock = zo_report_join_path(aside, LOCK_NAME);
    int fd = open(lock, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB)) done = !rename(aside, path);
    if (fd >= 0) close(fd);
    free(aside);
    free(lock);
  }
  if (d) closedir(d);
  free(prefix);
  free(parent);
  free(path);
}

zo_status zo_report_set_begin(const char *dir, zo_report_set **out, zo_error *err) {
  *out = NULL;
  zo_report_set *s = zo_xcalloc(1, sizeof *s);
  s->lockfd = -1;
  struct stat dst;
  if (lstat(dir, &dst) && errno == ENOENT) restore_aside(dir);
  if (!(s->real = realpath(dir, NULL))) {
    set_free(s);
    return zo_report_io_fail(err, dir, "cannot resolve");
  }
  struct stat st, pst;
  int gone = stat(s->real, &st);
  if (gone || !S_ISDIR(st.st_mode)) {
    if (!gone) errno = ENOTDIR;
    zo_status r = zo_report_io_fail(err, dir, "not a report directory");
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
    zo_status r = zo_report_io_fail(err, dir, "cannot create a temporary directory");
    zo_report_set_abandon(s);
    return r;
  }
  *out = s;
  return ZO_OK;
}

const char *zo_report_set_staging(const zo_report_set *s) { return s->staging; }
const char *zo_report_set_run_id(const zo_report_set *s) { return s->run_id; }
const char *zo_report_set_note(const zo_report_set *s) { return s->note[0] ? s->note : NULL; }
char *zo_report_set_path(const zo_report_set *s, const char *name) { return zo_report_join_path(s->staging, name); }

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
    char *from = zo_report_join_path(s->staging, zo_report_set_names[i]);
    char *to = zo_report_join_path(s->real, zo_report_set_names[i]);
    struct stat sb;
    if (!lstat(from, &sb)) {
      if (rename(from, to) && !st) st = zo_report_io_fail(err, to, "cannot move the report into place");
    } else if (unlink(to) && errno != ENOENT && !st) {
      st = zo_report_io_fail(err, to, "cannot remove the previous run's report");
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

/* Whether this build exchanges directories in one step (renameat2), unless
 * ZO_REPORT_NO_EXCHANGE=1 takes the fallback (the tests' way to it). */
static int exchange_possible(void) {
#ifdef ZO_HAVE_RENAMEAT2
  const char *no = getenv("ZO_REPORT_NO_EXCHANGE");
  return !(no && *no && strcmp(no, "0"));
#else
  return 0;
#endif
}

/* The staging directory put in DIR's place, DIR's old directory then at
 * s->staging: exchanged in one step (renameat2 RENAME_EXCHANGE, where the
 * system has it: ZO_HAVE_RENAMEAT2); where the system or the file system
 * cannot, DIR is renamed aside to PARENT/.NAME.zoneoracle-old.RUNID and
 * the staging directory renamed to DIR (report.h: for the moment between
 * the two, DIR is absent; a kill there leaves the old set aside, put back
 * by the next zo_report_set_begin). 0, or 1 with s->note saying why
 * (DIR as it was). */
static int swap_in(zo_report_set *s) {
#ifdef ZO_HAVE_RENAMEAT2
  if (exchange_possible()) {
    if (!renameat2(AT_FDCWD, s->staging, AT_FDCWD, s->real, RENAME_EXCHANGE)) return 0;
    if (errno != EINVAL && errno != ENOSYS)
      return cannot(s, "the file system cannot exchange directories: %s", strerror(errno));
  }
#endif
  char *aside = zo_xmalloc(strlen(s->parent) + strlen(s->base) + strlen(s->run_id) + 32);
  sprintf(aside, "%s/.%s" OLD_INFIX "%s", s->parent, s->base, s->run_id);
  int bad = 0;
  if (rename(s->real, aside)) {
    bad = cannot(s, "%s cannot be moved aside: %s", s->real, strerror(errno));
  } else if (rename(s->staging, s->real)) {
    bad = cannot(s, "the new set cannot be renamed to %s: %s", s->real, strerror(errno));
    rename(aside, s->real);
  }
  if (bad) {
    free(aside);
    return 1;
  }
  free(s->staging);
  s->staging = aside;
  return 0;
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
  char *lock_from = zo_report_join_path(s->real, LOCK_NAME), *lock_to = zo_report_join_path(s->staging, LOCK_NAME);
  /* without hard links (WebAssembly's file systems), where DIR is moved
     aside rather than exchanged, its files and the lock move over after
     the renames like its folders (report.h) */
  int links = 1;
  if (!bad && link(lock_from, lock_to)) {
    if (exchange_possible()) bad = cannot(s, "no hard link can be made in %s: %s", s->parent, strerror(errno));
    else links = 0;
  }
  free(lock_from);
  free(lock_to);
  char **later = NULL; /* foreign entries moved over after the swap: not files nor symlinks, or
                          (no links) all of them and the lock */
  size_t nlater = 0;
  if (!links) {
    later = zo_xrealloc(later, sizeof *later);
    later[nlater++] = zo_xstrdup(LOCK_NAME);
  }
  DIR *d = bad ? NULL : opendir(s->real);
  if (!bad && !d) bad = cannot(s, "%s cannot be listed: %s", s->real, strerror(errno));
  struct dirent *de;
  while (d && !bad && (de = readdir(d))) {
    const char *n = de->d_name;
    if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, LOCK_NAME) || is_report_name(n) ||
        !strncmp(n, TMP_PREFIX, strlen(TMP_PREFIX)))
      continue;
    char *from = zo_report_join_path(s->real, n), *to = zo_report_join_path(s->staging, n);
    struct stat sb;
    if (lstat(from, &sb)) {
      /* gone since readdir */
    } else if (S_ISREG(sb.st_mode) && links) {
      if (link(from, to)) bad = cannot(s, "%s cannot be hard-linked: %s", from, strerror(errno));
    } else if (S_ISLNK(sb.st_mode) && links) {
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
  if (!bad) bad = swap_in(s);
  if (!bad) /* the old directory is at s->staging now */
    for (size_t i = 0; i < nlater; i++) {
      char *from = zo_report_join_path(s->staging, later[i]), *to = zo_report_join_path(s->real, later[i]);
#ifdef ZO_HAVE_RENAMEAT2
      if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) && errno == EINVAL)
#endif
      {
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

