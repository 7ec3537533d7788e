/* serve.h: the oracle behind the zcp/1 protocol (JSON Lines,
 * ci/protocol/PROTOCOL.md), implemented in zcp_server.c: `zoneoracle
 * serve`, the oracle's own plugin (ci/adapters/c-plugin) and the test
 * engines answer requests through it. */
#ifndef ZO_SERVE_H
#define ZO_SERVE_H

#include <jansson.h>
#include <stdio.h>

#include "model.h"
#include "zcp_json.h"

/* One protocol session: the game set up by the last setup, and its case. */
typedef struct zo_served zo_served;

/* A new session with no game (zo_xcalloc: never NULL). The caller frees it
 * with zo_served_free, which frees its game and case. */
zo_served *zo_served_new(void);
void zo_served_free(zo_served *s);

/* Answer one request, req (a JSON object, borrowed; any other value or
 * NULL is answered as a bad request). Always returns a response object,
 * a new reference the caller decrefs: {id, ok: true, ...results} or {id,
 * ok: false, error: {code, message}} with code bad_request, unsupported
 * or internal (id null when the request has no integer id). Never crashes
 * on malformed input; a request after a failed setup is answered "before
 * setup". */
json_t *zo_serve_request(zo_served *s, json_t *req);

/* Write one answer res (borrowed) to out as a JSON line (keys in their
 * order) and flush it: one protocol line, built in buf (the caller's,
 * reused from answer to answer: zcp_json.h). Nothing when res cannot be
 * encoded. */
void zo_serve_write(FILE *out, json_t *res, zo_zcp_line *buf);

/* Serve requests line by line from in to out (both borrowed, left open)
 * until `bye` is answered or the input ends; a line that is not JSON gets
 * a bad_request answer. Returns 0 (the exit code of `zoneoracle serve`). */
int zo_serve(FILE *in, FILE *out);

struct zo_game;
/* The observation of game g as an observe answer's body (zcp_json.h
 * zo_zcp_observation_json; compact: zcp/2's, defaults left out): a new
 * reference the caller decrefs. */
json_t *zo_serve_observation(const struct zo_game *g, int compact);

#endif
