/* protocol_check.c: `zoneoracle gate --validate`, every message of a run
 * checked against the published zcp/1 JSON Schemas (the *.json files of
 * ci/protocol/).
 *
 * The process or plugin engine writes each request and answer to a
 * transcript (protocol.jsonl, engine.h's tap) in the run's report set
 * (report.h: it reaches REPORT_DIR with the other reports, as one set,
 * and validate.py's messages name it there); after the run,
 * ci/protocol/validate.py checks it with Python's jsonschema, a maintained
 * validator, rather than one of our own. Its exit code: 0 valid, 1 some
 * message invalid, 2 usage or I/O, 3 jsonschema missing; the last line of
 * its output is "protocol: N messages checked, M invalid".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"
#include "cli.h"

static int has_validator(const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/validate.py", dir);
  return access(path, R_OK) == 0;
}

/* The schema directory, or 0 (message on stderr). */
static int find_dir(zo_protocol_check *pc, const char *argv0) {
  const char *env = getenv("ZO_PROTOCOL_DIR");
  if (env && env[0]) {
    snprintf(pc->dir, sizeof pc->dir, "%s", env);
    if (has_validator(pc->dir)) return 1;
    fprintf(stderr, "zoneoracle: ZO_PROTOCOL_DIR=%s has no validate.py (it names zoneoracle's ci/protocol)\n", env);
    return 0;
  }
  /* installed, or the source tree this binary was built from (datadir.c) */
  (void)argv0;
  if (!zo_cli_data_path("protocol", pc->dir, sizeof pc->dir) && has_validator(pc->dir)) return 1;
  fprintf(stderr, "zoneoracle: --validate: the protocol schemas (validate.py) are not in "
                  "<executable>/../share/zoneoracle/protocol nor in the source tree; set "
                  "ZO_PROTOCOL_DIR to zoneoracle's ci/protocol\n");
  return 0;
}

/* Run the validator with args; its stdout is copied to ours (echo; the
 * staging path of the transcript shown as where the commit puts it) and
 * its last line kept. Returns its exit status, 127 when python could not
 * be run, -1 when it died or could not be started. */
static int run_validator(const zo_protocol_check *pc, const char *a1, const char *a2, int echo,
                         char *last, size_t cap) {
  const char *py = getenv("ZO_PYTHON");
  if (!py || !py[0]) py = "python3";
  char script[4200];
  snprintf(script, sizeof script, "%s/validate.py", pc->dir);
  int out[2];
  if (pipe(out)) return -1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return -1;
  }
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    execlp(py, py, script, "--schemas", pc->dir, a1, a2, (char *)NULL);
    _exit(127);
  }
  close(out[1]);
  FILE *f = fdopen(out[0], "r");
  char line[8192];
  if (last) last[0] = 0;
  while (f && fgets(line, sizeof line, f)) {
    if (echo) {
      size_t np = strlen(pc->path);
      if (np && !strncmp(line, pc->path, np)) printf("%s%s", pc->shown, line + np);
      else fputs(line, stdout);
    }
    if (last) {
      line[strcspn(line, "\n")] = 0;
      size_t n = strlen(line) < cap - 1 ? strlen(line) : cap - 1;
      memcpy(last, line, n);
      last[n] = 0;
    }
  }
  if (f) fclose(f);
  else close(out[0]);
  fflush(stdout);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Why the validator could not run, for people. */
static void explain(int rc) {
  const char *py = getenv("ZO_PYTHON");
  if (rc == 127)
    fprintf(stderr, "zoneoracle: --validate needs python3 (%s could not be run): install the "
                    "Debian packages python3 and python3-jsonschema\n", py && py[0] ? py : "python3");
  else if (rc == 3)
    fprintf(stderr, "zoneoracle: --validate needs the Python module jsonschema: install the "
                    "Debian package python3-jsonschema\n");
  else
    fprintf(stderr, "zoneoracle: --validate: ci/protocol/validate.py failed (exit %d)\n", rc);
}

int zo_protocol_check_start(zo_protocol_check *pc, const char *argv0, const char *staging_dir,
                            const char *report_dir) {
  memset(pc, 0, sizeof *pc);
  if (!find_dir(pc, argv0)) return 2;
  int rc = run_validator(pc, "--check", NULL, 0, NULL, 0);
  if (rc) {
    explain(rc);
    return 2;
  }
  snprintf(pc->path, sizeof pc->path, "%s/protocol.jsonl", staging_dir);
  snprintf(pc->shown, sizeof pc->shown, "%s/protocol.jsonl", report_dir);
  if (!(pc->tap = zo_report_open(pc->path, pc->tmp, sizeof pc->tmp))) {
    fprintf(stderr, "zoneoracle: %s: %s\n", pc->tmp, strerror(errno));
    return 2;
  }
  return -1;
}

int zo_protocol_check_finish(zo_protocol_check *pc, int *checked) {
  *checked = 0;
  zo_error err = {0};
  FILE *tap = pc->tap;
  pc->tap = NULL;
  if (!tap || zo_report_commit(tap, pc->tmp, pc->path, &err)) {
    fprintf(stderr, "zoneoracle: %s: %s\n", pc->shown, tap ? err.message : "no transcript");
    return -1;
  }
  char last[512];
  int rc = run_validator(pc, pc->path, NULL, 1, last, sizeof last);
  int invalid = 0;
  if ((rc != 0 && rc != 1) || sscanf(last, "protocol: %d messages checked, %d invalid", checked, &invalid) != 2) {
    explain(rc);
    return -1;
  }
  return invalid;
}

void zo_protocol_check_abandon(zo_protocol_check *pc) {
  if (!pc->tap) return;
  fclose(pc->tap);
  pc->tap = NULL;
  remove(pc->tmp);
}
