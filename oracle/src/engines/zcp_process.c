/* engines/zcp_process.c: an engine child, a command or a plugin's worker,
 * spoken to in lines with a time limit (internal/zcp_int.h; zcp_client.c
 * speaks zcp/1 over it).
 *
 * What the driver guarantees for a child:
 *   - It runs in a process group of its own. A command made only of words
 *     without shell metacharacters is split on blanks and exec'd directly;
 *     any other runs under `/bin/sh -c CMD`. Whenever the child is stopped
 *     (after a failure, at the end after bye, when the engine is freed) the
 *     whole group is killed with SIGKILL before the child is reaped, so
 *     whatever the engine or its shell started goes too; on Linux so does
 *     whatever left the group (setsid, a daemon's double fork): the runner
 *     is a child subreaper and sweeps them from /proc (sweep). When the runner
 *     itself ends (exit(), or SIGINT/SIGTERM/SIGHUP/SIGQUIT/SIGABRT unless
 *     ignored: the handler chains to the one it replaced) the live groups
 *     and what left them are killed and the captures removed as well
 *     (zo_engine_process_kill_all does it for other handlers); on Linux a
 *     child also gets SIGKILL when the runner dies, even of SIGKILL (what
 *     left its group then stays: only a runner that runs can sweep).
 *   - It inherits no descriptor but its stdin, stdout and stderr (every
 *     other is closed in the child; the runner's own ends are opened
 *     close-on-exec too), with SIGPIPE at its default and no signal
 *     blocked. The runner ignores SIGPIPE from its first child on.
 *   - Every request has a time limit (zcp_child.timeout), from the first
 *     byte written to the end of the answer line. Writes never block (a
 *     child that does not read its input times out), and a child is never
 *     waited for while it may still be alive: it is reaped only after its
 *     group was killed or once it has exited.
 *   - A failure fails that call with its kind (zo_engine_fault) and a
 *     message: timeout: no complete answer in time (a hang, a partial line,
 *     a stopped or sleeping engine, endless stderr); crash: it exited (any
 *     status), died by a signal, or closed its stdout or stdin; error: a
 *     line over 16 MiB or endless output without a newline (zcp_client.c
 *     adds the lines that are not JSON objects and another request's id).
 *     The child is then stopped, and the next setup (or smoke exchange)
 *     starts it again, handshake first, so the run goes on with the next
 *     case.
 *   - stderr goes through a pipe drained while the runner waits, kept
 *     bounded in a private file (zcp_stderr.c). A failure's message ends
 *     with its last lines (up to 8, joined with " | ").
 */
#define _GNU_SOURCE /* pipe2 (where ZO_HAVE_PIPE2), close_range */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include "zcp_int.h"
#include "util.h"

/* ---- live children, for the runner's own exit paths ------------------- */

/* A slot per engine: its process group while a child runs (0 none) and its
 * capture's paths, read by the exit and signal handlers (which only call
 * async-signal-safe functions). */
#define LIVE_SLOTS 64
static struct {
  volatile sig_atomic_t used, pgid;
  char file[560], dir[512];
} live[LIVE_SLOTS];
static pid_t live_owner; /* the runner: a forked worker never cleans up */

/* ---- descendants that left the group (Linux) ------------------------- */

/* A process an engine started may leave the engine's process group
 * (setpgid; setsid, as a daemon does), and the group kill misses it. On
 * Linux the runner makes itself a child subreaper (PR_SET_CHILD_SUBREAPER,
 * once, with the exit and signal hooks): a process orphaned below it is
 * adopted by the runner instead of init, so whatever an engine started
 * stays in the runner's tree, where sweep() finds it in /proc:
 *   - every descendant of the engine's process (whatever its group or
 *     session),
 *   - every process the runner adopted (a child of the runner that it did
 *     not start: not an engine, and not in the runner's own group, where
 *     whatever else the program forks stays) that is in the engine's group,
 *     or in a group of no running engine while no other engine runs (with
 *     several engines at once such a process can't be told apart: the last
 *     one's stop, or the runner's exit, takes it),
 *   - and their descendants;
 * all get SIGKILL, again until none is left alive (what they forked in
 * between too), at most 1 s (a process in an uninterruptible sleep is left
 * to the next sweep); the ones adopted by the runner are reaped. The
 * runner's other children and other engines' processes are not touched.
 * Only the runner's own death by SIGKILL leaves them: its engines get
 * SIGKILL (PR_SET_PDEATHSIG), their escaped descendants are adopted by
 * init. Everything here is async-signal-safe (the signal handlers sweep
 * too), with one buffer of rows for the handlers and one for the rest.
 * Elsewhere than Linux there is no sweep: only the group kill. */
#ifdef __linux__
/* Is pid the child of a live slot other than the one of except (its pid;
 * 0 none)? Async-signal-safe. */
static int live_other(pid_t pid, pid_t except) {
  for (int i = 0; i < LIVE_SLOTS; i++)
    if (live[i].used && live[i].pgid > 0 && (pid_t)live[i].pgid != except && (pid_t)live[i].pgid == pid) return 1;
  return 0;
}

/* Does a live slot other than the one of except run a child? */
static int live_others_run(pid_t except) {
  for (int i = 0; i < LIVE_SLOTS; i++)
    if (live[i].used && live[i].pgid > 0 && (pid_t)live[i].pgid != except) return 1;
  return 0;
}

typedef struct {
  pid_t pid, ppid, pgid;
  char state;         /* 'Z' a zombie */
  unsigned char mark; /* to be killed */
} proc_row;

/* A buffer of rows: the handlers' fixed one (a run with more processes
 * than it holds is swept in part when the runner is interrupted), and the
 * one the normal path grows. */
#define SIG_ROWS 2048
static proc_row sig_rows[SIG_ROWS];
static proc_row *run_rows;
static size_t run_cap;

/* The decimal number at s (at most 9 digits) into *v: the end of its
 * digits, or NULL when s holds none. */
static const char *parse_num(const char *s, long *v) {
  const char *start = s;
  *v = 0;
  while (*s >= '0' && *s <= '9' && s - start < 9) *v = *v * 10 + (*s++ - '0');
  return s == start ? NULL : s;
}

/* /proc/NAME/stat's state, ppid and pgid into r: 0, or -1 (gone). */
static int read_stat(const char *name, proc_row *r) {
  char path[64] = "/proc/", buf[1024];
  size_t n = strlen(path), k = strlen(name);
  if (n + k + 6 > sizeof path) return -1;
  memcpy(path + n, name, k);
  memcpy(path + n + k, "/stat", 6);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t got = 0;
  for (;;) {
    ssize_t w = read(fd, buf + got, sizeof buf - 1 - got);
    if (w > 0 && (got += (size_t)w) < sizeof buf - 1) continue;
    if (w < 0 && errno == EINTR) continue;
    break;
  }
  close(fd);
  buf[got] = 0;
  const char *s = strrchr(buf, ')'); /* the name in parentheses may hold anything */
  if (!s || s[1] != ' ' || !s[2] || s[3] != ' ') return -1;
  r->state = s[2];
  long ppid, pgid;
  if (!(s = parse_num(s + 4, &ppid)) || *s != ' ' || !parse_num(s + 1, &pgid)) return -1;
  r->ppid = (pid_t)ppid;
  r->pgid = (pid_t)pgid;
  return 0;
}

/* The processes in /proc (pid, ppid, pgid, state) into rows, by rising
 * pid: how many, more than cap when rows was too small (only cap filled),
 * or -1 without /proc. */
static long proc_scan(proc_row *rows, size_t cap) {
  int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  long n = 0;
  char dbuf[4096];
  for (;;) {
    long got = syscall(SYS_getdents64, fd, dbuf, sizeof dbuf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    for (long off = 0; off < got;) {
      /* struct linux_dirent64: d_ino, d_off, d_reclen, d_type, d_name */
      const char *d = dbuf + off;
      unsigned short reclen;
      memcpy(&reclen, d + 16, sizeof reclen);
      const char *name = d + 19;
      off += reclen;
      proc_row r = {0};
      long pid;
      const char *end = parse_num(name, &pid);
      if (!end || *end || pid <= 0 || read_stat(name, &r)) continue;
      r.pid = (pid_t)pid;
      if ((size_t)n < cap) rows[n] = r;
      n++;
    }
  }
  close(fd);
  size_t m = (size_t)n < cap ? (size_t)n : cap;
  for (size_t i = 1; i < m; i++) /* already in order, but never relied upon */
    for (size_t j = i; j > 0 && rows[j - 1].pid > rows[j].pid; j--) {
      proc_row t = rows[j];
      rows[j] = rows[j - 1];
      rows[j - 1] = t;
    }
  return n;
}

/* The row of pid in rows[0..n), or NULL. */
static proc_row *proc_find(proc_row *rows, size_t n, pid_t pid) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (rows[mid].pid == pid) return &rows[mid];
    if (rows[mid].pid < pid) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

/* Is r one of the processes to sweep in itself (not through its parent)?
 * root: the engine's pid (its group's id); 0: every live engine (the
 * runner's exit). strays: also an adopted process in no engine's group. */
static int sweep_root(const proc_row *r, pid_t root, int strays, pid_t me, pid_t mygrp) {
  if (r->pid == me) return 0;
  if (root ? r->pid == root : live_other(r->pid, 0)) return 1;
  if (r->ppid != me || r->pgid == mygrp || live_other(r->pid, 0)) return 0; /* the runner's own */
  if (root && r->pgid == root) return 1;
  if (live_other(r->pgid, root)) return !root; /* another engine's */
  return strays;
}

/* Kill what the engine whose pid is root started (0: every live engine)
 * and reap what the runner adopted, as said above; strays: also the
 * adopted processes in no engine's group. */
static void sweep(pid_t root, int strays, int in_signal) {
  pid_t me = getpid(), mygrp = getpgrp();
  double until = zo_now() + 1.0;
  for (;;) {
    proc_row *rows = in_signal ? sig_rows : run_rows;
    size_t cap = in_signal ? SIG_ROWS : run_cap;
    long got = proc_scan(rows, cap);
    if (got < 0) return; /* no /proc */
    if (!in_signal && (size_t)got > cap) {
      free(run_rows);
      run_cap = (size_t)got + (size_t)got / 2 + 64;
      run_rows = zo_xmalloc(run_cap * sizeof *run_rows);
      continue;
    }
    size_t n = (size_t)got < cap ? (size_t)got : cap;
    for (size_t i = 0; i < n; i++) rows[i].mark = (unsigned char)sweep_root(&rows[i], root, strays, me, mygrp);
    for (int changed = 1; changed;) { /* and their descendants */
      changed = 0;
      for (size_t i = 0; i < n; i++) {
        if (rows[i].mark || rows[i].pid == me) continue;
        const proc_row *up = proc_find(rows, n, rows[i].ppid);
        if (up && up->mark) rows[i].mark = 1, changed = 1;
      }
    }
    int pending = 0;
    for (size_t i = 0; i < n; i++) {
      proc_row *r = &rows[i];
      if (!r->mark) continue;
      int engine = root ? r->pid == root : live_other(r->pid, 0); /* reaped by zcp_child_stop */
      if (r->state != 'Z') pending += !kill(r->pid, SIGKILL);
      else if (engine) continue;
      else if (r->ppid != me) pending++; /* its parent dies: adopted, then reaped */
      else waitpid(r->pid, NULL, WNOHANG);
    }
    if (!pending || zo_now() >= until) return;
    struct timespec pause = {0, 2000000};
    nanosleep(&pause, NULL);
  }
}
#endif

/* Kill every live group and every process the engines started that left
 * it, and remove the captures (atexit; signals and
 * zo_engine_process_kill_all: in_signal 1, nothing allocated).
 * Async-signal-safe; nothing in a process other than the one that started
 * the engines (a forked worker). */
static void live_cleanup_in(int in_signal) {
  if (getpid() != live_owner) return;
  for (int i = 0; i < LIVE_SLOTS; i++) {
    if (!live[i].used) continue;
    pid_t g = (pid_t)live[i].pgid;
    if (g > 0) {
      kill(-g, SIGKILL);
      kill(g, SIGKILL);
    }
  }
#ifdef __linux__
  sweep(0, 1, in_signal);
#else
  (void)in_signal;
#endif
  for (int i = 0; i < LIVE_SLOTS; i++) {
    if (!live[i].used) continue;
    if (live[i].file[0]) unlink(live[i].file);
    if (live[i].dir[0]) rmdir(live[i].dir);
  }
}

static void live_cleanup(void) { live_cleanup_in(0); }

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
  live_cleanup_in(1);
  for (size_t i = 0; i < sizeof live_sigs / sizeof *live_sigs; i++)
    if (live_sigs[i] == sig) sigaction(sig, &live_old[i], NULL);
  raise(sig);
  errno = saved;
}

/* Install the exit and signal handlers, once per process, ignore SIGPIPE
 * from then on (a dead engine must not take the runner with it) and, on
 * Linux, become a child subreaper (sweep). */
static void live_hook(void) {
  static pid_t hooked;
  if (hooked == getpid()) return;
  hooked = live_owner = getpid();
  signal(SIGPIPE, SIG_IGN);
#ifdef __linux__
  prctl(PR_SET_CHILD_SUBREAPER, 1); /* orphans below come to us (sweep) */
#endif
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

void zo_engine_process_kill_all(void) { live_cleanup_in(1); }

/* A slot for an engine with this capture, or -1 when all are taken (the
 * engine then relies on its own cleanup only). */
static int live_add(const zcp_capture *c) {
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

/* ---- starting ------------------------------------------------------- */

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

/* A pipe whose two ends are close-on-exec: pipe2 where the system has it
 * (ZO_HAVE_PIPE2, oracle/src/CMakeLists.txt), else pipe() and fcntl: the
 * runner forks no engine between the two calls (it is single-threaded).
 * 0, or -1 with errno set and nothing left open. */
static int cloexec_pipe(int fd[2]) {
#ifdef ZO_HAVE_PIPE2
  return pipe2(fd, O_CLOEXEC);
#else
  if (pipe(fd)) return -1;
  if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) || fcntl(fd[1], F_SETFD, FD_CLOEXEC)) {
    int e = errno;
    close(fd[0]);
    close(fd[1]);
    fd[0] = fd[1] = -1;
    errno = e;
    return -1;
  }
  return 0;
#endif
}

zo_status zcp_child_start(zcp_child *ch, zo_error *err) {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, er[2] = {-1, -1};
  if (cloexec_pipe(in) || cloexec_pipe(out) || cloexec_pipe(er)) {
    int fds[6] = {in[0], in[1], out[0], out[1], er[0], er[1]};
    for (int i = 0; i < 6; i++)
      if (fds[i] >= 0) close(fds[i]);
    char what[160];
    snprintf(what, sizeof what, "could not make pipes for the engine: %s", strerror(errno));
    return zcp_fault(err, ZO_ENGINE_FAULT_CRASH, ch->cmd, what);
  }
  zcp_capture_reset(&ch->errs);
  if (ch->worker) fflush(NULL); /* nothing buffered may be written twice */
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    child_common(parent);
    if (ch->worker) {
      int nul = open("/dev/null", O_RDONLY);
      int a = fcntl(in[0], F_DUPFD, 5), b = fcntl(out[1], F_DUPFD, 5), c = fcntl(er[1], F_DUPFD, 5);
      int d = nul >= 0 ? fcntl(nul, F_DUPFD, 5) : -1;
      if (a < 0 || b < 0 || c < 0 || dup2(a, 3) < 0 || dup2(b, 4) < 0 || dup2(c, 1) < 0 || dup2(c, 2) < 0)
        _exit(127);
      if (d >= 0) dup2(d, 0);
      else close(0);
      close_from(5);
      zcp_plugin_worker(ch->cmd);
    }
    int a = fcntl(in[0], F_DUPFD, 3), b = fcntl(out[1], F_DUPFD, 3), c = fcntl(er[1], F_DUPFD, 3);
    if (a < 0 || b < 0 || c < 0 || dup2(a, 0) < 0 || dup2(b, 1) < 0 || dup2(c, 2) < 0) _exit(127);
    close_from(3);
    if (ch->argv) execvp(ch->argv[0], ch->argv);
    else execl("/bin/sh", "sh", "-c", ch->cmd, (char *)NULL);
    dprintf(2, "zoneoracle: cannot run %s: %s\n", ch->argv ? ch->argv[0] : "/bin/sh", strerror(errno));
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
    return zcp_fault(err, ZO_ENGINE_FAULT_CRASH, ch->cmd, what);
  }
  setpgid(pid, pid); /* also here, so that no kill can come before the child's own */
  live_set(ch->slot, pid);
  ch->pid = pid;
  ch->to = in[1];
  ch->from = out[0];
  ch->errfd = er[0];
  fcntl(ch->to, F_SETFL, fcntl(ch->to, F_GETFL) | O_NONBLOCK);
  fcntl(ch->from, F_SETFL, fcntl(ch->from, F_GETFL) | O_NONBLOCK);
  fcntl(ch->errfd, F_SETFL, fcntl(ch->errfd, F_GETFL) | O_NONBLOCK);
  ch->len = ch->scanned = 0;
  ch->out_eof = 0;
  return ZO_OK;
}

/* ---- speaking in lines ----------------------------------------------- */

/* Take what the child wrote on stderr (at most 1 MiB a call, so a flood
 * cannot hold the runner); its end closes errfd. */
static void drain_stderr(zcp_child *ch) {
  char chunk[65536];
  for (int round = 0; round < 16 && ch->errfd >= 0; round++) {
    ssize_t got = read(ch->errfd, chunk, sizeof chunk);
    if (got > 0) {
      zcp_capture_add(&ch->errs, chunk, (size_t)got);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    close(ch->errfd);
    ch->errfd = -1;
  }
}

/* The longest answer line ch may write now, bytes. */
static size_t line_max(const zcp_child *ch) { return ch->line_max ? ch->line_max : ZCP_LINE_MAX; }

/* The child wrote a line over that. */
static zo_status too_long(zcp_child *ch, zo_error *err) {
  char what[80];
  snprintf(what, sizeof what, "the engine wrote a line over %zu MiB", line_max(ch) >> 20);
  return zcp_child_fail(ch, err, ZO_ENGINE_FAULT_ERROR, what);
}

/* Take what the child wrote on stdout onto ch->buf (at most 1 MiB a call;
 * nothing once the buffer holds more than a line may); its end sets
 * out_eof. */
static void read_stdout(zcp_child *ch) {
  for (int round = 0; round < 16 && ch->len <= line_max(ch); round++) {
    if (ch->cap - ch->len < 65536) ch->buf = zo_xrealloc(ch->buf, ch->cap = ch->cap ? ch->cap * 2 : 65536);
    ssize_t got = read(ch->from, ch->buf + ch->len, ch->cap - ch->len);
    if (got > 0) {
      ch->len += (size_t)got;
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    ch->out_eof = 1;
    return;
  }
}

/* Wait at most until deadline for the child's pipes and take what they
 * hold (stderr into the capture, stdout onto the buffer). want_write: also
 * wake when its stdin can take more. Returns 1 when stdin can (or is
 * broken: the next write says so), else 0 (something read, or the time
 * is up). */
static int pump(zcp_child *ch, double deadline, int want_write) {
  struct pollfd pf[3];
  int n = 0, io = -1, ie = -1, iw = -1;
  if (ch->from >= 0 && !ch->out_eof && ch->len <= line_max(ch)) {
    io = n;
    pf[n++] = (struct pollfd){.fd = ch->from, .events = POLLIN};
  }
  if (ch->errfd >= 0) {
    ie = n;
    pf[n++] = (struct pollfd){.fd = ch->errfd, .events = POLLIN};
  }
  if (want_write && ch->to >= 0) {
    iw = n;
    pf[n++] = (struct pollfd){.fd = ch->to, .events = POLLOUT};
  }
  double left = deadline - zo_now();
  int ms = left <= 0 ? 0 : left > 1e8 ? 100000000 : (int)(left * 1000) + 1;
  if (poll(pf, (nfds_t)n, ms) <= 0) return 0;
  if (ie >= 0 && pf[ie].revents) drain_stderr(ch);
  if (io >= 0 && pf[io].revents) read_stdout(ch);
  return iw >= 0 && pf[iw].revents != 0;
}

/* Has the child exited? 1 with *status (a waitpid status) when it has,
 * without reaping it (it stays a zombie, so its pid and group id cannot be
 * reused before zcp_child_stop kills the group and reaps it); else 0. */
static int exited(zcp_child *ch, int *status) {
  siginfo_t si;
  memset(&si, 0, sizeof si);
  if (ch->pid <= 0 || waitid(P_PID, (id_t)ch->pid, &si, WEXITED | WNOHANG | WNOWAIT) || si.si_pid != ch->pid)
    return 0;
  *status = si.si_code == CLD_EXITED ? (si.si_status & 0xff) << 8 : (si.si_status & 0x7f);
  return 1;
}

void zcp_child_stop(zcp_child *ch) {
  if (ch->pid > 0) {
    kill(-ch->pid, SIGKILL);
    kill(ch->pid, SIGKILL);
#ifdef __linux__
    sweep(ch->pid, !live_others_run(ch->pid), 0); /* before the reaping: its pid names its tree */
#endif
    int status;
    while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR) {
    }
    live_set(ch->slot, 0);
    ch->pid = 0;
  }
  if (ch->to >= 0) close(ch->to);
  if (ch->from >= 0) close(ch->from);
  ch->to = ch->from = -1;
  double until = zo_now() + 0.1;
  while (ch->errfd >= 0) {
    double left = until - zo_now();
    struct pollfd pf = {.fd = ch->errfd, .events = POLLIN};
    if (left <= 0 || poll(&pf, 1, (int)(left * 1000) + 1) <= 0) break;
    drain_stderr(ch);
  }
  if (ch->errfd >= 0) close(ch->errfd);
  ch->errfd = -1;
  zcp_capture_sync(&ch->errs);
  ch->len = ch->scanned = 0;
  ch->out_eof = 0;
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
 * killed either way). Returns ZO_ERR_ENGINE, kind crash, err filled. */
static zo_status gone(zcp_child *ch, zo_error *err, double deadline, int input_closed) {
  double t = zo_now(), until = deadline < t + 1.0 ? deadline : t + 1.0;
  if (until < t + 0.05) until = t + 0.05;
  int status = 0, done;
  while (!(done = exited(ch, &status)) && zo_now() < until) {
    double next = zo_now() + 0.01;
    pump(ch, next < until ? next : until, 0);
    ch->len = ch->scanned = 0; /* what it writes now answers nothing */
  }
  char what[200];
  if (done) describe_status(status, what, sizeof what, input_closed ? "before reading the request" : "without answering");
  else snprintf(what, sizeof what, "the engine closed its %s and kept running (killed)", input_closed ? "input" : "output");
  return zcp_child_fail(ch, err, ZO_ENGINE_FAULT_CRASH, what);
}

zo_status zcp_child_send(zcp_child *ch, const char *text, size_t n, double deadline, zo_error *err) {
  size_t off = 0;
  while (off < n) {
    ssize_t w = write(ch->to, text + off, n - off);
    if (w > 0) {
      off += (size_t)w;
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (zo_now() >= deadline) {
        char what[160];
        snprintf(what, sizeof what, "the engine did not read the request within %g s", ch->timeout);
        return zcp_child_fail(ch, err, ZO_ENGINE_FAULT_TIMEOUT, what);
      }
      pump(ch, deadline, 1);
      if (ch->len > line_max(ch)) return too_long(ch, err);
      if (ch->out_eof) return gone(ch, err, deadline, 0);
      continue;
    }
    return gone(ch, err, deadline, 1);
  }
  return ZO_OK;
}

/* Has the child closed its stdin (no reader left on the pipe)? */
static int input_closed(zcp_child *ch) {
  struct pollfd pf = {.fd = ch->to, .events = POLLOUT};
  return ch->to >= 0 && poll(&pf, 1, 0) == 1 && (pf.revents & POLLERR);
}

zo_status zcp_child_read_line(zcp_child *ch, double deadline, size_t *len, zo_error *err) {
  for (;;) {
    char *nl = ch->len > ch->scanned ? memchr(ch->buf + ch->scanned, '\n', ch->len - ch->scanned) : NULL;
    if (nl) {
      size_t line = (size_t)(nl - ch->buf);
      if (line > line_max(ch)) return too_long(ch, err);
      *len = line;
      return ZO_OK;
    }
    ch->scanned = ch->len;
    if (ch->len > line_max(ch)) return too_long(ch, err);
    if (ch->out_eof) return gone(ch, err, deadline, 0);
    if (zo_now() >= deadline) {
      char what[160];
      if (input_closed(ch)) /* it closed its stdin: no request can reach it */
        return zcp_child_fail(ch, err, ZO_ENGINE_FAULT_CRASH, "the engine closed its input and kept running (killed)");
      snprintf(what, sizeof what, "no answer within %g s", ch->timeout);
      if (ch->len) snprintf(what + strlen(what), sizeof what - strlen(what), " (a partial line of %zu bytes)", ch->len);
      return zcp_child_fail(ch, err, ZO_ENGINE_FAULT_TIMEOUT, what);
    }
    pump(ch, deadline, 0);
  }
}

void zcp_child_drop_line(zcp_child *ch, size_t len) {
  memmove(ch->buf, ch->buf + len + 1, ch->len - len - 1);
  ch->len -= len + 1;
  ch->scanned = 0;
}

zo_status zcp_child_fail(zcp_child *ch, zo_error *err, zo_engine_fault fault, const char *what) {
  zcp_child_stop(ch);
  if (!err) return ZO_ERR_ENGINE;
  char message[sizeof err->message] = "";
  zcp_text_put(message, 260, what, strlen(what));
  static const char sep[] = "; stderr: ";
  char tail[sizeof message];
  size_t used = strlen(message);
  zcp_capture_summary(&ch->errs, tail, sizeof message - used - 12); /* so the whole fits */
  if (tail[0]) {
    memcpy(message + used, sep, sizeof sep - 1);
    memcpy(message + used + sizeof sep - 1, tail, strlen(tail) + 1);
  }
  return zcp_fault(err, fault, ch->cmd, message);
}

zo_status zcp_child_await_exit(zcp_child *ch, zo_error *err) {
  close(ch->to);
  ch->to = -1;
  double deadline = zo_now() + ch->timeout;
  int status;
  while (!exited(ch, &status)) {
    if (zo_now() >= deadline) {
      char what[120];
      snprintf(what, sizeof what, "still running %g s after answering bye", ch->timeout);
      return zcp_child_fail(ch, err, ZO_ENGINE_FAULT_TIMEOUT, what);
    }
    double next = zo_now() + 0.02;
    pump(ch, next < deadline ? next : deadline, 0);
    ch->len = ch->scanned = 0; /* output after bye answers nothing */
  }
  zcp_child_stop(ch); /* reaped, and whatever it left in its group killed */
  return ZO_OK;
}

void zcp_child_init(zcp_child *ch, const char *cmd, int worker, double timeout) {
  memset(ch, 0, sizeof *ch);
  ch->cmd = cmd;
  ch->worker = worker;
  ch->timeout = timeout;
  ch->to = ch->from = ch->errfd = -1;
  if (!worker && !needs_shell(cmd)) ch->argv = split_words(cmd);
  zcp_capture_open(&ch->errs);
  live_hook();
  ch->slot = live_add(&ch->errs);
}

void zcp_child_free(zcp_child *ch) {
  zcp_child_stop(ch);
  zcp_capture_close(&ch->errs);
  live_remove(ch->slot);
  free_words(ch->argv);
  free(ch->buf);
  ch->argv = NULL;
  ch->buf = NULL;
}
