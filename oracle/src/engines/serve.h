/* serve.h: the oracle behind the zcp/1 protocol (JSON Lines). */
#ifndef ZO_SERVE_H
#define ZO_SERVE_H

#include <jansson.h>
#include <stdio.h>

#include "model.h"

typedef struct zo_served zo_served;

/* One protocol session's state (the current game). Caller frees. */
zo_served *zo_served_new(void);
void zo_served_free(zo_served *s);

/* Answer one request (a JSON object). Always returns a response object
 * (new reference): `ok: true` with results, or `ok: false` with
 * `error: {code, message}`; never crashes on malformed input. */
json_t *zo_serve_request(zo_served *s, json_t *req);

/* Write one answer as a JSON line and flush (a protocol line). */
void zo_serve_write(FILE *out, json_t *res);

/* Serve requests line by line from in to out until `bye` or end of input. */
int zo_serve(FILE *in, FILE *out);

struct zo_game;
/* The observation of a game as the protocol reports it (new reference). */
json_t *zo_serve_observation(const struct zo_game *g);

#endif
