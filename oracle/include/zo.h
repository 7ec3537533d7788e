/* zo.h: the public API of zoneoracle, a reference model of the zone rules of
 * trading card games (Magic: the Gathering, Flesh and Blood) and a runner of
 * YAML rule cases against it.
 *
 * Conventions: every fallible call returns a zo_status (ZO_OK == 0) and fills
 * an optional zo_error; the library never prints and never exits. Names are
 * zo_<noun>_<verb>. Enum values are append-only.
 */
#ifndef ZO_H
#define ZO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result of a fallible call. Append-only. */
typedef enum zo_status {
  ZO_OK = 0,
  ZO_ERR_IO,       /* a file could not be read or written */
  ZO_ERR_SYNTAX,   /* malformed YAML (or alias, tag, duplicate key) */
  ZO_ERR_SCHEMA,   /* well-formed YAML that is not a valid case / rule set */
  ZO_ERR_SETUP,    /* a starting position the rule set forbids */
  ZO_ERR_UNKNOWN,  /* an unknown rule set, zone, handle or name */
  ZO_ERR_NOMEM,    /* out of memory */
  ZO_ERR_ENGINE,   /* an engine could not be driven */
  ZO_ERR_USAGE     /* a bad argument from the caller */
} zo_status;

/* Where and why a call failed. Positions are 1-based; 0 = unknown.
 * Owned by the caller (plain storage, nothing to free). */
typedef struct zo_error {
  zo_status code;
  char message[512]; /* one line, no trailing newline */
  char file[256];
  int line, column;
  char context[160]; /* e.g. "while reading step 2"; may be empty */
  /* The kind of an engine's failure as a value: a zo_engine_fault of the
     engines layer (oracle/src/engines/engine.h; 0 none), set with the
     kind's word in context on every error an engine under test reports;
     other errors leave it as it was (start from {0}). */
  int engine_fault;
} zo_error;

/* Name of a status ("io", "syntax"...); static storage. */
const char *zo_status_name(zo_status s);

/* Outcome of one step (cases/README.md "Outcomes"). Append-only. */
typedef enum zo_outcome {
  ZO_OUTCOME_NONE = 0,
  ZO_OUTCOME_MOVED,
  ZO_OUTCOME_NO_MOVE,
  ZO_OUTCOME_NEW_OBJECT_IN_PLACE,
  ZO_OUTCOME_REDIRECTED,
  ZO_OUTCOME_STAYED,
  ZO_OUTCOME_REPLACED,
  ZO_OUTCOME_FAILED,
  ZO_OUTCOME_CLEARED,
  ZO_OUTCOME_CEASED,
  ZO_OUTCOME_REJECTED,
  ZO_OUTCOME_NOT_FOUND,
  ZO_OUTCOME_COUNT
} zo_outcome;

/* Error code a step may carry with its outcome (cases/README.md). */
typedef enum zo_step_error {
  ZO_E_NONE = 0,
  ZO_E_CAPACITY,
  ZO_E_NO_ZONE,
  ZO_E_CANNOT_HOLD,
  ZO_E_TOKEN_LEFT,
  ZO_E_NOT_IN_ZONE,
  ZO_E_NO_CONTROLLER,
  ZO_E_ALREADY,
  ZO_E_EMPTY,
  ZO_E_ORDERED,
  ZO_E_WRONG_PLAYER,
  ZO_E_UNSUPPORTED,
  ZO_E_PHASED_OUT,
  ZO_E_NOT_FOUND,
  ZO_E_NOT_FIRED,
  ZO_E_COUNT
} zo_step_error;

/* Lower-case names as written in cases ("new_object_in_place", "capacity");
 * static storage. *_parse returns -1 for an unknown name. */
const char *zo_outcome_name(zo_outcome o);
int zo_outcome_parse(const char *name);
const char *zo_step_error_name(zo_step_error e);
int zo_step_error_parse(const char *name);

/* ---- Rule sets (oracle/rulesets/ID.yaml, embedded at build time) ---- */

/* A rule set: the zone types of one game and era and its policy switches,
 * each citing its rule. Owned by the library (embedded ones live for the
 * process) or by the caller of zo_ruleset_load_file. */
typedef struct zo_ruleset zo_ruleset;

/* Number of embedded rule sets, and the i-th (0 <= i < count). Parsed once on
 * first use; a broken embedded file is a build defect and aborts. */
size_t zo_ruleset_count(void);
const zo_ruleset *zo_ruleset_at(size_t i);

/* Embedded rule set by id ("mtg-2011", "fab"), or NULL. */
const zo_ruleset *zo_ruleset_find(const char *id);

/* Id and one-line title; storage owned by the rule set. */
const char *zo_ruleset_id(const zo_ruleset *rs);
const char *zo_ruleset_title(const zo_ruleset *rs);

/* Load a user's rule set file (may `extends:` an embedded one). On success
 * *out is owned by the caller (zo_ruleset_free). Errors name file:line:col. */
zo_status zo_ruleset_load_file(const char *path, zo_ruleset **out,
                               zo_error *err);
/* The same from memory; `name` is used in messages. */
zo_status zo_ruleset_load_mem(const char *name, const char *text, size_t len,
                              zo_ruleset **out, zo_error *err);
void zo_ruleset_free(zo_ruleset *rs);

/* Rules listed by the rule set (number, paraphrase, seed flag): the rule
 * coverage that reports show. Index 0 <= i < zo_ruleset_rule_count. */
size_t zo_ruleset_rule_count(const zo_ruleset *rs);
const char *zo_ruleset_rule_id(const zo_ruleset *rs, size_t i);
const char *zo_ruleset_rule_text(const zo_ruleset *rs, size_t i);
int zo_ruleset_rule_is_seed(const zo_ruleset *rs, size_t i);

/* ---- Cases ---- */

/* A loaded rule case (cases/README.md). Owned by the caller: zo_case_free. */
typedef struct zo_case zo_case;

/* Load and validate a case file: YAML syntax, the case language, and the
 * starting position against each of its rule sets. Returns ZO_ERR_IO,
 * ZO_ERR_SYNTAX, ZO_ERR_SCHEMA, ZO_ERR_UNKNOWN or ZO_ERR_SETUP with
 * file:line:column and what was expected in err. */
zo_status zo_case_load_file(const char *path, zo_case **out, zo_error *err);

/* The same from memory; `name` is used in messages. */
zo_status zo_case_load_mem(const char *name, const char *text, size_t len,
                           zo_case **out, zo_error *err);

void zo_case_free(zo_case *c);
const char *zo_case_id(const zo_case *c);
const char *zo_case_title(const zo_case *c);
const char *zo_case_file(const zo_case *c);
size_t zo_case_ruleset_count(const zo_case *c);
const char *zo_case_ruleset(const zo_case *c, size_t i);
size_t zo_case_rule_count(const zo_case *c);
const char *zo_case_rule(const zo_case *c, size_t i);

/* ---- The model (the oracle) ---- */

/* One game in progress: the reference model. Owned by the caller. */
typedef struct zo_game zo_game;

/* Invariant violation found by zo_game_check (fuzz/INVARIANTS.md). */
typedef struct zo_violation {
  const char *invariant; /* id, e.g. "tokens-in-arena"; static storage */
  const char *rule;      /* the rule it comes from; static storage */
  char detail[256];
} zo_violation;

/* Set up a game for case c under rule set rs (the case's starting position).
 * ZO_ERR_SETUP if the rule set forbids the position. */
zo_status zo_game_new(const zo_ruleset *rs, const zo_case *c, zo_game **out,
                      zo_error *err);
void zo_game_free(zo_game *g);

/* Check every invariant of fuzz/INVARIANTS.md that holds at any time (and, when
 * at_rest is non-zero, those that hold after a state check). Returns 1 and
 * fills v on the first violation, 0 when the game is sound. */
int zo_game_check(const zo_game *g, int at_rest, zo_violation *v);

#ifdef __cplusplus
}
#endif

#endif /* ZO_H */
