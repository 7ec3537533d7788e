/* datadir.c: where an installed or freshly built zoneoracle finds its data
 * (the case suite, the protocol's schemas), and which version and suite
 * commit it is.
 *
 * An installed zoneoracle is relocatable: its data lives in
 * <prefix>/share/zoneoracle/ beside <prefix>/bin/zoneoracle, whatever the
 * prefix. A build finds the source tree it was built from (ZO_SOURCE_DIR).
 * $ZO_DATA_DIR overrides both (a directory laid out like the installed
 * share/zoneoracle).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "zo_version.h"

#ifndef ZO_SOURCE_DIR
#define ZO_SOURCE_DIR ""
#endif

/* Where each piece of data is installed (under share/zoneoracle) and where
 * it sits in the source tree. */
static const struct {
  const char *what, *installed, *source;
} places[] = {
    {"cases", "cases", "cases"},
    {"protocol", "protocol", "ci/protocol"},
    {"rulesets", "rulesets", "oracle/rulesets"},
};

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The directory holding the running executable, or 0. */
static int exe_dir(char *out, size_t cap) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return 0;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash) return 0;
  *slash = 0;
  return snprintf(out, cap, "%s", exe) < (int)cap;
}

int zo_cli_data_path(const char *what, char *out, size_t cap) {
  size_t k = 0;
  while (k < sizeof places / sizeof places[0] && strcmp(places[k].what, what)) k++;
  if (k == sizeof places / sizeof places[0]) return -1;
  const char *env = getenv("ZO_DATA_DIR");
  if (env && env[0]) {
    snprintf(out, cap, "%s/%s", env, places[k].installed);
    return is_dir(out) ? 0 : -1;
  }
  char dir[4096];
  if (exe_dir(dir, sizeof dir)) {
    snprintf(out, cap, "%s/../share/zoneoracle/%s", dir, places[k].installed);
    if (is_dir(out)) {
      char *canon = realpath(out, NULL); /* /usr/share/..., not /usr/bin/../share/... */
      if (canon && strlen(canon) < cap) snprintf(out, cap, "%s", canon);
      free(canon);
      return 0;
    }
  }
  if (ZO_SOURCE_DIR[0]) {
    snprintf(out, cap, "%s/%s", ZO_SOURCE_DIR, places[k].source);
    if (is_dir(out)) return 0;
  }
  snprintf(out, cap, "%s", places[k].installed);
  return -1;
}

const char *zo_cli_version(void) { return ZO_VERSION_STRING; }

const char *zo_cli_suite_commit(void) { return ZO_SUITE_COMMIT[0] ? ZO_SUITE_COMMIT : "unknown"; }
