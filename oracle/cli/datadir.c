/* datadir.c: where an installed or freshly built zoneoracle finds its data
 * (the case suite, the protocol's schemas, the rule sets, smoke's cases)
 * and the documents its help
 * names, and which version and suite commit it is.
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
    {"smoke", "smoke", "oracle/smoke"},
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

/* The documents the help texts name, and where each is installed (under
 * <prefix>/share) and sits in the source tree. */
static const struct {
  const char *name, *installed, *source;
} docs[] = {
    {"PROTOCOL.md", "zoneoracle/protocol", "ci/protocol"},
    {"INVARIANTS.md", "doc/zoneoracle", "fuzz"},
};

int zo_cli_doc_path(const char *name, char *out, size_t cap) {
  size_t k = 0;
  while (k < sizeof docs / sizeof docs[0] && strcmp(docs[k].name, name)) k++;
  if (k == sizeof docs / sizeof docs[0]) return -1;
  struct stat st;
  char dir[4096];
  if (!strcmp(name, "PROTOCOL.md") && getenv("ZO_DATA_DIR") && getenv("ZO_DATA_DIR")[0]) {
    /* the protocol directory gate --validate reads */
    if (zo_cli_data_path("protocol", dir, sizeof dir)) return -1;
    snprintf(out, cap, "%s/%s", dir, name);
    return stat(out, &st) ? -1 : 0;
  }
  if (exe_dir(dir, sizeof dir)) {
    snprintf(out, cap, "%s/../share/%s/%s", dir, docs[k].installed, name);
    if (!stat(out, &st)) {
      char *canon = realpath(out, NULL);
      if (canon && strlen(canon) < cap) snprintf(out, cap, "%s", canon);
      free(canon);
      return 0;
    }
  }
  if (ZO_SOURCE_DIR[0]) {
    snprintf(out, cap, "%s/%s/%s", ZO_SOURCE_DIR, docs[k].source, name);
    if (!stat(out, &st)) return 0;
  }
  return -1;
}

const char *zo_cli_version(void) { return ZO_VERSION_STRING; }

const char *zo_cli_suite_commit(void) { return ZO_SUITE_COMMIT[0] ? ZO_SUITE_COMMIT : "unknown"; }
