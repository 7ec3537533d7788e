/* engines/process.c: an engine under test driven over zcp/1
 * (ci/protocol/PROTOCOL.md): one JSON request per line on its stdin, one
 * answer per line on its stdout. An engine is one of
 *   - a command (--engine CMD): a child process;
 *   - a plugin (--engine-plugin LIB.so, zo_engine.h), by default in a
 *     forked worker: a child of the runner that dlopens the library and
 *     relays each request line to its request() and each answer back, so
 *     the runner drives it exactly like a command (time limits, restarts,
 *     crash reports) and a plugin that crashes, calls exit() or loops
 *     forever fails its case instead of taking the runner with it;
 *   - a plugin in process (zo_engine_process_options.in_process, for the
 *     fuzz harnesses, where speed matters): no pipes, no isolation, no
 *     time limit.
 *
 * What the driver guarantees for a child (a command or a worker):
 *   - It runs in a process group of its own. A command made only of words
 *     without shell metacharacters is split on blanks and exec'd directly;
 *     any other runs under `/bin/sh -c CMD`. Whenever the child is stopped
 *     (after a failure, at the end after bye, when the engine is freed) the
 *     whole group is killed with SIGKILL before the child is reaped, so
 *     whatever the engine or its shell started goes too. When the runner
 *     itself ends (exit(), or SIGINT/SIGTERM/SIGHUP/SIGQUIT/SIGABRT unless
 *     ignored: the handler chains to the one it replaced) the live groups are killed
 *     and the captures removed as well (zo_engine_process_kill_all does it
 *     for other handlers); on Linux a child also gets SIGKILL when the
 *     runner dies, even of SIGKILL.
 *   - It inherits no descriptor but its stdin, stdout and stderr (every
 *     other is closed in the child; the runner's own ends are opened
 *     close-on-exec too), with SIGPIPE at its default and no signal blocked.
 *   - Every request has a time limit (zo_engine_process_options.timeout),
 *     from the first byte written to the end of the answer line. Writes
 *     never block (a child that does not read its input times out), and a
 *     child is never waited for while it may still be alive: it is reaped
 *     only after its group was killed or once it has exited.
 *   - A failure fails that call with a kind in err->context and a message:
 *     "timeout": no complete answer in time (a hang, a partial line, a
 *     stopped or sleeping engine, endless stderr);
 *     "crash": it exited (any status), died by a signal, or closed its
 *     stdout or stdin; "error": a line that is not a JSON object (an empty
 *     line, garbage, bytes that are not UTF-8), a line over 16 MiB or
 *     endless output without a newline, another request's id. The child
 *     is then stopped, and the next setup (or smoke exchange) starts it
 *     again, handshake first, so the run goes on with the next case.
 *   - An answer that is JSON but not a right answer to its request (a step
 *     answer without an outcome, an observe answer without objects, a
 *     position or layer outside the range the model holds) is an "error"
 *     naming the field; the engine is kept. Numbers are never truncated.
 *   - stderr goes through a pipe drained while the runner waits, kept
 *     bounded (its first 32 KiB and its last 32 KiB; the cut is said) in a
 *     file made O_EXCL|O_NOFOLLOW in a private directory (mkdtemp), both
 *     removed when the engine is freed (or, when the runner was killed
 *     with SIGKILL, by the next run). A failure's message ends with the
 *     last lines of it (up to 8, joined with " | ").
 *   - Messages and names taken from an engine are valid UTF-8 on one line:
 *     bytes that are not UTF-8 are written \xNN, control characters as
 *     spaces, and text is cut only between characters.
 *
 * A tap (zo_engine_process_options.tap) records every request sent and
 * every answer received as one JSON line, for `gate --validate`; `smoke`
 * sends lines of its own through zo_engine_process_exchange.
 */
#define _GNU_SOURCE /* pipe2, on_exit, close_range */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include "engine.h"
#include "error.h"
#include "internal/zcp_int.h"
#include "util.h"
#include "zcp_json.h"
#include "zo_engine.h"

#define LINE_MAX_BYTES (16u * 1024u * 1024u)
#define ERR_HEAD (32u * 1024u) /* stderr kept from its start */
#define ERR_TAIL (32u * 1024u) /* and from its end */

/* ---- text ---------------------------------------------------------------- */

static const char *or_text(const char *s, const char *dflt) { return s ? s : dflt; }

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- stderr capture ------------------------------------------------------ */

/* One engine's stderr since its last start: the first ERR_HEAD bytes, the
 * last ERR_TAIL bytes in a ring, and how many came in all; mirrored into
 * a file in a private directory when the engine stops. */
typedef struct {
  char dir[512], path[560]; /* the private directory and the file in it; "" none */
  int fd;                   /* the file, -1 none */
  unsigned char head[ERR_HEAD];
  size_t nhead;
  unsigned char ring[ERR_TAIL];
  size_t rpos; /* where the next byte goes in ring */
  unsigned long long total;
} capture;

/* Remove what runners killed before they could clean up (SIGKILL) left in
 * tmp: directories zoneoracle-engine-PID-XXXXXX that are ours (our uid,
 * real directories, not links) whose PID no longer runs, with the stderr
 * file in them. Once per process and tmp directory. */
static void cap_sweep(const char *tmp) {
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

/* Make the private directory (mkdtemp under $TMPDIR or /tmp, named with
 * our pid so that a later run can remove it should we be killed) and the
 * file in it (O_EXCL|O_NOFOLLOW|O_CLOEXEC, 0600). When either fails the
 * capture works in memory only (dir and path ""). */
static void cap_open(capture *c) {
  c->fd = -1;
  c->dir[0] = c->path[0] = 0;
  const char *t = getenv("TMPDIR");
  if (!t || t[0] != '/' || strlen(t) > 400) t = "/tmp";
  cap_sweep(t);
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

/* Forget what was captured (a new start); the file is emptied. */
static void cap_reset(capture *c) {
  c->nhead = c->rpos = 0;
  c->total = 0;
  if (c->fd >= 0 && ftruncate(c->fd, 0)) { /* the file is a courtesy copy */
  }
}

/* Bytes held in the ring. */
static size_t cap_ringlen(const capture *c) {
  unsigned long long after = c->total - c->nhead;
  return after < ERR_TAIL ? (size_t)after : ERR_TAIL;
}

/* Take n more bytes of stderr. */
static void cap_add(capture *c, const char *data, size_t n) {
  c->total += n;
  size_t h = ERR_HEAD - c->nhead < n ? ERR_HEAD - c->nhead : n;
  memcpy(c->head + c->nhead, data, h);
  c->nhead += h;
  data += h;
  n -= h;
  if (!n) return;
  if (n >= ERR_TAIL) {
    memcpy(c->ring, data + n - ERR_TAIL, ERR_TAIL);
    c->rpos = 0;
    return;
  }
  size_t first = ERR_TAIL - c->rpos < n ? ERR_TAIL - c->rpos : n;
  memcpy(c->ring + c->rpos, data, first);
  memcpy(c->ring, data + first, n - first);
  c->rpos = (c->rpos + n) % ERR_TAIL;
}

/* Copy the last `want` (or fewer, when fewer were kept in one piece)
 * bytes of stderr to out; *whole = 1 when they start at its beginning.
 * Returns how many were copied. */
static size_t cap_last(const capture *c, char *out, size_t want, int *whole) {
  size_t inring = cap_ringlen(c);
  int cut = c->total > (unsigned long long)(c->nhead + inring);
  size_t avail = inring + (cut ? 0 : c->nhead);
  size_t n = want < avail ? want : avail;
  size_t fromring = n < inring ? n : inring, fromhead = n - fromring;
  memcpy(out, c->head + c->nhead - fromhead, fromhead);
  size_t start = (c->rpos + ERR_TAIL - fromring) % ERR_TAIL;
  size_t first = ERR_TAIL - start < fromring ? ERR_TAIL - start : fromring;
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

/* Mirror the capture into its file: the head, a line saying how many
 * bytes were cut when some were, then the tail. */
static void cap_sync(const capture *c) {
  if (c->fd < 0 || ftruncate(c->fd, 0)) return;
  off_t off = 0;
  write_at(c->fd, c->head, c->nhead, &off);
  size_t inring = cap_ringlen(c);
  unsigned long long cut = c->total - c->nhead - inring;
  if (cut) {
    char m[120];
    int k = snprintf(m, sizeof m, "\n[zoneoracle: %llu bytes of stderr cut here; the first %u and the last %u kept]\n",
                     cut, ERR_HEAD, ERR_TAIL);
    write_at(c->fd, m, (size_t)k, &off);
  }
  size_t start = (c->rpos + ERR_TAIL - inring) % ERR_TAIL;
  size_t first = ERR_TAIL - start < inring ? ERR_TAIL - start : inring;
  write_at(c->fd, c->ring + start, first, &off);
  write_at(c->fd, c->ring, inring - first, &off);
}

/* Close and remove the file and the private directory. */
static void cap_close(capture *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
  if (c->path[0]) unlink(c->path);
  if (c->dir[0]) rmdir(c->dir);
  c->dir[0] = c->path[0] = 0;
}

/* The end of the captured stderr for a message, in out (cap > 8 bytes):
 * its last lines (up to 8, blank ones left out), oldest first, joined with
 * " | " and written as put_text does; "..." in front when the first one
 * shown is not whole. Empty when nothing was written. */
static void stderr_summary(const capture *c, char *out, size_t cap) {
  out[0] = 0;
  char raw[1536];
  int whole;
  size_t n = cap_last(c, raw, sizeof raw, &whole);
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

/* ---- live children, for the runner's own exit paths ---------------------- */

/* A slot per engine: its process group while a child runs (0 none) and its
 * capture's paths, read by the exit and signal handlers (which only call
 * async-signal-safe functions). */
#define LIVE_SLOTS 64
static struct {
  volatile sig_atomic_t used, pgid;
  char file[560], dir[512];
} live[LIVE_SLOTS];
static pid_t live_owner; /* the runner: a forked worker never cleans up */

/* Kill every live group and remove the captures (atexit; signals;
 * zo_engine_process_kill_all). Async-signal-safe; nothing in a process
 * other than the one that started the engines (a forked worker). */
static void live_cleanup(void) {
  if (getpid() != live_owner) return;
  for (int i = 0; i < LIVE_SLOTS; i++) {
    if (!live[i].used) continue;
    pid_t g = (pid_t)live[i].pgid;
    if (g > 0) {
      kill(-g, SIGKILL);
      kill(g, SIGKILL);
    }
    if (live[i].file[0]) unlink(live[i].file);
    if (live[i].dir[0]) rmdir(live[i].dir);
  }
}

/* The signals after which no engine may stay: their previous actions. */
static const int live_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT};
static struct sigaction live_old[sizeof live_sigs / sizeof *live_sigs];

/* SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT (abort(), failed checks;
 * not installed where the signal was ignored):
 * clean up, put the previous action back and raise the signal again, so a
 * handler the program had still runs, and the default action still ends
 * it. */
static void live_on_signal(int sig) {
  int saved = errno;
  live_cleanup();
  for (size_t i = 0; i < sizeof live_sigs / sizeof *live_sigs; i++)
    if (live_sigs[i] == sig) sigaction(sig, &live_old[i], NULL);
  raise(sig);
  errno = saved;
}

/* Install the exit and signal handlers, once per process. */
static void live_hook(void) {
  static pid_t hooked;
  if (hooked == getpid()) return;
  hooked = live_owner = getpid();
  static int at;
  if (!at) at = !atexit(live_cleanup);
  for (size_t i = 0; i < sizeof live_sigs / sizeof *live_sigs; i++) {
    struct sigaction old;
    if (sigaction(live_sigs[i], NULL, &old) || (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN))
      continue;
    live_old[i] = old;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = live_on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    sigaction(live_sigs[i], &sa, NULL);
  }
}

void zo_engine_process_kill_all(void) { live_cleanup(); }

/* A slot for an engine with this capture, or -1 when all are taken (the
 * engine then relies on its own cleanup only). */
static int live_add(const capture *c) {
  for (int i = 0; i < LIVE_SLOTS; i++)
    if (!live[i].used) {
      live[i].pgid = 0;
      snprintf(live[i].file, sizeof live[i].file, "%s", c->path);
      snprintf(live[i].dir, sizeof live[i].dir, "%s", c->dir);
      live[i].used = 1;
      return i;
    }
  return -1;
}

/* Record the process group now running for slot (0: none). */
static void live_set(int slot, pid_t pgid) {
  if (slot >= 0) live[slot].pgid = (sig_atomic_t)pgid;
}

/* Give the slot back (its engine is freed). */
static void live_remove(int slot) {
  if (slot < 0) return;
  live[slot].pgid = 0;
  live[slot].used = 0;
}

/* ---- the engine ----------------------------------------------------------- */

typedef enum { RUN_COMMAND, RUN_WORKER, RUN_IN_PROCESS } run_kind;

typedef struct {
  char *cmd;              /* the command, or the plugin's path */
  char **argv;            /* the command split on blanks; NULL: /bin/sh -c cmd */
  run_kind kind;
  double timeout;         /* seconds per request */
  pid_t pid;              /* the child, leader of its own process group; 0 none */
  int to, from, errfd;    /* its stdin, stdout, stderr (non-blocking); -1 closed */
  int out_eof;            /* its stdout ended */
  char *buf;              /* what it wrote on stdout and was not taken yet */
  size_t len, cap, scanned; /* scanned: bytes of buf known to hold no newline */
  long next_id;
  char name[96], version[64];
  json_t *features, *rulesets;
  json_t *hello;          /* the last handshake's answer */
  FILE *tap;              /* the transcript, or NULL (borrowed) */
  const zo_case *c;        /* the case set up, borrowed until teardown */
  zo_zcp_names names;      /* c's handle names, for reading answers */
  int slot;               /* in live[], -1 */
  capture errs;
  /* a plugin in process (zo_engine.h) */
  void *dl;
  const struct zo_engine_ops *plugin;
  void *session;
  zo_engine_vtable ops;   /* name/version filled after the handshake */
} proc;

/* Words only sh knows (builtins, reserved words): such a command needs it. */
static const char *const shell_words[] = {
    ".", ":", "alias", "bg", "break", "case", "cd", "command", "continue", "do", "done", "elif",
    "else", "esac", "eval", "exec", "exit", "export", "fc", "fg", "fi", "for", "function",
    "getopts", "hash", "if", "in", "jobs", "local", "read", "readonly", "return", "select",
    "set", "shift", "source", "then", "time", "times", "trap", "type", "ulimit", "umask",
    "unalias", "unset", "until", "wait", "while"};

/* Does cmd need /bin/sh? Yes unless it is only words of letters, digits
 * and -_./,:+@%^ separated by blanks (spaces, tabs), the first of them not
 * a shell builtin or reserved word. Anything else (quotes, $, `, \, |, &,
 * ;, <, >, (, ), globs, braces, ~, #, =, newlines, non-ASCII) goes to sh. */
static int needs_shell(const char *cmd) {
  static const char safe[] = "-_./,:+@%^";
  int words = 0;
  for (const char *s = cmd; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == ' ' || ch == '\t') continue;
    if (!(ch < 0x80 && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                        strchr(safe, ch))))
      return 1;
    if (s == cmd || s[-1] == ' ' || s[-1] == '\t') words++;
  }
  if (!words) return 1;
  const char *w = cmd + strspn(cmd, " \t");
  size_t n = strcspn(w, " \t");
  for (size_t i = 0; i < sizeof shell_words / sizeof *shell_words; i++)
    if (strlen(shell_words[i]) == n && !memcmp(w, shell_words[i], n)) return 1;
  return 0;
}

/* cmd split on blanks: a NULL-terminated array of malloc'd words (the
 * caller frees it with free_words). */
static char **split_words(const char *cmd) {
  size_t n = 0, cap = 4;
  char **v = zo_xmalloc(cap * sizeof *v);
  for (const char *s = cmd; *s;) {
    s += strspn(s, " \t");
    size_t k = strcspn(s, " \t");
    if (!k) break;
    if (n + 2 > cap) v = zo_xrealloc(v, (cap *= 2) * sizeof *v);
    v[n] = zo_xmalloc(k + 1);
    memcpy(v[n], s, k);
    v[n++][k] = 0;
    s += k;
  }
  v[n] = NULL;
  return v;
}

/* Free what split_words returned (NULL: nothing). */
static void free_words(char **v) {
  for (size_t i = 0; v && v[i]; i++) free(v[i]);
  free(v);
}

/* Close every descriptor from lowfd up (in a child, before exec). */
static void close_from(int lowfd) {
#if defined(__linux__) && defined(SYS_close_range)
  if (!syscall(SYS_close_range, (unsigned)lowfd, ~0u, 0u)) return;
#endif
  long max = sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (int fd = lowfd; fd < max; fd++) close(fd);
}

/* In a new child: its own process group, SIGKILL when the runner dies
 * (Linux), default signal actions for what the runner changed, nothing
 * blocked. */
static void child_common(pid_t parent) {
  setpgid(0, 0);
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127); /* the runner is already gone */
#else
  (void)parent;
#endif
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  const int sigs[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) sigaction(sigs[i], &dfl, NULL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Write all n bytes to fd (blocking): 0, or -1 when it fails. */
static int write_all(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    s += w;
    n -= (size_t)w;
  }
  return 0;
}

#ifdef __GLIBC__
/* In a worker, a plugin's exit(N) ends the worker with N at once: the
 * runner's own exit handlers (inherited through fork) must not run there. */
static void worker_on_exit(int status, void *arg) {
  (void)arg;
  fflush(stdout);
  fflush(stderr);
  _exit(status);
}
#endif

/* The worker's life: load the plugin at path, then answer each line read
 * from descriptor 3 with its request() on descriptor 4 (newlines inside an
 * answer become spaces: JSON means the same), until the end of its input;
 * then close() and _exit(0). Its stdout and stderr are the runner's stderr
 * capture, so a plugin that prints cannot garble the protocol. A plugin
 * that cannot be loaded or opened: the reason on stderr, _exit(127).
 * Never returns. */
__attribute__((noreturn)) static void worker_main(const char *path) {
#ifdef __GLIBC__
  on_exit(worker_on_exit, NULL);
#endif
  void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  const struct zo_engine_ops *(*entry)(void) = NULL;
  const struct zo_engine_ops *ops = NULL;
  void *session = NULL;
  if (!dl) fprintf(stderr, "zoneoracle: cannot load plugin: %s\n", dlerror());
  else if (!(*(void **)&entry = dlsym(dl, "zo_engine_v1"))) fprintf(stderr, "zoneoracle: %s: no symbol zo_engine_v1\n", path);
  else if (!(ops = entry()) || ops->abi_version != ZO_ENGINE_ABI_VERSION)
    fprintf(stderr, "zoneoracle: %s: the plugin's abi_version is not %u\n", path, ZO_ENGINE_ABI_VERSION);
  else if (!(session = ops->open())) fprintf(stderr, "zoneoracle: %s: the plugin's open() failed\n", path);
  if (!session) {
    fflush(stderr);
    _exit(127);
  }
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    char *nl;
    while ((nl = len ? memchr(buf, '\n', len) : NULL)) {
      *nl = 0;
      char *reply = ops->request(session, buf);
      int bad = 0;
      if (!reply) {
        fprintf(stderr, "zoneoracle: %s: request() returned NULL\n", path);
        fflush(stderr);
        bad = write_all(4, "\n", 1);
      } else {
        for (const char *s = reply; *s && !bad;) {
          size_t k = strcspn(s, "\n");
          bad = write_all(4, s, k) || (s[k] && write_all(4, " ", 1));
          s += k + (s[k] != 0);
        }
        bad = bad || write_all(4, "\n", 1);
        ops->free_response(reply);
      }
      if (bad) _exit(0); /* the runner has gone */
      size_t used = (size_t)(nl - buf) + 1;
      memmove(buf, nl + 1, len - used);
      len -= used;
    }
    if (cap - len < 65536) buf = zo_xrealloc(buf, cap = cap ? cap * 2 : 65536);
    ssize_t r = read(3, buf + len, cap - len);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    len += (size_t)r;
  }
  ops->close(session);
  _exit(0);
}

/* Take what the child wrote on stderr (at most 1 MiB a call, so a flood
 * cannot hold the runner); its end closes errfd. */
static void drain_stderr(proc *p) {
  char chunk[65536];
  for (int round = 0; round < 16 && p->errfd >= 0; round++) {
    ssize_t got = read(p->errfd, chunk, sizeof chunk);
    if (got > 0) {
      cap_add(&p->errs, chunk, (size_t)got);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    close(p->errfd);
    p->errfd = -1;
  }
}

/* Take what the child wrote on stdout onto p->buf (at most 1 MiB a call;
 * nothing once the buffer holds more than a line may); its end sets
 * out_eof. */
static void read_stdout(proc *p) {
  for (int round = 0; round < 16 && p->len <= LINE_MAX_BYTES; round++) {
    if (p->cap - p->len < 65536) p->buf = zo_xrealloc(p->buf, p->cap = p->cap ? p->cap * 2 : 65536);
    ssize_t got = read(p->from, p->buf + p->len, p->cap - p->len);
    if (got > 0) {
      p->len += (size_t)got;
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    p->out_eof = 1;
    return;
  }
}

/* Wait at most until deadline for the child's pipes and take what they
 * hold (stderr into the capture, stdout onto the buffer). want_write: also
 * wake when its stdin can take more. Returns 1 when stdin can (or is
 * broken: the next write says so), else 0 (something read, or the time
 * is up). */
static int pump(proc *p, double deadline, int want_write) {
  struct pollfd pf[3];
  int n = 0, io = -1, ie = -1, iw = -1;
  if (p->from >= 0 && !p->out_eof && p->len <= LINE_MAX_BYTES) {
    io = n;
    pf[n++] = (struct pollfd){.fd = p->from, .events = POLLIN};
  }
  if (p->errfd >= 0) {
    ie = n;
    pf[n++] = (struct pollfd){.fd = p->errfd, .events = POLLIN};
  }
  if (want_write && p->to >= 0) {
    iw = n;
    pf[n++] = (struct pollfd){.fd = p->to, .events = POLLOUT};
  }
  double left = deadline - now();
  int ms = left <= 0 ? 0 : left > 1e8 ? 100000000 : (int)(left * 1000) + 1;
  if (poll(pf, (nfds_t)n, ms) <= 0) return 0;
  if (ie >= 0 && pf[ie].revents) drain_stderr(p);
  if (io >= 0 && pf[io].revents) read_stdout(p);
  return iw >= 0 && pf[iw].revents != 0;
}

/* Has the child exited? 1 with *status (a waitpid status) when it has,
 * without reaping it (it stays a zombie, so its pid and group id cannot be
 * reused before stop() kills the group and reaps it); else 0. */
static int exited(proc *p, int *status) {
  siginfo_t si;
  memset(&si, 0, sizeof si);
  if (p->pid <= 0 || waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) || si.si_pid != p->pid)
    return 0;
  *status = si.si_code == CLD_EXITED ? (si.si_status & 0xff) << 8 : (si.si_status & 0x7f);
  return 1;
}

/* Stop the child: SIGKILL to its whole group, reap it, take what is left
 * on its stderr (until its end, at most 100 ms), close the pipes and
 * mirror the capture into its file. Nothing when none runs. */
static void stop(proc *p) {
  if (p->pid > 0) {
    kill(-p->pid, SIGKILL);
    kill(p->pid, SIGKILL);
    int status;
    while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR) {
    }
    live_set(p->slot, 0);
    p->pid = 0;
  }
  if (p->to >= 0) close(p->to);
  if (p->from >= 0) close(p->from);
  p->to = p->from = -1;
  double until = now() + 0.1;
  while (p->errfd >= 0) {
    double left = until - now();
    struct pollfd pf = {.fd = p->errfd, .events = POLLIN};
    if (left <= 0 || poll(&pf, 1, (int)(left * 1000) + 1) <= 0) break;
    drain_stderr(p);
  }
  if (p->errfd >= 0) close(p->errfd);
  p->errfd = -1;
  if (p->kind != RUN_IN_PROCESS) cap_sync(&p->errs);
  p->len = p->scanned = 0;
  p->out_eof = 0;
}

/* Fill err (when not NULL) for an engine failure of kind fault
 * (zcp_fault): `what` as the message, followed, when with_stderr and the
 * engine is a child, by the stderr summary (what then cut to 260 bytes);
 * the command as the file. Returns ZO_ERR_ENGINE. */
static zo_status fill_error(proc *p, zo_error *err, zo_engine_fault fault, const char *what, int with_stderr) {
  if (!err) return ZO_ERR_ENGINE;
  char message[sizeof err->message] = "";
  zcp_text_put(message, with_stderr ? 260 : sizeof message, what, strlen(what));
  if (with_stderr && p->kind != RUN_IN_PROCESS) {
    char tail[sizeof message];
    size_t used = strlen(message);
    stderr_summary(&p->errs, tail, sizeof message - used - 12);
    if (tail[0]) snprintf(message + used, sizeof message - used, "; stderr: %s", tail);
  }
  return zcp_fault(err, fault, p->cmd, message);
}

/* A failure of the child: stop it (stop()), then fill err as fill_error
 * does, the stderr summary included. Returns ZO_ERR_ENGINE. */
static zo_status engine_fail(proc *p, zo_error *err, zo_engine_fault fault, const char *what) {
  stop(p);
  return fill_error(p, err, fault, what, 1);
}


/* How a reaped or exited child ended (a waitpid status), for messages. */
static void describe_status(int status, char *out, size_t cap, const char *exited_how) {
  if (WIFSIGNALED(status))
    snprintf(out, cap, "the engine died (signal %d, %s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  else snprintf(out, cap, "the engine exited (status %d) %s", WEXITSTATUS(status), exited_how);
}

/* The child's stdout ended (input_closed 0), or its stdin refused the
 * request (1): give it until the deadline (at most 1 s, at least 50 ms)
 * to exit, so the message can say how it ended, then stop it (its group
 * killed either way). Returns ZO_ERR_ENGINE, kind "crash", err filled. */
static zo_status gone(proc *p, zo_error *err, double deadline, int input_closed) {
  double t = now(), until = deadline < t + 1.0 ? deadline : t + 1.0;
  if (until < t + 0.05) until = t + 0.05;
  int status = 0, done;
  while (!(done = exited(p, &status)) && now() < until) {
    double next = now() + 0.01;
    pump(p, next < until ? next : until, 0);
    p->len = p->scanned = 0; /* what it writes now answers nothing */
  }
  char what[200];
  if (done) describe_status(status, what, sizeof what, input_closed ? "before reading the request" : "without answering");
  else snprintf(what, sizeof what, "the engine closed its %s and kept running (killed)", input_closed ? "input" : "output");
  return engine_fail(p, err, ZO_ENGINE_FAULT_CRASH, what);
}

static zo_status start(proc *p, zo_error *err);

/* One transcript line: {"dir": dir, "op": op, "message": message}, or
 * "raw": the text of an answer that is not JSON (bytes >= 0x80 as '?' when
 * they are not UTF-8). Nothing when op is NULL (smoke's own lines). */
static void tap_write(proc *p, const char *dir, const char *op, json_t *message, const char *raw,
                      size_t rawlen) {
  if (!p->tap || !op) return;
  json_t *rec = json_pack("{s:s, s:s}", "dir", dir, "op", op[0] ? op : "?");
  if (message) json_object_set(rec, "message", message);
  else {
    json_t *text = json_stringn(raw ? raw : "", raw ? rawlen : 0);
    if (!text) {
      char *copy = zo_xmalloc(rawlen + 1);
      for (size_t i = 0; i < rawlen; i++) copy[i] = (unsigned char)raw[i] < 0x80 ? raw[i] : '?';
      text = json_stringn(copy, rawlen);
      free(copy);
    }
    json_object_set_new(rec, "raw", text ? text : json_string(""));
  }
  char *line = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
  if (line) {
    fputs(line, p->tap);
    fputc('\n', p->tap);
    free(line);
  }
  json_decref(rec);
}

/* A plugin's answer to `text` in process (the answer parsed into *out,
 * new reference, any JSON value or NULL; tapped as the answer to op unless
 * op is NULL). */
static void plugin_answer(proc *p, const char *text, const char *op, json_t **out) {
  char *answer_text = p->plugin->request(p->session, text);
  json_error_t je;
  *out = answer_text ? json_loads(answer_text, JSON_DECODE_ANY, &je) : NULL;
  if (answer_text) tap_write(p, "response", op, *out, answer_text, strlen(answer_text));
  if (answer_text) p->plugin->free_response(answer_text);
}

/* Write n bytes (one line with its newline) to the child's stdin by the
 * deadline, taking its output meanwhile (so neither side can block the
 * other). ZO_OK, or ZO_ERR_ENGINE with the child stopped and err filled:
 * "timeout" when it does not take the line in time, "crash" when its
 * input is closed or its output ends, "error" when it floods. */
static zo_status send_line(proc *p, const char *text, size_t n, double deadline, zo_error *err) {
  size_t off = 0;
  while (off < n) {
    ssize_t w = write(p->to, text + off, n - off);
    if (w > 0) {
      off += (size_t)w;
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (now() >= deadline) {
        char what[160];
        snprintf(what, sizeof what, "the engine did not read the request within %g s", p->timeout);
        return engine_fail(p, err, ZO_ENGINE_FAULT_TIMEOUT, what);
      }
      pump(p, deadline, 1);
      if (p->len > LINE_MAX_BYTES) return engine_fail(p, err, ZO_ENGINE_FAULT_ERROR, "the engine wrote a line over 16 MiB");
      if (p->out_eof) return gone(p, err, deadline, 0);
      continue;
    }
    return gone(p, err, deadline, 1);
  }
  return ZO_OK;
}

/* Has the child closed its stdin (no reader left on the pipe)? */
static int input_closed(proc *p) {
  struct pollfd pf = {.fd = p->to, .events = POLLOUT};
  return p->to >= 0 && poll(&pf, 1, 0) == 1 && (pf.revents & POLLERR);
}

/* Read the child's next line by the deadline: a JSON object (new
 * reference in *out; tapped as the answer to op unless op is NULL). Else
 * ZO_ERR_ENGINE with the child stopped and err filled ("timeout",
 * "crash" or "error"). */
static zo_status read_answer(proc *p, const char *op, double deadline, json_t **out, zo_error *err) {
  for (;;) {
    char *nl = p->len > p->scanned ? memchr(p->buf + p->scanned, '\n', p->len - p->scanned) : NULL;
    if (nl) {
      size_t line = (size_t)(nl - p->buf);
      if (line > LINE_MAX_BYTES) return engine_fail(p, err, ZO_ENGINE_FAULT_ERROR, "the engine wrote a line over 16 MiB");
      json_error_t je;
      json_t *res = json_loadb(p->buf, line, 0, &je);
      tap_write(p, "response", op, res, p->buf, line);
      memmove(p->buf, nl + 1, p->len - line - 1);
      p->len -= line + 1;
      p->scanned = 0;
      if (!res || !json_is_object(res)) {
        json_decref(res);
        const char *why = !line ? "an empty line" : res ? "not an object" : je.text;
        char what[300] = "the engine wrote a line that is not a JSON object (";
        zcp_text_put(what, sizeof what - 2, why, strlen(why));
        strcat(what, ")");
        return engine_fail(p, err, ZO_ENGINE_FAULT_ERROR, what);
      }
      *out = res;
      return ZO_OK;
    }
    p->scanned = p->len;
    if (p->len > LINE_MAX_BYTES) return engine_fail(p, err, ZO_ENGINE_FAULT_ERROR, "the engine wrote a line over 16 MiB");
    if (p->out_eof) return gone(p, err, deadline, 0);
    if (now() >= deadline) {
      char what[160];
      if (input_closed(p)) /* it closed its stdin: no request can reach it */
        return engine_fail(p, err, ZO_ENGINE_FAULT_CRASH, "the engine closed its input and kept running (killed)");
      snprintf(what, sizeof what, "no answer within %g s", p->timeout);
      if (p->len) snprintf(what + strlen(what), sizeof what - strlen(what), " (a partial line of %zu bytes)", p->len);
      return engine_fail(p, err, ZO_ENGINE_FAULT_TIMEOUT, what);
    }
    pump(p, deadline, 0);
  }
}

/* Send a request, read the response object (new reference in *out). The
 * request is consumed. */
static zo_status call(proc *p, json_t *req, json_t **out, zo_error *err) {
  *out = NULL;
  json_object_set_new(req, "id", json_integer(++p->next_id));
  char op[32];
  snprintf(op, sizeof op, "%s", or_text(json_string_value(json_object_get(req, "op")), ""));
  char *text = json_dumps(req, JSON_COMPACT);
  if (text) tap_write(p, "request", op, req, NULL, 0);
  json_decref(req);
  if (!text) {
    fill_error(p, err, ZO_ENGINE_FAULT_ERROR, "could not encode a request", 0);
    return ZO_ERR_ENGINE;
  }
  if (p->kind == RUN_IN_PROCESS) { /* the same message through the plugin ABI */
    json_t *res;
    plugin_answer(p, text, op, &res);
    free(text);
    json_t *id = json_object_get(res, "id");
    if (!json_is_object(res) || !json_is_integer(id) || json_integer_value(id) != (json_int_t)p->next_id) {
      json_decref(res);
      fill_error(p, err, ZO_ENGINE_FAULT_ERROR, "the plugin answered no JSON object with the request's id", 0);
      return ZO_ERR_ENGINE;
    }
    *out = res;
    return ZO_OK;
  }
  if (p->pid <= 0) {
    free(text);
    fill_error(p, err, ZO_ENGINE_FAULT_CRASH, "the engine is not running (it failed on an earlier request)", 0);
    return ZO_ERR_ENGINE;
  }
  double deadline = now() + p->timeout;
  size_t n = strlen(text);
  text[n] = '\n';
  zo_status st = send_line(p, text, n + 1, deadline, err);
  free(text);
  if (st) return st;
  json_t *res;
  if ((st = read_answer(p, op, deadline, &res, err))) return st;
  json_t *id = json_object_get(res, "id");
  if (!json_is_integer(id) || json_integer_value(id) != (json_int_t)p->next_id) {
    char *shown = id ? json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    char what[200];
    snprintf(what, sizeof what, "the engine answered with another request's id (%.60s, expected %ld)",
             shown ? shown : "none", p->next_id);
    free(shown);
    json_decref(res);
    return engine_fail(p, err, ZO_ENGINE_FAULT_ERROR, what);
  }
  *out = res;
  return ZO_OK;
}

/* ok: false answers become errors (kind "answer"; "unsupported" when
 * that is the error's code): "engine answered CODE: MESSAGE", the text up
 * to the code's end cut to 200 bytes. */
static zo_status answer(proc *p, json_t *res, zo_error *err) {
  if (json_is_true(json_object_get(res, "ok"))) return ZO_OK;
  json_t *e = json_object_get(res, "error");
  const char *code = json_string_value(json_object_get(e, "code"));
  const char *msg = json_string_value(json_object_get(e, "message"));
  if (!err) return ZO_ERR_ENGINE;
  char what[sizeof err->message] = "engine answered ";
  zcp_text_put(what, 200, code ? code : "an error", strlen(code ? code : "an error"));
  zcp_text_put(what, sizeof what, ": ", 2);
  if (msg) zcp_text_put(what, sizeof what, msg, strlen(msg));
  return zcp_fault(err, code && !strcmp(code, "unsupported") ? ZO_ENGINE_FAULT_UNSUPPORTED : ZO_ENGINE_FAULT_ANSWER,
                   p->cmd, what);
}

/* Keep the handshake's answer res (taken): name, version, rule sets and
 * features. */
static void keep_hello(proc *p, json_t *res) {
  zcp_text_set(p->name, sizeof p->name, or_text(json_string_value(json_object_get(res, "engine")), "engine"));
  zcp_text_set(p->version, sizeof p->version, or_text(json_string_value(json_object_get(res, "version")), "?"));
  json_decref(p->features);
  json_decref(p->rulesets);
  json_decref(p->hello);
  p->features = json_incref(json_object_get(res, "features"));
  p->rulesets = json_incref(json_object_get(res, "rulesets"));
  p->hello = res;
}

/* Start the child (a command or a plugin worker) and shake hands. ZO_OK,
 * or ZO_ERR_ENGINE with err filled and nothing left running. */
static zo_status start(proc *p, zo_error *err) {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, er[2] = {-1, -1};
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(er, O_CLOEXEC)) {
    int fds[6] = {in[0], in[1], out[0], out[1], er[0], er[1]};
    for (int i = 0; i < 6; i++)
      if (fds[i] >= 0) close(fds[i]);
    char what[160];
    snprintf(what, sizeof what, "could not make pipes for the engine: %s", strerror(errno));
    fill_error(p, err, ZO_ENGINE_FAULT_CRASH, what, 0);
    return ZO_ERR_ENGINE;
  }
  cap_reset(&p->errs);
  if (p->kind == RUN_WORKER) fflush(NULL); /* nothing buffered may be written twice */
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    child_common(parent);
    if (p->kind == RUN_WORKER) {
      int nul = open("/dev/null", O_RDONLY);
      int a = fcntl(in[0], F_DUPFD, 5), b = fcntl(out[1], F_DUPFD, 5), c = fcntl(er[1], F_DUPFD, 5);
      int d = nul >= 0 ? fcntl(nul, F_DUPFD, 5) : -1;
      if (a < 0 || b < 0 || c < 0 || dup2(a, 3) < 0 || dup2(b, 4) < 0 || dup2(c, 1) < 0 || dup2(c, 2) < 0)
        _exit(127);
      if (d >= 0) dup2(d, 0);
      else close(0);
      close_from(5);
      worker_main(p->cmd);
    }
    int a = fcntl(in[0], F_DUPFD, 3), b = fcntl(out[1], F_DUPFD, 3), c = fcntl(er[1], F_DUPFD, 3);
    if (a < 0 || b < 0 || c < 0 || dup2(a, 0) < 0 || dup2(b, 1) < 0 || dup2(c, 2) < 0) _exit(127);
    close_from(3);
    if (p->argv) execvp(p->argv[0], p->argv);
    else execl("/bin/sh", "sh", "-c", p->cmd, (char *)NULL);
    dprintf(2, "zoneoracle: cannot run %s: %s\n", p->argv ? p->argv[0] : "/bin/sh", strerror(errno));
    _exit(127);
  }
  int fork_errno = errno;
  close(in[0]);
  close(out[1]);
  close(er[1]);
  if (pid < 0) {
    close(in[1]);
    close(out[0]);
    close(er[0]);
    char what[160];
    snprintf(what, sizeof what, "could not start the engine: fork: %s", strerror(fork_errno));
    fill_error(p, err, ZO_ENGINE_FAULT_CRASH, what, 0);
    return ZO_ERR_ENGINE;
  }
  setpgid(pid, pid); /* also here, so that no kill can come before the child's own */
  live_set(p->slot, pid);
  p->pid = pid;
  p->to = in[1];
  p->from = out[0];
  p->errfd = er[0];
  fcntl(p->to, F_SETFL, fcntl(p->to, F_GETFL) | O_NONBLOCK);
  fcntl(p->from, F_SETFL, fcntl(p->from, F_GETFL) | O_NONBLOCK);
  fcntl(p->errfd, F_SETFL, fcntl(p->errfd, F_GETFL) | O_NONBLOCK);
  p->len = p->scanned = 0;
  p->out_eof = 0;
  json_t *res;
  zo_status st = call(p, json_pack("{s:s, s:s}", "op", "hello", "protocol", "zcp/1"), &res, err);
  if (st) return st;
  if (answer(p, res, err)) {
    json_decref(res);
    stop(p);
    return ZO_ERR_ENGINE;
  }
  keep_hello(p, res);
  return ZO_OK;
}

static zo_status pr_setup(void *self, const zo_ruleset *rs, const zo_case *c, zo_error *err) {
  proc *p = self;
  p->c = c;
  if (p->kind != RUN_IN_PROCESS && p->pid <= 0) {
    zo_status st = start(p, err);
    if (st) return st;
  }
  json_error_t je;
  json_t *cards = json_loads(c->cards_json ? c->cards_json : "{}", 0, &je), *players = json_array();
  for (int i = 0; i < c->nplayers; i++) json_array_append_new(players, json_string(c->players[i]));
  json_t *res;
  zo_status st = call(p, json_pack("{s:s, s:s, s:o, s:o}", "op", "setup", "ruleset", rs->id,
                                   "players", players, "cards", cards ? cards : json_object()),
                      &res, err);
  if (st) return st;
  st = answer(p, res, err);
  json_decref(res);
  return st;
}

static zo_status pr_step(void *self, const zo_step *s, zo_step_result *r, zo_error *err) {
  proc *p = self;
  json_t *res;
  zo_status st = call(p, json_pack("{s:s, s:o}", "op", "step", "step", zo_zcp_step_json(s)), &res, err);
  if (st) return st;
  st = answer(p, res, err);
  if (!st) st = zo_zcp_result_read(&p->names, p->c, res, r, p->cmd, err);
  json_decref(res);
  return st;
}

static zo_status pr_observe(void *self, zo_observation *ob, zo_error *err) {
  proc *p = self;
  json_t *res;
  zo_status st = call(p, json_pack("{s:s}", "op", "observe"), &res, err);
  if (st) return st;
  if (!(st = answer(p, res, err))) st = zo_zcp_observation_read(&p->names, p->c, res, ob, p->cmd, err);
  json_decref(res);
  return st;
}

static void pr_teardown(void *self) {
  proc *p = self;
  p->c = NULL;
  zo_zcp_names_forget(&p->names); /* the case may be freed and its address reused */
}

static int pr_has(void *self, const char *what, int ruleset) {
  proc *p = self;
  json_t *list = ruleset ? p->rulesets : p->features;
  if (!json_is_array(list)) return 0;
  size_t i;
  json_t *x;
  json_array_foreach(list, i, x) if (json_string_value(x) && !strcmp(json_string_value(x), what)) return 1;
  return 0;
}

/* The ops, shared by processes and plugins. */
static zo_engine *finish(proc *p) {
  p->ops.abi_version = 1;
  p->ops.name = p->name;
  p->ops.version = p->version;
  p->ops.setup = pr_setup;
  p->ops.step = pr_step;
  p->ops.observe = pr_observe;
  p->ops.teardown = pr_teardown;
  p->ops.has = pr_has;
  zo_engine *e = zo_xcalloc(1, sizeof *e);
  e->ops = &p->ops;
  e->self = p;
  return e;
}

/* A new engine record for cmd (a command or a plugin's path), nothing
 * started: a child kind gets its capture directory and a live slot.
 * Free with proc_free. */
static proc *proc_new(const char *cmd, run_kind kind, const zo_engine_process_options *o) {
  proc *p = zo_xcalloc(1, sizeof *p);
  p->cmd = zo_xstrdup(cmd);
  p->kind = kind;
  p->timeout = o && o->timeout > 0 ? o->timeout : 5.0;
  p->tap = o ? o->tap : NULL;
  p->to = p->from = p->errfd = -1;
  p->slot = -1;
  p->errs.fd = -1;
  if (kind == RUN_IN_PROCESS) return p;
  signal(SIGPIPE, SIG_IGN); /* a dead engine must not take the runner with it */
  if (kind == RUN_COMMAND && !needs_shell(cmd)) p->argv = split_words(cmd);
  cap_open(&p->errs);
  live_hook();
  p->slot = live_add(&p->errs);
  return p;
}

/* Stop whatever runs, remove the capture, free p. */
static void proc_free(proc *p) {
  stop(p);
  cap_close(&p->errs);
  live_remove(p->slot);
  json_decref(p->features);
  json_decref(p->rulesets);
  json_decref(p->hello);
  free_words(p->argv);
  free(p->cmd);
  free(p->buf);
  zo_zcp_names_free(&p->names);
  free(p);
}

/* The plugin at path loaded into this process and past its handshake, or
 * NULL with err filled. */
static zo_engine *plugin_in_process(const char *path, const zo_engine_process_options *o, zo_error *err) {
  proc *p = proc_new(path, RUN_IN_PROCESS, o);
  p->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  const struct zo_engine_ops *(*entry)(void) = NULL;
  char why[300] = "";
  json_t *res = NULL;
  if (!p->dl) snprintf(why, sizeof why, "%s", dlerror());
  else if (!(*(void **)&entry = dlsym(p->dl, "zo_engine_v1"))) snprintf(why, sizeof why, "no symbol zo_engine_v1");
  else if (!(p->plugin = entry()) || p->plugin->abi_version != ZO_ENGINE_ABI_VERSION)
    snprintf(why, sizeof why, "the plugin's abi_version is not %u", ZO_ENGINE_ABI_VERSION);
  else if (!(p->session = p->plugin->open())) snprintf(why, sizeof why, "the plugin's open() failed");
  else {
    zo_error herr = {0};
    if (call(p, json_pack("{s:s, s:s}", "op", "hello", "protocol", "zcp/1"), &res, &herr) ||
        answer(p, res, &herr)) {
      json_decref(res);
      snprintf(why, sizeof why, "no zcp/1 handshake: %.200s", herr.message);
    } else keep_hello(p, res);
  }
  if (why[0]) {
    zcp_fault(err, ZO_ENGINE_FAULT_NONE, path, why);
    if (p->session) p->plugin->close(p->session);
    if (p->dl) dlclose(p->dl);
    proc_free(p);
    return NULL;
  }
  return finish(p);
}

zo_engine *zo_engine_plugin_open(const char *path, const zo_engine_process_options *o,
                                 zo_error *err) {
  if (o && o->in_process) return plugin_in_process(path, o, err);
  proc *p = proc_new(path, RUN_WORKER, o);
  if (start(p, err)) {
    proc_free(p);
    return NULL;
  }
  return finish(p);
}

zo_engine *zo_engine_plugin_new(const char *path, zo_error *err) {
  return zo_engine_plugin_open(path, NULL, err);
}

zo_engine *zo_engine_process_open(const char *cmd, const zo_engine_process_options *o,
                                  zo_error *err) {
  proc *p = proc_new(cmd, RUN_COMMAND, o);
  if (start(p, err)) {
    /* the engine could not be started or spoke no zcp: the caller exits 4 */
    proc_free(p);
    return NULL;
  }
  return finish(p);
}

zo_engine *zo_engine_process_new(const char *cmd, double timeout, zo_error *err) {
  zo_engine_process_options o = {.timeout = timeout};
  return zo_engine_process_open(cmd, &o, err);
}

const json_t *zo_engine_process_hello(const zo_engine *e) { return ((const proc *)e->self)->hello; }

zo_status zo_engine_process_exchange(zo_engine *e, const char *line, json_t **answer, zo_error *err) {
  proc *p = e->self;
  *answer = NULL;
  if (p->kind == RUN_IN_PROCESS) {
    plugin_answer(p, line, NULL, answer);
    if (json_is_object(*answer)) return ZO_OK;
    json_decref(*answer);
    *answer = NULL;
    fill_error(p, err, ZO_ENGINE_FAULT_ERROR, "the plugin answered no JSON object", 0);
    return ZO_ERR_ENGINE;
  }
  if (p->pid <= 0) {
    zo_status st = start(p, err);
    if (st) return st;
  }
  double deadline = now() + p->timeout;
  size_t n = strlen(line);
  char *text = zo_xmalloc(n + 2);
  memcpy(text, line, n);
  text[n] = '\n';
  zo_status st = send_line(p, text, n + 1, deadline, err);
  free(text);
  return st ? st : read_answer(p, NULL, deadline, answer, err);
}

zo_status zo_engine_process_bye(zo_engine *e, zo_error *err) {
  proc *p = e->self;
  if (p->kind != RUN_IN_PROCESS && p->pid <= 0) {
    zo_status st = start(p, err);
    if (st) return st;
  }
  json_t *res;
  zo_status st = call(p, json_pack("{s:s}", "op", "bye"), &res, err);
  if (st) return st;
  st = answer(p, res, err);
  json_decref(res);
  if (p->kind == RUN_IN_PROCESS) return st;
  if (st) {
    stop(p);
    return st;
  }
  /* a process exits after answering (or at the end of its input, which
     comes now): it is waited for, never blocking, up to the time limit */
  close(p->to);
  p->to = -1;
  double deadline = now() + p->timeout;
  int status;
  while (!exited(p, &status)) {
    if (now() >= deadline) {
      char what[120];
      snprintf(what, sizeof what, "still running %g s after answering bye", p->timeout);
      return engine_fail(p, err, ZO_ENGINE_FAULT_TIMEOUT, what);
    }
    double next = now() + 0.02;
    pump(p, next < deadline ? next : deadline, 0);
    p->len = p->scanned = 0; /* output after bye answers nothing */
  }
  stop(p); /* reaped, and whatever it left in its group killed */
  return ZO_OK;
}

void zo_engine_process_free(zo_engine *e) {
  if (!e) return;
  proc *p = e->self;
  if (p->kind == RUN_IN_PROCESS) {
    /* the library stays loaded until exit (its process-lifetime tables,
       such as a rule set registry, must stay reachable) */
    p->plugin->close(p->session);
  } else if (p->pid > 0) { /* bye (a second at most), then the group is killed */
    double limit = p->timeout;
    if (p->timeout > 1.0) p->timeout = 1.0;
    json_t *res;
    if (!call(p, json_pack("{s:s}", "op", "bye"), &res, NULL)) json_decref(res);
    p->timeout = limit;
  }
  proc_free(p);
  free(e);
}

zo_status zo_engine_process_run(zo_engine *e, const zo_case *c, zo_step_result *results,
                                zo_observation *obs, zo_error *err) {
  if (e->ops->setup != pr_setup) /* not a zcp/1 engine: no batch */
    return zo_error_set(err, ZO_ERR_USAGE, NULL, 0, 0, "%s", "");
  proc *p = e->self;
  zo_status st = pr_observe(p, &obs[0], err);
  if (st) return st;
  json_t *steps = json_array();
  for (int i = 0; i < c->nsteps; i++) json_array_append_new(steps, zo_zcp_step_json(&c->steps[i]));
  json_t *res;
  st = call(p, json_pack("{s:s, s:o, s:s}", "op", "run", "steps", steps, "observe", "each"), &res, err);
  if (st) return st;
  if ((st = answer(p, res, err))) {
    json_decref(res);
    return st;
  }
  json_t *rs = json_object_get(res, "results"), *os = json_object_get(res, "observations");
  if (json_array_size(rs) != (size_t)c->nsteps || json_array_size(os) != (size_t)c->nsteps) {
    json_decref(res);
    if (p->kind == RUN_IN_PROCESS)
      return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, p->cmd, "a run answer needs one result and one observation per step");
    return engine_fail(p, err, ZO_ENGINE_FAULT_ERROR, "a run answer needs one result and one observation per step");
  }
  for (int i = 0; i < c->nsteps && !st; i++) {
    st = zo_zcp_result_read(&p->names, c, json_array_get(rs, (size_t)i), &results[i + 1], p->cmd, err);
    if (!st) st = zo_zcp_observation_read(&p->names, c, json_array_get(os, (size_t)i), &obs[i + 1], p->cmd, err);
  }
  json_decref(res);
  return st;
}
