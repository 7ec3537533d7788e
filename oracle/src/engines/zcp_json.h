/* zcp_json.h: the zcp/1 mapping (ci/protocol/PROTOCOL.md) of observations,
 * step results and steps to and from JSON, both halves in one file over
 * one table of the protocol's words: the server (the oracle as an engine,
 * zcp_server.c) writes observations and results with it, the client (the
 * runner's side, zcp_client.c) reads them back and writes the steps it
 * sends, so the two sides cannot drift apart. A step's JSON is the case
 * language's step (an object with one step name, as a case file holds
 * it); the server reads it back with case.h's zo_case_append_step_json. */
#ifndef ZO_ZCP_JSON_H
#define ZO_ZCP_JSON_H

#include <jansson.h>

#include "model.h"

/* ---- protocol lines ---- */

/* A growing text buffer, reused from message to message so that writing
 * one costs no allocation once it is big enough: zeroed to start, p freed
 * by its owner. */
typedef struct {
  char *p;
  size_t n, cap; /* n bytes of text in p, cap allocated */
} zo_zcp_line;

/* j (borrowed) written into *line as one protocol line: compact JSON, keys
 * in their order, then a newline; line->n is its length with the newline
 * (no terminator). 0, or -1 when j cannot be encoded (line->n is then 0). */
int zo_zcp_line_write(zo_zcp_line *line, const json_t *j);

/* ---- writing (the server) ---- */

/* The observation ob of a game of case c as an observe answer's body
 * {objects, triggers, refs, players, visible}: every object that exists or
 * existed (an object a step would create but did not yet is left out),
 * keyed by handle, names for players, handles and marks, null for none.
 * compact (a zcp/2 session): each object's fields at their default left
 * out (PROTOCOL.md, "Defaults"); else every field written. A new reference
 * (the caller decrefs); ob and c are only read. */
json_t *zo_zcp_observation_json(const zo_case *c, const zo_observation *ob, int compact);

/* The observation ob as a delta from prev (zcp/2, `run` with observe
 * "delta"): `objects` (always there) and those of `triggers`, `refs`,
 * `players` and `visible` that have a change, each holding only the
 * entries that differ from prev: an object's changed fields (an object
 * new since prev whole), a trigger, reference or player whole, a player's
 * `visible` list whole. prev NULL (or of other players): the whole
 * observation. compact: `objects` left out when no object changed, and a
 * new object's fields at their default. sight_changes (visible_changes):
 * a player's `visible` that changed is {"add": [...], "remove": [...]},
 * the handles gained and lost, each list left out when empty. A new
 * reference (the caller decrefs). */
json_t *zo_zcp_observation_delta_json(const zo_case *c, const zo_observation *prev,
                                      const zo_observation *ob, int compact, int sight_changes);

/* The result r of a step of case c as a step answer's body {outcome,
 * error, events}: the outcome and error words (error null for none) and
 * one {handle, outcome} per event. compact (zcp/2): error left out when
 * none, events when empty. A new reference (the caller decrefs). */
json_t *zo_zcp_result_json(const zo_case *c, const zo_step_result *r, int compact);

/* ---- reading (the client) ---- */

/* The handle names of one case sorted for lookups, so that an answer
 * naming every object costs no scan per name: built on first use for a
 * case and rebuilt when the case changes. Zeroed: empty. Owned by the
 * caller: zo_zcp_names_free releases it. */
typedef struct zo_zcp_names {
  struct zo_zcp_name { const char *name; int handle; } *sorted;
  int n;
  const zo_case *of; /* the case sorted, NULL none */
  int next;          /* the handle after the last found: tried first, as
                        engines list objects in the case's order */
} zo_zcp_names;

/* Forget the case sorted (call when it may be freed: its address may be
 * reused by the next); the storage is kept for the next. */
void zo_zcp_names_forget(zo_zcp_names *names);
/* Release the storage; names is left empty. */
void zo_zcp_names_free(zo_zcp_names *names);

/* The step s as JSON: its case text parsed (s->json), or null when it has
 * none or it does not parse. A new reference (the caller decrefs). */
json_t *zo_zcp_step_json(const zo_step *s);

/* The zone types of rule set rs as the setup's `ruleset_zones` gives them
 * (feature ruleset_zones, PROTOCOL.md 7.2): an object from each zone type's
 * name to its attributes' values as a rule set file writes them (role, and
 * every key of ZO_ZONE_ATTRS: true/false, numbers, public or hidden, lists
 * of words), without their rules; `limits`, `displace`, `instead`, `group`,
 * `wrong_owner`, `follows_control`, `at_index`, `face_up_only` and `seats`
 * (issue 31)
 * only when `limits` is set (the engine declared zone_rules). A new reference,
 * never NULL. */
json_t *zo_zcp_ruleset_zones_json(const zo_ruleset *rs, int limits);

/* A step answer (or one of a run's results) res into r (zeroed by the
 * caller; its events buffer grown with zo_xrealloc, freed by
 * zo_step_result_free), in the terms of case c (handles looked up through
 * names). Unknown outcome and error words read as none; events naming no
 * handle of c or no outcome are left out. ZO_OK, or ZO_ERR_ENGINE with
 * err filled (zcp_fault: kind ZO_ENGINE_FAULT_ERROR, `who` as the file)
 * when res has no outcome: it answers some other request. */
zo_status zo_zcp_result_read(zo_zcp_names *names, const zo_case *c, const json_t *res,
                             zo_step_result *r, const char *who, zo_error *err);

/* An observe answer (or one of a run's observations) res into ob, sized
 * for case c (the arrays allocated even on an error: the caller frees ob
 * with zo_observation_free). Handles, players, triggers, references and
 * marks are found by their names in c; what res does not name reads as
 * absent (not existing, -1, false). An identity token (`object`) is kept
 * as a number at its full width, or a string hashed (only ever compared
 * for equality). ZO_OK, or ZO_ERR_ENGINE with err filled as for
 * zo_zcp_result_read when res has no objects or a position (from 0) or
 * layer (from 1) outside what an int holds: numbers are never
 * truncated. */
zo_status zo_zcp_observation_read(zo_zcp_names *names, const zo_case *c, const json_t *res,
                                  zo_observation *ob, const char *who, zo_error *err);

/* A delta observation res (zo_zcp_observation_delta_json) applied to
 * prev into ob (sized for c like zo_zcp_observation_read; prev, of the
 * same case, is only read): an object's fields that res names replace
 * prev's, a trigger, reference, player or `visible` list res names
 * replaces prev's whole, and what res does not name stays as in prev (a
 * whole observation is a delta too; `objects` absent: no object changed).
 * An object new since prev starts from the defaults prev holds for it, so
 * a compact one (fields at their default left out) reads whole. Errors as
 * zo_zcp_observation_read, but for a missing `objects`. */
zo_status zo_zcp_observation_read_delta(zo_zcp_names *names, const zo_case *c, const json_t *res,
                                        const zo_observation *prev, zo_observation *ob,
                                        const char *who, zo_error *err);
/* The same delta res applied to ob in place (ob: an observation of c,
 * the game before the step; after it on ZO_OK, partly changed on an
 * error). With changed (room for c->nhandles), the handles of the objects
 * res names are listed there, *nchanged of them: what the step changed,
 * at the cost of the delta rather than of the game. */
zo_status zo_zcp_observation_apply_delta(zo_zcp_names *names, const zo_case *c, const json_t *res,
                                         zo_observation *ob, int *changed, int *nchanged,
                                         const char *who, zo_error *err);

#endif
