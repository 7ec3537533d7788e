/* engines/zcp_stderr.c: an engine child's stderr, kept bounded (its first
 * and its last 32 KiB, the cut said), mirrored into a file made
 * O_EXCL|O_NOFOLLOW in a private directory (mkdtemp) that is removed with
 * the engine, or by the next run when the runner was killed with SIGKILL;
 * and the few last lines a failure's message ends with
 * (internal/zcp_int.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "util.h"

#include "zcp_int.h"

/* Remove what runners killed before they could clean up (SIGKILL) left in
 * tmp: directories zoneoracle-engine-PID-XXXXXX that are ours (our uid,
 * real directories, not links) whose PID no longer runs, with the stderr
 * file in them. Once per process and tmp directory. */
static void sweep(const char *tmp) {
  static char swept[420];
  if (!strcmp(swept, tmp)) return;
  snprintf(swept, sizeof swept, "%s", tmp);
  DIR *d = opendir(tmp);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d))) {
    static const char prefix[] = "zoneoracle-engine-";
    if (strncmp(de->d_name, prefix, sizeof prefix - 1)) continue;
    char *end;
    long pid = strtol(de->d_name + sizeof prefix - 1, &end, 10);
    if (pid <= 0 || *end != '-' || pid == (long)getpid()) continue;
    if (!kill((pid_t)pid, 0) || errno != ESRCH) continue; /* alive, or not ours to judge */
    char dir[1024], file[1100];
    snprintf(dir, sizeof dir, "%s/%s", tmp, de->d_name);
    struct stat st;
    if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) continue;
    snprintf(file, sizeof file, "%s/stderr", dir);
    unlink(file);
    rmdir(dir);
  }
  closedir(d);
}

void zcp_capture_open(zcp_capture *c) {
  c->fd = -1;
  c->dir[0] = c->path[0] = 0;
  const char *t = getenv("TMPDIR");
  if (!t || t[0] != '/' || strlen(t) > 400) t = "/tmp";
  sweep(t);
  snprintf(c->dir, sizeof c->dir, "%s/zoneoracle-engine-%ld-XXXXXX", t, (long)getpid());
  if (!mkdtemp(c->dir)) {
    c->dir[0] = 0;
    return;
  }
  snprintf(c->path, sizeof c->path, "%s/stderr", c->dir);
  c->fd = open(c->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (c->fd < 0) {
    rmdir(c->dir);
    c->dir[0] = c->path[0] = 0;
  }
}

void zcp_capture_reset(zcp_capture *c) {
  c->nhead = c->rpos = 0;
  c->total = c->mark = 0;
  if (c->fd >= 0 && ftruncate(c->fd, 0)) { /* the file is a courtesy copy */
  }
}

/* Bytes held in the ring. */
static size_t ring_len(const zcp_capture *c) {
  unsigned long long after = c->total - c->nhead;
  return after < ZCP_ERR_TAIL ? (size_t)after : ZCP_ERR_TAIL;
}

void zcp_capture_mark(zcp_capture *c) { c->mark = c->total; }

char *zcp_capture_since_mark(const zcp_capture *c) {
  if (c->mark >= c->total) return NULL;
  size_t rlen = ring_len(c);
  unsigned long long ring_start = c->total - rlen; /* absolute position of the ring's oldest byte */
  size_t oldest = rlen < ZCP_ERR_TAIL ? 0 : c->rpos;
  char *out = zo_xmalloc(ZCP_ERR_HEAD + ZCP_ERR_TAIL + 64);
  size_t n = 0;
  unsigned long long from = c->mark;
  if (from < c->nhead) {
    memcpy(out, c->head + from, (size_t)(c->nhead - from));
    n = (size_t)(c->nhead - from);
    from = c->nhead;
  }
  if (from < ring_start) {
    n += (size_t)snprintf(out + n, 64, "\n[... %llu bytes not kept ...]\n", ring_start - from);
    from = ring_start;
  }
  for (; from < c->total; from++) out[n++] = (char)c->ring[(oldest + (size_t)(from - ring_start)) % ZCP_ERR_TAIL];
  out[n] = 0;
  return out;
}

void zcp_capture_add(zcp_capture *c, const char *data, size_t n) {
  c->total += n;
  size_t h = ZCP_ERR_HEAD - c->nhead < n ? ZCP_ERR_HEAD - c->nhead : n;
  memcpy(c->head + c->nhead, data, h);
  c->nhead += h;
  data += h;
  n -= h;
  if (!n) return;
  if (n >= ZCP_ERR_TAIL) {
    memcpy(c->ring, data + n - ZCP_ERR_TAIL, ZCP_ERR_TAIL);
    c->rpos = 0;
    return;
  }
  size_t first = ZCP_ERR_TAIL - c->rpos < n ? ZCP_ERR_TAIL - c->rpos : n;
  memcpy(c->ring + c->rpos, data, first);
  memcpy(c->ring, data + first, n - first);
  c->rpos = (c->rpos + n) % ZCP_ERR_TAIL;
}

/* Copy the last `want` (or fewer, when fewer were kept in one piece)
 * bytes of stderr to out; *whole = 1 when they start at its beginning.
 * Returns how many were copied. */
static size_t last_bytes(const zcp_capture *c, char *out, size_t want, int *whole) {
  size_t inring = ring_len(c);
  int cut = c->total > (unsigned long long)(c->nhead + inring);
  size_t avail = inring + (cut ? 0 : c->nhead);
  size_t n = want < avail ? want : avail;
  size_t fromring = n < inring ? n : inring, fromhead = n - fromring;
  memcpy(out, c->head + c->nhead - fromhead, fromhead);
  size_t start = (c->rpos + ZCP_ERR_TAIL - fromring) % ZCP_ERR_TAIL;
  size_t first = ZCP_ERR_TAIL - start < fromring ? ZCP_ERR_TAIL - start : fromring;
  memcpy(out + fromhead, c->ring + start, first);
  memcpy(out + fromhead + first, c->ring, fromring - first);
  *whole = n == avail && !cut;
  return n;
}

/* Write n bytes at *off of fd; errors are ignored (the file is a copy). */
static void write_at(int fd, const void *data, size_t n, off_t *off) {
  const char *s = data;
  while (n) {
    ssize_t w = pwrite(fd, s, n, *off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
    *off += w;
  }
}

void zcp_capture_sync(const zcp_capture *c) {
  if (c->fd < 0 || ftruncate(c->fd, 0)) return;
  off_t off = 0;
  write_at(c->fd, c->head, c->nhead, &off);
  size_t inring = ring_len(c);
  unsigned long long cut = c->total - c->nhead - inring;
  if (cut) {
    char m[120];
    int k = snprintf(m, sizeof m, "\n[zoneoracle: %llu bytes of stderr cut here; the first %u and the last %u kept]\n",
                     cut, ZCP_ERR_HEAD, ZCP_ERR_TAIL);
    write_at(c->fd, m, (size_t)k, &off);
  }
  size_t start = (c->rpos + ZCP_ERR_TAIL - inring) % ZCP_ERR_TAIL;
  size_t first = ZCP_ERR_TAIL - start < inring ? ZCP_ERR_TAIL - start : inring;
  write_at(c->fd, c->ring + start, first, &off);
  write_at(c->fd, c->ring, inring - first, &off);
}

void zcp_capture_close(zcp_capture *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
  if (c->path[0]) unlink(c->path);
  if (c->dir[0]) rmdir(c->dir);
  c->dir[0] = c->path[0] = 0;
}

void zcp_capture_summary(const zcp_capture *c, char *out, size_t cap) {
  out[0] = 0;
  char raw[1536];
  int whole;
  size_t n = last_bytes(c, raw, sizeof raw, &whole);
  while (n && (raw[n - 1] == '\n' || raw[n - 1] == '\r' || raw[n - 1] == ' ' || raw[n - 1] == '\t')) n--;
  if (!n) return;
  size_t from = n;
  int lines = 0;
  while (from > 0 && !(raw[from - 1] == '\n' && ++lines == 8)) from--;
  int cut_front = from == 0 && !whole;
  char joined[4 * sizeof raw + 64];
  joined[0] = 0;
  for (size_t i = from; i < n;) {
    size_t e = i;
    while (e < n && raw[e] != '\n') e++;
    size_t s = i, t = e;
    while (s < t && (raw[s] == ' ' || raw[s] == '\t' || raw[s] == '\r')) s++;
    while (t > s && (raw[t - 1] == ' ' || raw[t - 1] == '\t' || raw[t - 1] == '\r')) t--;
    if (t > s) {
      if (joined[0]) zcp_text_put(joined, sizeof joined, " | ", 3);
      zcp_text_put(joined, sizeof joined, raw + s, t - s);
    }
    i = e + 1;
  }
  size_t len = strlen(joined);
  if (len + 1 + (cut_front ? 3 : 0) <= cap) {
    snprintf(out, cap, "%s%s", cut_front ? "..." : "", joined);
    return;
  }
  /* too long: its end, from a line if one fits, else inside the last line */
  const char *s = joined + len - (cap - 4);
  const char *sep = strstr(s, " | ");
  if (sep) s = sep + 3;
  else
    while ((*s & 0xC0) == 0x80) s++;
  snprintf(out, cap, "...%s", s);
}
