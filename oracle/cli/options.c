/* options.c: the option handling every zoneoracle command shares.
 *
 * One table holds every option; each command accepts a subset
 * (zo_cli_command.opts), and zo_cli_parse hands getopt_long only those, so
 * any other is a usage error naming it. Values are checked where they are
 * parsed: a bad one is a usage error naming the option and the value, never
 * a silent default. Operands (PATHs) are kept in argv, however many.
 *
 * Also here: the helpers the commands share to find the case suite, collect
 * case files, read an input file whole, open the engine under test, make
 * directories and build strings.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mutants.h"
#include "util.h"
#include "cli.h"

/* The longest --timeout: the engine driver waits in poll() with an int of
 * milliseconds, so a limit must stay well inside it. */
#define ZO_MAX_TIMEOUT 86400.0

/* Every option: its long name, whether it takes a value, its bit. The
 * getopt value of entry i is ZO_OPT_VAL + i (-h is 'h'). */
typedef struct {
  const char *name;
  int has_arg;
  unsigned bit;
} opt_spec;

static const opt_spec specs[] = {
    {"ruleset", required_argument, ZO_OPT_RULESET},
    {"filter", required_argument, ZO_OPT_FILTER},
    {"report-dir", required_argument, ZO_OPT_REPORT_DIR},
    {"quiet", no_argument, ZO_OPT_QUIET},
    {"ruleset-file", required_argument, ZO_OPT_RULESET_FILE},
    {"mutant", required_argument, ZO_OPT_MUTANT},
    {"invariants", no_argument, ZO_OPT_INVARIANTS},
    {"format", required_argument, ZO_OPT_FORMAT},
    {"engine", required_argument, ZO_OPT_ENGINE},
    {"engine-plugin", required_argument, ZO_OPT_ENGINE_PLUGIN},
    {"timeout", required_argument, ZO_OPT_TIMEOUT},
    {"expect-failures", required_argument, ZO_OPT_EXPECT_FAILURES},
    {"shard", required_argument, ZO_OPT_SHARD},
    {"validate", no_argument, ZO_OPT_VALIDATE},
    {"strict", no_argument, ZO_OPT_STRICT},
    {"fuzz", required_argument, ZO_OPT_FUZZ},
    {"seed", required_argument, ZO_OPT_SEED},
    {"out", required_argument, ZO_OPT_OUT},
    {"list", no_argument, ZO_OPT_LIST},
    {"harness", required_argument, ZO_OPT_HARNESS},
    {"id", required_argument, ZO_OPT_ID},
    {"help", no_argument, ZO_OPT_HELP},
    {"allow-empty", no_argument, ZO_OPT_ALLOW_EMPTY},
    {"max-fail", required_argument, ZO_OPT_MAX_FAIL},
    {"baseline", required_argument, ZO_OPT_BASELINE},
    {"update", no_argument, ZO_OPT_UPDATE},
};
#define NSPECS (sizeof specs / sizeof specs[0])
enum { ZO_OPT_VAL = 256 };

/* The long name of an option bit; "?" for none (cli.h). */
const char *zo_cli_option_name(unsigned bit) {
  for (size_t i = 0; i < NSPECS; i++)
    if (specs[i].bit == bit) return specs[i].name;
  return "?";
}

/* printf into a malloc'd string the caller frees; out of memory is
 * zo_oom (util.h) (cli.h). */
char *zo_cli_strf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) zo_oom(NULL); /* vsnprintf fails only for want of memory here */
  char *s = zo_xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* "usage: zoneoracle SYNOPSIS" and the command's help, to f (cli.h). */
void zo_cli_print_docs(FILE *f, const char *text) {
  static const char *const names[] = {"PROTOCOL.md", "INVARIANTS.md"};
  int header = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (text && !strstr(text, names[i])) continue;
    char path[4200];
    if (!header++) fprintf(f, "\ndocuments (this zoneoracle's copies):\n");
    if (zo_cli_doc_path(names[i], path, sizeof path)) fprintf(f, "  %-14s not found beside this zoneoracle\n", names[i]);
    else fprintf(f, "  %-14s %s\n", names[i], path);
  }
}

void zo_cli_print_help(const zo_cli_command *cmd, FILE *f) {
  fprintf(f, "usage: zoneoracle %s\n%s", cmd->synopsis, cmd->help);
  zo_cli_print_docs(f, cmd->help);
}

/* The message, the usage line and where to find more, on stderr; returns
 * ZO_EXIT_USAGE (cli.h). */
int zo_cli_usage_error(const zo_cli_command *cmd, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "zoneoracle %s: %s\nusage: zoneoracle %s\n(zoneoracle help %s lists its options)\n",
          cmd->name, msg, cmd->synopsis, cmd->name);
  return ZO_EXIT_USAGE;
}

/* A whole number of digits only (no sign, no spaces) up to max: 0 and *v,
 * or -1. *end, when given, receives where the digits stop (any character
 * may follow); without end the string must be digits only. */
static int parse_whole(const char *s, unsigned long long max, unsigned long long *v, const char **end) {
  const char *p = s;
  unsigned long long x = 0;
  if (*p < '0' || *p > '9') return -1;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (x > (max - d) / 10) return -1; /* would exceed max */
    x = x * 10 + d;
  }
  if (end) *end = p;
  else if (*p) return -1;
  *v = x;
  return 0;
}

/* A positive finite number of seconds up to max, the whole string
 * (strtod's syntax, no leading space): 0 and *v, or -1. */
static int parse_seconds(const char *s, double max, double *v) {
  if (!*s || *s == ' ' || *s == '\t' || *s == '\n') return -1;
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (*end || errno == ERANGE || !isfinite(x) || !(x > 0) || x > max) return -1;
  *v = x;
  return 0;
}

/* The value of the option at getopt index k, checked and stored in o.
 * Returns -1, or the exit code of a usage error naming it. */
static int take(const zo_cli_command *cmd, size_t k, const char *v, zo_cli_opts *o) {
  const char *name = specs[k].name;
  unsigned long long i, n;
  const char *slash;
  switch (specs[k].bit) {
  case ZO_OPT_RULESET: o->ruleset = v; break;
  case ZO_OPT_FILTER: o->filter = v; break;
  case ZO_OPT_REPORT_DIR:
    if (!*v) return zo_cli_usage_error(cmd, "--report-dir needs a directory, not ''");
    o->report_dir = v;
    break;
  case ZO_OPT_QUIET: o->quiet = 1; break;
  case ZO_OPT_INVARIANTS: o->invariants = 1; break;
  case ZO_OPT_STRICT: o->strict = 1; break;
  case ZO_OPT_VALIDATE: o->validate = 1; break;
  case ZO_OPT_LIST: o->list = 1; break;
  case ZO_OPT_ALLOW_EMPTY: break; /* o->given says it */
  case ZO_OPT_UPDATE: break;      /* known-gaps --update: o->given says it */
  case ZO_OPT_RULESET_FILE:
    o->ruleset_files = zo_xrealloc(o->ruleset_files, (size_t)(o->nruleset_files + 1) * sizeof *o->ruleset_files);
    o->ruleset_files[o->nruleset_files++] = v;
    break;
  case ZO_OPT_MUTANT:
    o->mutants = zo_xrealloc(o->mutants, (size_t)(o->nmutants + 1) * sizeof *o->mutants);
    o->mutants[o->nmutants++] = v;
    break;
  case ZO_OPT_FORMAT:
    if (strcmp(v, "text") && strcmp(v, "json"))
      return zo_cli_usage_error(cmd, "invalid value '%s' for --format: expected text or json", v);
    o->format = v;
    break;
  case ZO_OPT_ENGINE:
    if (!*v) return zo_cli_usage_error(cmd, "--engine needs a command, not ''");
    o->engine = v;
    break;
  case ZO_OPT_ENGINE_PLUGIN:
    if (!*v) return zo_cli_usage_error(cmd, "--engine-plugin needs a shared object, not ''");
    o->plugin = v;
    break;
  case ZO_OPT_TIMEOUT:
    if (parse_seconds(v, ZO_MAX_TIMEOUT, &o->timeout))
      return zo_cli_usage_error(cmd, "invalid value '%s' for --timeout: expected a number of seconds "
                                     "> 0 (at most %.0f)", v, ZO_MAX_TIMEOUT);
    break;
  case ZO_OPT_EXPECT_FAILURES: o->expect_failures = v; break;
  case ZO_OPT_BASELINE: o->baseline = v; break;
  case ZO_OPT_MAX_FAIL:
    if (parse_whole(v, 1000000000ULL, &i, NULL) || i < 1)
      return zo_cli_usage_error(cmd, "invalid value '%s' for --max-fail: expected a whole number >= 1", v);
    o->max_fail = (int)i;
    break;
  case ZO_OPT_SHARD:
    if (parse_whole(v, 1000000000ULL, &i, &slash) || *slash != '/' ||
        parse_whole(slash + 1, 1000000000ULL, &n, NULL) || i < 1 || n < 1 || i > n)
      return zo_cli_usage_error(cmd, "invalid value '%s' for --shard: expected I/N, whole numbers "
                                     "with 1 <= I <= N", v);
    o->shard = (int)(i - 1);
    o->nshards = (int)n;
    break;
  case ZO_OPT_FUZZ:
    if (parse_seconds(v, 1e12, &o->fuzz))
      return zo_cli_usage_error(cmd, "invalid value '%s' for --fuzz: expected a number of seconds > 0", v);
    break;
  case ZO_OPT_SEED:
    if (parse_whole(v, UINT64_MAX, &i, NULL))
      return zo_cli_usage_error(cmd, "invalid value '%s' for --seed: expected a whole number >= 0 "
                                     "(at most %llu)", v, (unsigned long long)UINT64_MAX);
    o->seed = (uint64_t)i;
    break;
  case ZO_OPT_OUT:
    if (!*v) return zo_cli_usage_error(cmd, "--out needs a directory, not ''");
    o->out = v;
    break;
  case ZO_OPT_HARNESS:
    if (strcmp(v, "moves") && strcmp(v, "diff"))
      return zo_cli_usage_error(cmd, "invalid value '%s' for --harness: expected moves or diff "
                                     "(loader inputs are YAML already)", v);
    o->harness = v;
    break;
  case ZO_OPT_ID:
    if (!*v) return zo_cli_usage_error(cmd, "--id needs a case id, not ''");
    o->id = v;
    break;
  default:
    return zo_cli_usage_error(cmd, "option --%s not handled (a zoneoracle bug)", name);
  }
  return -1;
}

/* The side effects of the options, once all are known to be well-formed:
 * the user's rule sets, the mutants, then --ruleset (which may name a rule
 * set loaded from a file). -1, or the exit code after a message. */
static int apply(const zo_cli_command *cmd, const zo_cli_opts *o) {
  for (int k = 0; k < o->nruleset_files; k++) {
    zo_ruleset *rs;
    zo_error err = {0};
    zo_activity_set("loading %s", o->ruleset_files[k]);
    zo_status st = zo_ruleset_load_file(o->ruleset_files[k], &rs, &err);
    if (!st) st = zo_ruleset_register(rs, &err);
    if (st == ZO_ERR_NOMEM) zo_oom(NULL); /* never a verdict (util.h) */
    if (st) {
      char buf[2048];
      zo_error_format(&err, buf, sizeof buf);
      fprintf(stderr, "%s\n", buf);
      return err.code == ZO_ERR_IO ? ZO_EXIT_USAGE : ZO_EXIT_INVALID;
    }
  }
  for (int k = 0; k < o->nmutants; k++) {
    zo_error err = {0};
    if (zo_mutant_apply_named(o->mutants[k], &err)) {
      fprintf(stderr, "zoneoracle %s: --mutant '%s': %s\n", cmd->name, o->mutants[k], err.message);
      return ZO_EXIT_USAGE;
    }
  }
  if (o->ruleset && !zo_ruleset_find(o->ruleset)) {
    fprintf(stderr, "zoneoracle %s: unknown rule set '%s' for --ruleset (zoneoracle rulesets lists them)\n",
            cmd->name, o->ruleset);
    return ZO_EXIT_USAGE;
  }
  return -1;
}

/* getopt_long over the options cmd accepts, every value checked, then the
 * operand count and the options' side effects (apply). -1 to go on, else
 * the exit code (cli.h); o is freed with zo_cli_opts_free in any case. */
int zo_cli_parse(const zo_cli_command *cmd, int argc, char **argv, zo_cli_opts *o) {
  memset(o, 0, sizeof *o);
  o->report_dir = "reports";
  o->format = "text";
  o->timeout = 5;
  o->seed = 1;
  o->id = "regressions/replayed";
  unsigned accepted = cmd->opts | ZO_OPT_HELP;
  struct option longs[NSPECS + 1];
  size_t nl = 0;
  for (size_t i = 0; i < NSPECS; i++)
    if (specs[i].bit & accepted)
      longs[nl++] = (struct option){specs[i].name, specs[i].has_arg, NULL, ZO_OPT_VAL + (int)i};
  longs[nl] = (struct option){0, 0, 0, 0};
  /* glibc: optind 0 reinitialises getopt completely (a new argv); ':'
     first reports a missing value as ':' rather than '?'; no '+', so
     options may follow operands (GNU order, as `ci/conformance` relies on) */
  optind = 0;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
    if (c == ':') { /* optopt: the option's value (ours, or 'h') */
      if (optopt >= ZO_OPT_VAL && optopt < ZO_OPT_VAL + (int)NSPECS)
        return zo_cli_usage_error(cmd, "option --%s needs a value", specs[optopt - ZO_OPT_VAL].name);
      return zo_cli_usage_error(cmd, "option '-%c' needs a value", optopt);
    }
    if (c == '?') {
      /* optopt 0: an unknown or ambiguous long option (argv[optind - 1]);
         one of ours: a long option given a value it does not take; else an
         unknown short option */
      const char *what = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
      if (optopt >= ZO_OPT_VAL && optopt < ZO_OPT_VAL + (int)NSPECS)
        return zo_cli_usage_error(cmd, "option --%s takes no value ('%s')", specs[optopt - ZO_OPT_VAL].name, what);
      if (optopt > 0 && optopt < 256) return zo_cli_usage_error(cmd, "unknown option '-%c'", optopt);
      /* an abbreviation of two or more options (getopt_long takes one of one) */
      if (!strncmp(what, "--", 2) && what[2]) {
        size_t len = strcspn(what + 2, "=");
        char names[512] = "";
        int n = 0;
        for (size_t i = 0; i < nl; i++)
          if (!strncmp(longs[i].name, what + 2, len)) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s--%s", n++ ? ", " : "", longs[i].name);
          }
        if (n > 1) return zo_cli_usage_error(cmd, "ambiguous option '%s' (%s)", what, names);
      }
      return zo_cli_usage_error(cmd, "unknown option '%s'", what);
    }
    size_t k = (size_t)(c - ZO_OPT_VAL);
    if (c == 'h' || specs[k].bit == ZO_OPT_HELP) {
      zo_cli_print_help(cmd, stdout);
      return ZO_EXIT_PASS;
    }
    o->given |= specs[k].bit;
    int rc = take(cmd, k, optarg, o);
    if (rc >= 0) return rc;
  }
  o->args = argv + optind;
  o->nargs = argc - optind;
  if (cmd->max_args >= 0 && o->nargs > cmd->max_args)
    return zo_cli_usage_error(cmd, "unexpected argument '%s'", o->args[cmd->max_args]);
  if (o->nargs < cmd->min_args)
    return zo_cli_usage_error(cmd, "missing argument: expected %d, got %d", cmd->min_args, o->nargs);
  return apply(cmd, o);
}

/* Free the lists zo_cli_parse allocated (the strings are argv's). */
void zo_cli_opts_free(zo_cli_opts *o) {
  free(o->ruleset_files);
  free(o->mutants);
  o->ruleset_files = NULL;
  o->mutants = NULL;
  o->nruleset_files = o->nmutants = 0;
}

/* The operands, or the suite found by zo_cli_data_path; -1, or
 * ZO_EXIT_USAGE when there is none (cli.h). */
int zo_cli_case_paths(zo_cli_opts *o, const char *const **paths, int *n) {
  if (o->nargs > 0) {
    *paths = (const char *const *)o->args;
    *n = o->nargs;
    return -1;
  }
  if (zo_cli_data_path("cases", o->default_cases, sizeof o->default_cases)) {
    fprintf(stderr, "zoneoracle: no case suite found (give a PATH or set ZO_DATA_DIR)\n");
    return ZO_EXIT_USAGE;
  }
  o->default_path = o->default_cases;
  *paths = &o->default_path;
  *n = 1;
  return -1;
}

/* The case files of o's paths (zo_collect_cases); *files owned by the
 * caller. -1, or ZO_EXIT_USAGE after a message naming the path (cli.h). */
int zo_cli_collect(zo_cli_opts *o, char ***files, int *nfiles) {
  const char *const *paths;
  int n, rc;
  *files = NULL;
  *nfiles = 0;
  if ((rc = zo_cli_case_paths(o, &paths, &n)) >= 0) return rc;
  zo_error err = {0};
  if (zo_collect_cases(paths, n, files, nfiles, &err)) {
    fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
    return ZO_EXIT_USAGE;
  }
  return -1;
}

/* A whole input file, NUL-terminated, malloc'd (caller frees); only a
 * regular file (or a FIFO with allow_fifo). NULL after a message (cli.h). */
char *zo_cli_read_file(const char *path, int allow_fifo, size_t *size) {
  struct stat st;
  /* look before opening: a device or socket is never opened */
  if (stat(path, &st)) {
    fprintf(stderr, "zoneoracle: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  if (!S_ISREG(st.st_mode) && !(allow_fifo && S_ISFIFO(st.st_mode))) {
    fprintf(stderr, "zoneoracle: %s: not a regular file\n", path);
    return NULL;
  }
  /* O_NONBLOCK: should it have become a FIFO since, the open cannot block */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    fprintf(stderr, "zoneoracle: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  int flags;
  if (fstat(fd, &st) || (!S_ISREG(st.st_mode) && !(allow_fifo && S_ISFIFO(st.st_mode))) ||
      (flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
    fprintf(stderr, "zoneoracle: %s: not a regular file\n", path);
    close(fd);
    return NULL;
  }
  size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536, n = 0;
  char *buf = zo_xmalloc(cap);
  for (;;) {
    if (n + 1 >= cap) {
      if (cap > ((size_t)-1) / 2) {
        fprintf(stderr, "zoneoracle: %s: too large\n", path);
        free(buf);
        close(fd);
        return NULL;
      }
      buf = zo_xrealloc(buf, cap *= 2);
    }
    ssize_t r = read(fd, buf + n, cap - n - 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      fprintf(stderr, "zoneoracle: %s: %s\n", path, strerror(errno));
      free(buf);
      close(fd);
      return NULL;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  close(fd);
  buf[n] = 0;
  *size = n;
  return buf;
}

/* The engine under test, started and past its handshake; NULL after a
 * message (the caller exits ZO_EXIT_ENGINE) (cli.h). */
zo_engine *zo_cli_engine_open(const char *cmd, const char *plugin, const zo_engine_process_options *eo) {
  zo_error err = {0};
  zo_engine *e = plugin ? zo_engine_plugin_open(plugin, eo, &err) : zo_engine_process_open(cmd, eo, &err);
  if (!e)
    fprintf(stderr, "zoneoracle: engine '%s' could not be started or driven: %s\n", plugin ? plugin : cmd,
            err.message);
  return e;
}

/* mkdir -p dir: 0 when it is a directory now, else -1 with errno set
 * (ENOTDIR when it exists as something else) (cli.h). */
int zo_cli_mkdirs(const char *dir) {
  char *buf = zo_xstrdup(dir);
  int rc = 0;
  for (char *p = buf + 1; *p && !rc; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(buf, 0777) && errno != EEXIST) rc = -1;
      *p = '/';
    }
  if (!rc && mkdir(buf, 0777) && errno != EEXIST) rc = -1;
  if (!rc) { /* it exists: it must be a directory */
    struct stat st;
    if (stat(buf, &st)) rc = -1;
    else if (!S_ISDIR(st.st_mode)) {
      errno = ENOTDIR;
      rc = -1;
    }
  }
  int saved = errno;
  free(buf);
  errno = saved;
  return rc;
}
