/* cmd_table.c: zoneoracle table --ruleset ID [--format text|markdown|json]:
 * the transition table of a rule set (oracle/src/run/table.h), every cell
 * a game of the model, printed for people (text, Markdown) or programs
 * (JSON). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "table.h"
#include "util.h"
#include "cli.h"

/* --format takes a third word here (markdown), so the command reads it
 * itself: argv without its --format options into out (argc entries at
 * most), *format the last one's value. Returns the new count, or -1 after
 * a usage error on stderr. */
static int take_format(const zo_cli_command *cmd, int argc, char **argv, char **out,
                       const char **format) {
  int n = 0;
  for (int i = 0; i < argc; i++) {
    const char *v = NULL;
    if (!strcmp(argv[i], "--format")) {
      if (i + 1 >= argc) return zo_cli_usage_error(cmd, "--format needs a value"), -1;
      v = argv[++i];
    } else if (!strncmp(argv[i], "--format=", 9)) {
      v = argv[i] + 9;
    } else if (!strcmp(argv[i], "--")) {
      while (i < argc) out[n++] = argv[i++];
      break;
    } else {
      out[n++] = argv[i];
      continue;
    }
    if (strcmp(v, "text") && strcmp(v, "markdown") && strcmp(v, "json"))
      return zo_cli_usage_error(cmd, "invalid value '%s' for --format: expected text, markdown or json", v), -1;
    *format = v;
  }
  return n;
}

/* zoneoracle table: the table of --ruleset ID on stdout. */
int zo_cli_cmd_table(const zo_cli_command *cmd, int argc, char **argv) {
  const char *format = "text";
  char **args = zo_xcalloc((size_t)argc + 1, sizeof *args);
  int n = take_format(cmd, argc, argv, args, &format);
  if (n < 0) {
    free(args);
    return ZO_EXIT_USAGE;
  }
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, n, args, &o);
  if (rc < 0 && !o.ruleset) rc = zo_cli_usage_error(cmd, "needs --ruleset ID (zoneoracle rulesets lists them)");
  if (rc >= 0) goto out;
  zo_activity_set("building the transition table of %s", o.ruleset);
  json_t *t;
  zo_error err = {0};
  if (zo_table_build(zo_ruleset_find(o.ruleset), &t, &err)) {
    fprintf(stderr, "zoneoracle table: %s\n", err.message);
    rc = ZO_EXIT_USAGE;
    goto out;
  }
  if (!strcmp(format, "json")) {
    json_dumpf(t, stdout, JSON_INDENT(1));
    fputc('\n', stdout);
  } else if (!strcmp(format, "markdown")) {
    zo_table_write_markdown(t, stdout);
  } else {
    zo_table_write_text(t, stdout);
  }
  json_decref(t);
  rc = fflush(stdout) || ferror(stdout) ? ZO_EXIT_USAGE : ZO_EXIT_PASS;
  if (rc) fprintf(stderr, "zoneoracle table: could not write the table to stdout\n");
out:
  zo_cli_opts_free(&o);
  free(args);
  return rc;
}
