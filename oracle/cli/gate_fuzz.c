/* gate_fuzz.c: `zoneoracle gate --engine CMD --fuzz SECONDS --seed S`:
 * differential fuzzing of an engine that is a process (or a plugin), over
 * the protocol in batch mode. Random byte strings from a seeded generator
 * are decoded into games (oracle/src/gen/decoder.h), each game is set up on the
 * engine and sent as one `run` request, and the engine's observation after
 * every step is compared with the oracle's (oracle/src/gen/diff.h). Each difference
 * is minimized and written as a YAML case that passes on the oracle and
 * fails on the engine. The same seed gives the same games in the same
 * order; how many run depends on the time given. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"
#include "report.h"
#include "util.h"
#include "cli.h"

/* A monotonic clock, in seconds. */
static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* splitmix64: a seeded stream of bytes, the same on every machine. */
static uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Write one finding as DIR/diff-<rule set>-<n>.yaml, n the first number
 * free, whole or not at all: written to a temporary file in DIR, then
 * linked to its name (never over another case) and the temporary name
 * removed. Everything is relative to dfd, DIR's descriptor, so the cases
 * land in that directory even if it is moved meanwhile (report.h's
 * exchange of a report directory holding it). path (cap bytes) receives
 * DIR/name for messages. 0, or -1 with a message. */
static int write_case(int dfd, const char *dir, const uint8_t *data, size_t size,
                      const zo_diff_result *r, char *path, size_t cap) {
  char id[160], name[200], tmp[240];
  int n = 1;
  for (;; n++) {
    snprintf(name, sizeof name, "diff-%s-%d.yaml", r->ruleset, n);
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) break;
  }
  snprintf(id, sizeof id, "regressions/diff-%s-%d", r->ruleset, n);
  if (snprintf(path, cap, "%s/%s", dir, name) >= (int)cap) {
    fprintf(stderr, "zoneoracle: %s: path too long\n", dir);
    return -1;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", name, (long)getpid());
  unlinkat(dfd, tmp, 0); /* one a dead process of the same pid left */
  int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
  if (!f) {
    fprintf(stderr, "zoneoracle: %s/%s: %s\n", dir, tmp, strerror(errno));
    if (fd >= 0) close(fd);
    unlinkat(dfd, tmp, 0);
    return -1;
  }
  zo_diff_print_yaml(data, size, r, id, f);
  int bad = ferror(f);
  if (fclose(f) || bad) {
    fprintf(stderr, "zoneoracle: %s: write failed: %s\n", path, strerror(errno ? errno : EIO));
    unlinkat(dfd, tmp, 0);
    return -1;
  }
  /* linkat never replaces an existing case; without hard links the
     lock (zo_report_dir_lock) keeps other runs away from the name */
  int rc = linkat(dfd, tmp, dfd, name, 0);
  if (rc && errno != EEXIST) rc = renameat(dfd, tmp, dfd, name);
  if (rc) fprintf(stderr, "zoneoracle: %s: %s\n", path, strerror(errno));
  unlinkat(dfd, tmp, 0);
  return rc ? -1 : 0;
}

int zo_cli_gate_fuzz(zo_engine *e, const char *engine_name, double seconds, uint64_t seed,
                     const char *out_dir, int quiet) {
  if (zo_cli_mkdirs(out_dir)) {
    fprintf(stderr, "zoneoracle: cannot create %s: %s\n", out_dir, strerror(errno));
    return ZO_EXIT_USAGE;
  }
  /* one run at a time in out_dir; what interrupted ones left removed */
  int lockfd = -1;
  zo_error lerr = {0};
  if (zo_report_dir_lock(out_dir, &lockfd, &lerr)) {
    if (lerr.file[0]) fprintf(stderr, "zoneoracle: %s: %s\n", lerr.file, lerr.message);
    else fprintf(stderr, "zoneoracle: %s\n", lerr.message);
    return ZO_EXIT_USAGE;
  }
  int dfd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) {
    fprintf(stderr, "zoneoracle: %s: %s\n", out_dir, strerror(errno));
    zo_report_dir_unlock(lockfd);
    return ZO_EXIT_USAGE;
  }
  zo_activity_set("fuzzing the engine");
  uint64_t state = seed;
  char **keys = NULL; /* one case per (rule set, property): the rest repeat it */
  int nkeys = 0;
  long games = 0, skipped = 0, differing = 0, steps = 0;
  int written = 0, io_bad = 0;
  double t0 = now_s(), t = t0;
  uint8_t buf[160];
  while ((t = now_s()) - t0 < seconds) {
    size_t len = 8 + (size_t)(next_u64(&state) % 120);
    for (size_t i = 0; i < len; i += 8) {
      uint64_t v = next_u64(&state);
      for (size_t k = 0; k < 8 && i + k < len; k++) buf[i + k] = (uint8_t)(v >> (8 * k));
    }
    zo_diff_result r;
    zo_diff_status st = zo_diff_input(e, buf, len, 1, &r);
    games++;
    if (st == ZO_DIFF_SKIP) {
      skipped++;
      continue;
    }
    steps += r.nsteps;
    if (st != ZO_DIFF_DIFFERS) continue;
    differing++;
    char *key = zo_cli_strf("%s:%s", r.ruleset, r.d.what);
    int seen = 0;
    for (int k = 0; k < nkeys && !seen; k++) seen = !strcmp(keys[k], key);
    if (seen) {
      free(key);
      continue;
    }
    keys = zo_xrealloc(keys, (size_t)(nkeys + 1) * sizeof *keys);
    keys[nkeys++] = key;
    uint8_t small[160];
    memcpy(small, buf, len);
    size_t m = zo_diff_minimize(e, small, len, 1, &r);
    char path[4096];
    if (write_case(dfd, out_dir, small, m, &r, path, sizeof path)) {
      io_bad = 1;
      continue;
    }
    written++;
    if (!quiet) printf("difference: %s\n  (%s) %s\n", path, r.ruleset, r.message);
  }
  double secs = t - t0 > 0 ? t - t0 : 1e-9;
  printf("gate --fuzz %s, seed %llu: %ld games in %.1f s (%.0f games/s); %ld skipped (rule set "
         "or feature not declared); %ld run, %ld steps compared (%.0f steps/s); %ld differed, "
         "%d case%s written to %s\n",
         engine_name, (unsigned long long)seed, games, secs, (double)games / secs, skipped,
         games - skipped, steps, (double)steps / secs, differing, written, written == 1 ? "" : "s",
         out_dir);
  for (int k = 0; k < nkeys; k++) free(keys[k]);
  free(keys);
  close(dfd);
  zo_report_dir_unlock(lockfd);
  if (io_bad) return ZO_EXIT_USAGE;
  return differing ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
}
