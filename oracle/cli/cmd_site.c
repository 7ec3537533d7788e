/* cmd_site.c: zoneoracle site RUN.jsonl... [--out DIR]: the results site
 * comparing engines and versions from run records (report.h,
 * zo_report_site). */
#include <stdio.h>

#include "report.h"
#include "cli.h"

/* zoneoracle site: read every record, write DIR whole; exit 0, or 2 after
 * "FILE:LINE: error: ..." for a file that is not a run record (or an I/O
 * error naming the file). */
int zo_cli_cmd_site(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0) {
    zo_cli_opts_free(&o);
    return rc;
  }
  const char *out = o.out ? o.out : "site";
  zo_site_summary sum;
  zo_error err = {0};
  if (zo_report_site((const char *const *)o.args, o.nargs, out, &sum, &err)) {
    if (err.line) fprintf(stderr, "%s:%d: error: %s\n", err.file, err.line, err.message);
    else if (err.file[0]) fprintf(stderr, "%s: error: %s\n", err.file, err.message);
    else fprintf(stderr, "zoneoracle %s: %s\n", cmd->name, err.message);
    zo_cli_opts_free(&o);
    return ZO_EXIT_USAGE;
  }
  printf("site: %d run%s (%lld case results) of %d engine%s, %d engine version%s, %d case%s where they "
         "disagree -> %s/index.html\n",
         sum.runs, sum.runs == 1 ? "" : "s", sum.cases, sum.engines, sum.engines == 1 ? "" : "s", sum.rows,
         sum.rows == 1 ? "" : "s", sum.disagreements, sum.disagreements == 1 ? "" : "s", out);
  zo_cli_opts_free(&o);
  return ZO_EXIT_PASS;
}
