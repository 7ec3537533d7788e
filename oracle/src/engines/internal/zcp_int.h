/* internal/zcp_int.h: what the files of the engines layer share and
 * nothing above them sees (they include it as "internal/zcp_int.h"): text
 * an engine gave made fit for messages and the one way an engine's failure
 * fills a zo_error (zcp_fault.c), a child's bounded stderr (zcp_stderr.c),
 * a child process spoken to in lines (zcp_process.c), and a plugin's
 * loading and its forked worker (zcp_plugin.c). zcp_client.c drives them
 * all behind engine.h. */
#ifndef ZO_ZCP_INT_H
#define ZO_ZCP_INT_H

#include <stddef.h>
#include <sys/types.h>

#include "engine.h"

struct zo_engine_ops; /* zo_engine.h */

/* ---- text and failures (zcp_fault.c) ---------------------------------- */

/* Append n bytes of src to the NUL-terminated string in dst (cap > 0 bytes
 * in all) as one line of valid UTF-8: a byte that is not part of a UTF-8
 * character becomes \xNN, a control character (newline and tab included)
 * a space. Stops before the first character or escape that would not fit,
 * so dst never ends inside one. Text already written this way is copied
 * unchanged. */
void zcp_text_put(char *dst, size_t cap, const char *src, size_t n);

/* dst (cap > 0 bytes) = src (NULL: "") as zcp_text_put writes it. */
void zcp_text_set(char *dst, size_t cap, const char *src);

/* Fill err (when not NULL) for a failure of the engine `who` (its command
 * or plugin path) through base/error.h: code ZO_ERR_ENGINE, who as the
 * file and what as the message (both as zcp_text_set writes them, cut to
 * fit), no position, fault's word as the note (none for
 * ZO_ENGINE_FAULT_NONE) and fault in err->engine_fault. Returns
 * ZO_ERR_ENGINE. */
zo_status zcp_fault(zo_error *err, zo_engine_fault fault, const char *who, const char *what);

/* zcp_fault with a printf message (formatted into 600 bytes first). */
zo_status zcp_faultf(zo_error *err, zo_engine_fault fault, const char *who, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- the shape of answers (zcp_shape.c) -------------------------------- */

/* Which answer: to hello; to setup or bye (id and ok alone); to step; to
 * observe; to run with observe: each (zcp/1) or delta (zcp/2). */
typedef enum {
  ZCP_ANSWER_HELLO,
  ZCP_ANSWER_PLAIN,
  ZCP_ANSWER_STEP,
  ZCP_ANSWER_OBSERVE,
  ZCP_ANSWER_RUN_EACH,
  ZCP_ANSWER_RUN_DELTA,
  ZCP_ANSWER_RUN_CHANGES, /* a delta run asked for visible changes */
  ZCP_ANSWER_COUNT
} zcp_answer;

/* Check answer (a JSON object) against the fields PROTOCOL.md gives an
 * answer of this kind in zcp version `protocol` (1 or 2), or those of an
 * error answer when its ok is false: every field defined in that version,
 * the required ones present, each value of its JSON type, recursively. 0,
 * or -1 with why (n bytes) saying which field, at which JSON path ("$.objects.c1
 * has a field \"Zone\" that zcp/2 does not define"). Reads only. */
int zcp_shape_check(const struct json_t *answer, zcp_answer kind, int protocol, char *why, size_t n);

/* ---- a child's stderr (zcp_stderr.c) --------------------------------- */

#define ZCP_ERR_HEAD (32u * 1024u) /* stderr kept from its start */
#define ZCP_ERR_TAIL (32u * 1024u) /* and from its end */

/* One child's stderr since its last start: the first ZCP_ERR_HEAD bytes,
 * the last ZCP_ERR_TAIL bytes in a ring, and how many came in all;
 * mirrored into a file in a private directory when the child stops. Plain
 * storage inside its owner; the file and directory are the capture's
 * (zcp_capture_close removes them). */
typedef struct zcp_capture {
  char dir[512], path[560]; /* the private directory and the file in it; "" none */
  int fd;                   /* the file, -1 none */
  unsigned char head[ZCP_ERR_HEAD];
  size_t nhead;
  unsigned char ring[ZCP_ERR_TAIL];
  size_t rpos; /* where the next byte goes in ring */
  unsigned long long total;
  unsigned long long mark; /* total when the current case began (zcp_capture_mark) */
} zcp_capture;

/* Make the private directory (mkdtemp under $TMPDIR or /tmp, named
 * zoneoracle-engine-PID-XXXXXX with our pid so that a later run can remove
 * it should we be killed, which the first capture of a process does for
 * runs no longer alive) and the file in it (O_EXCL|O_NOFOLLOW|O_CLOEXEC,
 * 0600). When either fails the capture works in memory only (dir and path
 * ""). Never fails. */
void zcp_capture_open(zcp_capture *c);
/* Forget what was captured (a new start); the file is emptied. */
void zcp_capture_reset(zcp_capture *c);
/* Take n more bytes of stderr. */
void zcp_capture_add(zcp_capture *c, const char *data, size_t n);
/* Mirror the capture into its file: the head, a line saying how many
 * bytes were cut when some were, then the tail. Errors are ignored (the
 * file is a courtesy copy). */
void zcp_capture_sync(const zcp_capture *c);
/* Note where the current case begins (its setup request). */
void zcp_capture_mark(zcp_capture *c);
/* What came since the mark, as kept (the head's and the ring's bytes, a
 * "[... N bytes not kept ...]" line where some were dropped between them):
 * a new string the caller frees, or NULL when nothing came. At most
 * ZCP_ERR_HEAD + ZCP_ERR_TAIL bytes and that line. */
char *zcp_capture_since_mark(const zcp_capture *c);
/* Close and remove the file and the private directory. */
void zcp_capture_close(zcp_capture *c);
/* The end of the captured stderr for a message, in out (cap > 8 bytes):
 * its last lines (up to 8, blank ones left out), oldest first, joined with
 * " | " and written as zcp_text_put does; "..." in front when the first
 * one shown is not whole. Empty when nothing was written. */
void zcp_capture_summary(const zcp_capture *c, char *out, size_t cap);

/* ---- a child process (zcp_process.c) ---------------------------------- */

#define ZCP_LINE_MAX (16u * 1024u * 1024u) /* the longest answer line, bytes */

/* An engine child: a command, or a worker running a plugin
 * (zcp_plugin_worker), in a process group of its own, spoken to in lines
 * on its stdin and stdout with a time limit per request, its stderr
 * captured. Plain storage inside its owner (zcp_client.c's engine), made
 * by zcp_child_init and released by zcp_child_free; the fields are read
 * by the owner, written only here. */
typedef struct zcp_child {
  const char *cmd;        /* the command, or the plugin's path: borrowed */
  char **argv;            /* the command split on blanks; NULL: /bin/sh -c cmd */
  int worker;             /* 1: a plugin worker, not a command */
  double timeout;         /* seconds per request (> 0) */
  size_t line_max;        /* the longest answer line taken now, bytes: 0 means
                             ZCP_LINE_MAX; a run's scales as its time limit
                             does (set by the owner around the exchange) */
  pid_t pid;              /* the child, leader of its own process group; 0 none */
  int to, from, errfd;    /* its stdin, stdout, stderr (non-blocking); -1 closed */
  int out_eof;            /* its stdout ended */
  char *buf;              /* what it wrote on stdout and was not taken yet */
  size_t len, cap, scanned; /* scanned: bytes of buf known to hold no newline */
  int slot;               /* its slot for the exit and signal handlers, -1 */
  zcp_capture errs;
} zcp_child;

/* Deadlines are zo_now() (util.h), in seconds. */

/* Make ch for cmd (borrowed: it must outlive ch), nothing started: the
 * command split when it needs no shell, the capture opened, a slot taken
 * for the exit and signal handlers (installed at the first child of a
 * process, which also ignores SIGPIPE from then on: a dead engine must not
 * take the runner with it). worker: cmd is a plugin's path, run by a
 * forked worker. timeout in seconds per request (> 0). */
void zcp_child_init(zcp_child *ch, const char *cmd, int worker, double timeout);
/* Stop whatever runs, remove the capture, release the slot and memory. */
void zcp_child_free(zcp_child *ch);

/* Start the child (pipes, fork, exec or the worker) without speaking to
 * it. ZO_OK, or ZO_ERR_ENGINE with err filled (kind crash: no pipes or no
 * fork) and nothing running. */
zo_status zcp_child_start(zcp_child *ch, zo_error *err);

/* Stop the child: SIGKILL to its whole group and (Linux) to whatever it
 * started that left the group (zcp_process.c, sweep), reap it and those the
 * runner adopted, take what is left
 * on its stderr (until its end, at most 100 ms), close the pipes and
 * mirror the capture into its file. Nothing when none runs; it can be
 * started again. */
void zcp_child_stop(zcp_child *ch);

/* A failure of the child: stop it, then fill err (zcp_fault, kind fault,
 * the command as the file) with `what` cut to 260 bytes and the last lines
 * of its stderr ("; stderr: ..."). Returns ZO_ERR_ENGINE. */
zo_status zcp_child_fail(zcp_child *ch, zo_error *err, zo_engine_fault fault, const char *what);

/* Write n bytes (one line with its newline) to the child's stdin by the
 * deadline (zo_now() seconds), taking its output meanwhile (so neither
 * side can block the other). ZO_OK, or ZO_ERR_ENGINE with the child
 * stopped and err filled: timeout when it does not take the line in time,
 * crash when its input is closed or its output ends, error when it
 * floods. */
zo_status zcp_child_send(zcp_child *ch, const char *text, size_t n, double deadline, zo_error *err);

/* Wait by the deadline for the child's next whole line: ZO_OK with the
 * line (without its newline) at ch->buf[0..*len), to be taken with
 * zcp_child_drop_line. Else ZO_ERR_ENGINE with the child stopped and err
 * filled: timeout (no whole line in time: a hang, a partial line, a
 * stopped engine, endless stderr), crash (it exited or died, or closed its
 * stdout or stdin) or error (a line over ZCP_LINE_MAX bytes). */
zo_status zcp_child_read_line(zcp_child *ch, double deadline, size_t *len, zo_error *err);
/* Take the line of len bytes (and its newline) off the buffer. */
void zcp_child_drop_line(zcp_child *ch, size_t len);

/* After a bye was answered: close the child's stdin and wait (never
 * blocking, up to its time limit) for it to exit, taking and ignoring its
 * output, then stop it (whatever it left behind is killed). ZO_OK,
 * or ZO_ERR_ENGINE (kind timeout, err filled) with the child stopped when
 * it is still running. */
zo_status zcp_child_await_exit(zcp_child *ch, zo_error *err);

/* ---- plugins (zcp_plugin.c) ------------------------------------------- */

/* A plugin loaded into this process (zo_engine.h): the library, its ops
 * and a session. Zeroed: nothing loaded. */
typedef struct zcp_plugin {
  void *dl;                          /* dlopen's handle, NULL none */
  const struct zo_engine_ops *ops;   /* what zo_engine_v1 returned */
  void *session;                     /* ops->open()'s, NULL none */
} zcp_plugin;

/* Load the plugin at path into pl (zeroed) and open a session. 0 when
 * done; else why (cap bytes) says what failed (dlerror's text, "no symbol
 * zo_engine_v1", "the plugin's abi_version is not 1" or "the plugin's
 * open() failed"), pl keeps what was loaded (zcp_plugin_unload releases
 * it), and the result is 1 when the library could not be loaded at all, 2
 * otherwise. */
int zcp_plugin_load(zcp_plugin *pl, const char *path, char *why, size_t cap);

/* Close pl's session, when open; with unload, also dlclose the library
 * (else it stays loaded until exit: its process-lifetime tables, such as a
 * rule set registry, must stay reachable). pl is left zeroed. */
void zcp_plugin_unload(zcp_plugin *pl, int unload);

/* A forked worker's life: load the plugin at path, then answer each line
 * read from descriptor 3 with its request() on descriptor 4 (newlines
 * inside an answer become spaces: JSON means the same), until the end of
 * its input; then close() and _exit(0). Its stdout and stderr are the
 * runner's stderr capture, so a plugin that prints cannot garble the
 * protocol; a plugin's exit(N) ends the worker with N at once (glibc),
 * without the runner's own exit handlers. A plugin that cannot be loaded
 * or opened: the reason on stderr, _exit(127). Never returns. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void zcp_plugin_worker(const char *path);

#endif
