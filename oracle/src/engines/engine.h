/* engine.h: the one interface the runner talks to (internal for now; the
 * plugin ABI zo_engine.h will publish it). The oracle is one implementation
 * (oracle.c); an engine under test, a command or a plugin speaking zcp/1
 * (zcp_client.c), is driven the same way and observed the same way.
 */
#ifndef ZO_ENGINE_H
#define ZO_ENGINE_H

#include <stdio.h>

#include "model.h"

struct json_t; /* jansson */

/* What an engine does, called with its own state `self`. A game lives from
 * setup to teardown (or the next setup); errors fill the caller's optional
 * err (base/error.h), an engine under test's with a zo_engine_fault. */
typedef struct zo_engine_vtable {
  uint32_t abi_version;   /* first field, always: 1 */
  const char *name, *version; /* borrowed from the engine, valid while it lives */
  /* Start a game for case c under rs (both borrowed: they must outlive
     the game). ZO_OK, or an error with err filled: the model's for the
     oracle (ZO_ERR_SETUP...), ZO_ERR_ENGINE for an engine under test. */
  zo_status (*setup)(void *self, const zo_ruleset *rs, const zo_case *c, zo_error *err);
  /* Apply step s of the game's case; r (zeroed by the caller) gets its
     result and is the caller's to free (zo_step_result_free), whatever the
     status. The oracle never fails; an engine under test may
     (ZO_ERR_ENGINE). */
  zo_status (*step)(void *self, const zo_step *s, zo_step_result *r, zo_error *err);
  /* Observe everything; ob (zeroed by the caller) is the caller's to free
     (zo_observation_free), whatever the status. Fails as step does. */
  zo_status (*observe)(void *self, zo_observation *ob, zo_error *err);
  /* Optional: rule hits of the current game, indexed like rs's rules;
     borrowed, valid until the game ends. */
  const int *(*hits)(void *self);
  /* Optional: invariants (fuzz/INVARIANTS.md), at_rest 1 after a state
     check; 1 with v filled on a violation, else 0. */
  int (*check)(void *self, int at_rest, zo_violation *v);
  /* End the current game (its case may be freed afterwards). */
  void (*teardown)(void *self);
  /* Optional: does the engine declare this rule set (ruleset = 1) or this
     protocol feature (ruleset = 0)? NULL: everything. */
  int (*has)(void *self, const char *what, int ruleset);
  /* Optional: what the engine wrote on stderr since the current case's
     setup, as kept (bounded: the first and last 32 KiB, and a line saying
     how much was cut between them): a new string the caller frees, or
     NULL when nothing came. NULL: the engine has no stderr of its own
     (the oracle, a plugin in process). */
  char *(*stderr_text)(void *self);
  /* Optional: the protocol features the engine declares, as bits
     1 << zo_feature: those it names and the parts of the wholes it names
     that the protocol version it speaks gives them (zo_features_declared).
     NULL: every feature (the oracle). */
  uint64_t (*features)(void *self);
  /* Optional: what the engine's game can hold (hello's capabilities,
     zcp/2), borrowed, valid until the engine restarts or is freed; NULL,
     or a NULL answer: anything a case writes. */
  const zo_capabilities *(*capabilities)(void *self);
} zo_engine_vtable;

/* An engine: its operations (borrowed from the engine) and its state.
 * Made and freed by the functions below, each kind by its own. */
typedef struct zo_engine {
  const zo_engine_vtable *ops;
  void *self;
} zo_engine;

/* The kind of an engine's failure, in zo_error.engine_fault (zo.h), with
 * its word (zo_engine_fault_name) in zo_error.context; every error a
 * process or plugin engine reports carries one. Append-only. */
typedef enum zo_engine_fault {
  ZO_ENGINE_FAULT_NONE = 0,    /* no kind: not an engine's failure, or a plugin
                                  that cannot be loaded in process (context "") */
  ZO_ENGINE_FAULT_TIMEOUT,     /* "timeout": no whole answer within the limit */
  ZO_ENGINE_FAULT_CRASH,       /* "crash": it exited, died, closed a pipe, or
                                  could not be started */
  ZO_ENGINE_FAULT_ERROR,       /* "error": an answer that is not a right one */
  ZO_ENGINE_FAULT_ANSWER,      /* "answer": ok: false */
  ZO_ENGINE_FAULT_UNSUPPORTED  /* "unsupported": ok: false, code unsupported */
} zo_engine_fault;

/* The word of a fault, as the engines write it in zo_error.context
 * ("timeout"...; "" for ZO_ENGINE_FAULT_NONE and unknown values). Static
 * storage. */
const char *zo_engine_fault_name(zo_engine_fault f);

/* An engine under test behind zcp/1: `cmd` (copied) runs in a process
 * group of its own, exec'd directly when it is plain words (split on
 * blanks), else under /bin/sh -c; the whole group is killed whenever it is
 * stopped (engines/zcp_process.c and zcp_client.c say what else the
 * driver guarantees). `timeout` is the limit per request in seconds (<= 0:
 * 5 s). The new engine has shaken hands; it is the caller's to free with
 * zo_engine_process_free (which says bye, then kills the group; NULL:
 * nothing). NULL, err filled (ZO_ERR_ENGINE, cmd as the file, a fault),
 * when it can't be started or doesn't speak zcp/1. */
zo_engine *zo_engine_process_new(const char *cmd, double timeout, zo_error *err);
void zo_engine_process_free(zo_engine *e);

/* An engine in a shared library at `path` (copied) exporting zo_engine_v1
 * (zo_engine.h), driven with the same messages: by default in a forked
 * worker process that loads it, driven like a command (time limits,
 * restarts; a crash, exit() or endless loop of the plugin fails the case,
 * never the runner); in process with zo_engine_plugin_open and
 * options.in_process. NULL (err filled: ZO_ERR_ENGINE, path as the file;
 * no fault when loaded in process) when it can't be loaded or refuses the
 * handshake. Free with zo_engine_process_free. */
zo_engine *zo_engine_plugin_new(const char *path, zo_error *err);

/* How a process or plugin engine is driven (zeroed: the defaults). */
typedef struct zo_engine_process_options {
  double timeout;  /* seconds per request, processes and workers; <= 0: 5 s */
  /* The transcript (gate --validate): when not NULL, every request sent
     and every answer received, the handshake and bye included, is written
     as one JSON line {"dir": "request"|"response", "op": OP, "message":
     {...}}; an answer's op is its request's; an answer that is not JSON
     has "raw": its text instead of "message". Borrowed: the caller keeps
     it open until zo_engine_process_free and closes it. */
  FILE *tap;
  /* Plugins only: 1 loads the library into this process (the fuzz
     harnesses, where speed matters: no pipes, but no time limit and no
     isolation, so a crash, exit() or hang of the plugin is the caller's;
     the library stays loaded until exit); 0 (the default, gate and smoke)
     runs it in a forked worker. */
  int in_process;
} zo_engine_process_options;

/* zo_engine_process_new and zo_engine_plugin_new with options (o may be
 * NULL, borrowed for the call; its tap for the engine's life). Same
 * results, errors and ownership. */
zo_engine *zo_engine_process_open(const char *cmd, const zo_engine_process_options *o,
                                  zo_error *err);
zo_engine *zo_engine_plugin_open(const char *path, const zo_engine_process_options *o,
                                 zo_error *err);

/* The following take only engines made by the functions above. */

/* The answer to the last handshake (hello), borrowed: valid until the
 * engine is restarted or freed. Never NULL for a started engine. */
const struct json_t *zo_engine_process_hello(const zo_engine *e);

/* Send `line` (one line without its newline; it need not be JSON, and no
 * id is added) and read one answer within the time limit, for checks of
 * malformed-request handling (zoneoracle smoke). Not tapped. A stopped
 * process is started first (with the handshake). ZO_OK: *answer is the
 * answer, a JSON object (new reference, the caller decrefs). Otherwise
 * ZO_ERR_ENGINE, *answer NULL, err filled as for any request (fault
 * timeout, crash or error) and the process stopped. */
zo_status zo_engine_process_exchange(zo_engine *e, const char *line, struct json_t **answer,
                                     zo_error *err);

/* Say bye and check the answer is ok: true and that a process then exits
 * within the time limit (its input is closed after the answer). ZO_OK, or
 * ZO_ERR_ENGINE with err filled (fault answer for an error answer, timeout
 * when it does not exit). A process is stopped either way
 * (zo_engine_process_free then only frees); a plugin stays open. */
zo_status zo_engine_process_bye(zo_engine *e, zo_error *err);

/* Batch mode (zcp/1 `run`, observe: each) on a process or plugin engine
 * set up with case c: obs[0] is an observation before the steps, then
 * results[i] and obs[i] after step i (1..nsteps). Arrays of nsteps+1
 * zeroed entries owned by the caller, who frees every entry whatever the
 * status; complete only on ZO_OK. ZO_ERR_USAGE when e is not a zcp/1
 * engine (nothing was sent: the caller steps instead); other errors are
 * the engine's, as for a step (ZO_ERR_ENGINE). */
zo_status zo_engine_process_run(zo_engine *e, const zo_case *c, zo_step_result *results,
                                zo_observation *obs, zo_error *err);

/* Games sent ahead (gate --fuzz over a pipe): the setup, observe and run
 * requests of one game written without waiting for their answers, so the
 * engine works on it while the runner does something else (reads the
 * answers of the game before, plays the next on the oracle). Answers come
 * in the order the requests were sent; any other request first reads and
 * drops the answers still in flight (so a runner that changes its mind
 * loses nothing but time).
 *
 * zo_engine_process_can_send_ahead: 1 for an engine that is a process or
 * a plugin in a worker, with no transcript being written (a tap keeps
 * one request, one answer); 0 otherwise (in process: nothing to overlap).
 * zo_engine_process_send_game: write the three requests of case c under
 * rule set rs (starting the engine if it is not running). ZO_OK, or
 * ZO_ERR_ENGINE with err filled and nothing in flight.
 * zo_engine_process_read_game: read the three answers of the game sent
 * first, as zo_engine_process_run reads its two (obs[0] the observation
 * after the setup, then results[i] and obs[i]; arrays of nsteps+1 zeroed
 * entries owned and freed by the caller whatever the status). ZO_OK, or
 * ZO_ERR_ENGINE with err filled: an error answer to any of the three, or
 * an engine that failed (stopped: nothing left in flight). refused (may
 * be NULL) is set to 1 when the setup itself was answered unsupported
 * (the other two answers are read all the same, so the games sent after
 * it stay in step), else 0.
 * zo_engine_process_drain: read and drop every answer in flight. */
int zo_engine_process_can_send_ahead(const zo_engine *e);
/* Steps in batches (plain gate, PROTOCOL.md 14): whether e is a process or
 * plugin engine speaking zcp/2, whose runs answer with deltas. */
int zo_engine_process_can_batch(const zo_engine *e);
/* One `run` of steps [first, first + n) of case c, the case e has set up
 * (PROTOCOL.md 14), its answers read one step at a time: the run is sent
 * and its answer read and checked whole (its shape, ok, one result and
 * one observation per step) into *out, a reader the caller frees with
 * zo_run_reader_free. For first > 0 the game is observed first into
 * *seen (the caller's, freed by it whatever the status): the deltas are
 * relative to that observation (PROTOCOL.md 7.5); for first == 0 to the
 * observation after the setup. A run of n steps has the time limit of
 * 1 + n / 16 requests. Errors as zo_engine_process_run's; *out is NULL. */
typedef struct zo_run_reader zo_run_reader;
zo_status zo_engine_process_run_start(zo_engine *e, const zo_case *c, int first, int n,
                                      zo_observation *seen, zo_run_reader **out, zo_error *err);
/* The next step's result into *r (the caller's, freed by it) and its delta
 * applied to *ob in place (zo_zcp_observation_apply_delta: ob holds the
 * game before the step; with changed, the handles the delta names go
 * there, *nchanged of them). ZO_OK, or ZO_ERR_ENGINE with err filled. Call
 * at most n times. */
zo_status zo_run_reader_next(zo_run_reader *rd, zo_step_result *r, zo_observation *ob, int *changed,
                             int *nchanged, zo_error *err);
/* Free rd and the answer it holds (NULL: nothing). */
void zo_run_reader_free(zo_run_reader *rd);
zo_status zo_engine_process_send_game(zo_engine *e, const zo_ruleset *rs, const zo_case *c, zo_error *err);
zo_status zo_engine_process_read_game(zo_engine *e, const zo_case *c, zo_step_result *results,
                                      zo_observation *obs, int *refused, zo_error *err);
void zo_engine_process_drain(zo_engine *e);

/* Kill (SIGKILL) the process group of every engine child still running
 * and (Linux) whatever the engines started that left their groups, and
 * remove their stderr captures, without reaping the engines or freeing
 * anything (only the processes the runner adopted are reaped):
 * for a program's own signal handler or exit path (async-signal-safe).
 * The driver already does this at exit() and on SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT and SIGABRT (chaining to the handler that was there when the
 * first engine started); a handler installed later should call this. The
 * engines are unusable afterwards except for zo_engine_process_free. */
void zo_engine_process_kill_all(void);

/* The built-in oracle (the model, oracle.c) as an engine, with hits and
 * check; never fails (zo_xcalloc). The caller frees it with
 * zo_engine_oracle_free (NULL: nothing), which ends its game. */
zo_engine *zo_engine_oracle_new(void);
void zo_engine_oracle_free(zo_engine *e);

#endif
