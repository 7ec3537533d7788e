/* fake_engine: the oracle behind zcp/1 (like `zoneoracle serve`) that
 * misbehaves on purpose at the Nth setup, so the gate's handling of broken
 * engines can be tested:
 *   fake_engine hang N      stops answering (the gate times out)
 *   fake_engine exit N      exits without answering
 *   fake_engine garbage N   answers a line that is not JSON
 *   fake_engine nozcp       refuses the handshake (the gate exits 2)
 *   fake_engine badschema N answers the first observe of that game with
 *                           "layer": "bottom" on its first object (the
 *                           schema wants an integer or null; the gate reads
 *                           it as null, so only --validate sees it)
 *   fake_engine lie         reports its first object in a made-up zone
 *                           after the first step (--strict must see it)
 *   fake_engine lyingtoken  after a state_check step, reports every token on
 *                           the battlefield in its owner's graveyard (the
 *                           gate's --invariants must see tokens-in-arena)
 *   fake_engine sameid      reports each object's first identity forever,
 *                           as if no move made a new object (identity-rule)
 * Counting survives restarts through a file named by FAKE_ENGINE_COUNT. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve.h"

static int bump(void) {
  const char *path = getenv("FAKE_ENGINE_COUNT");
  if (!path) return 0;
  int n = 0;
  FILE *f = fopen(path, "r");
  if (f) {
    if (fscanf(f, "%d", &n) != 1) n = 0;
    fclose(f);
  }
  f = fopen(path, "w");
  if (f) {
    fprintf(f, "%d\n", n + 1);
    fclose(f);
  }
  return n + 1;
}

/* Lies for --invariants: `tokens` holds the handles set up or created as
 * tokens (kind or type token); `ids` each handle's first identity. */
static json_t *tokens, *ids;

static const char *text_of(json_t *v) { return json_string_value(v) ? json_string_value(v) : ""; }

static int token_spec(json_t *spec) {
  if (!strcmp(text_of(json_object_get(spec, "kind")), "token")) return 1;
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(spec, "types"), i, t) {
    if (!strcmp(text_of(t), "token")) return 1;
  }
  return 0;
}

static void learn_tokens(const char *op, json_t *req) {
  const char *k;
  json_t *x;
  if (!strcmp(op, "setup")) {
    json_object_clear(tokens);
    json_object_clear(ids);
    json_object_foreach(json_object_get(req, "cards"), k, x) {
      if (token_spec(x)) json_object_set_new(tokens, k, json_true());
    }
  }
  json_t *create = json_object_get(json_object_get(req, "step"), "create");
  if (create && token_spec(create) && text_of(json_object_get(create, "as"))[0])
    json_object_set_new(tokens, text_of(json_object_get(create, "as")), json_true());
}

static void lie_about_invariants(const char *mode, int after_state_check, json_t *res) {
  const char *k;
  json_t *o;
  json_object_foreach(json_object_get(res, "objects"), k, o) {
    if (!strcmp(mode, "lyingtoken") && after_state_check && json_object_get(tokens, k) &&
        json_is_true(json_object_get(o, "exists")) &&
        !strcmp(text_of(json_object_get(o, "zone")), "battlefield")) {
      char zone[96];
      snprintf(zone, sizeof zone, "%s.graveyard", text_of(json_object_get(o, "owner")));
      json_object_set_new(o, "zone", json_string(zone));
      json_object_set_new(o, "controller", json_null());
    }
    if (!strcmp(mode, "sameid") && json_is_true(json_object_get(o, "exists"))) {
      if (!json_object_get(ids, k)) json_object_set(ids, k, json_object_get(o, "object"));
      json_object_set(o, "object", json_object_get(ids, k));
    }
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  tokens = json_object();
  ids = json_object();
  int after_state_check = 0;
  int at = argc > 2 ? atoi(argv[2]) : 0;
  zo_served *s = zo_served_new();
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    json_error_t je;
    json_t *req = json_loads(line, 0, &je);
    const char *op = req ? json_string_value(json_object_get(req, "op")) : NULL;
    if (op && !strcmp(op, "hello") && !strcmp(mode, "nozcp")) {
      puts("{\"hello\": \"i speak something else\"}");
      fflush(stdout);
      continue;
    }
    static int bad_observes;
    if (op && !strcmp(op, "setup") && bump() == at) {
      if (!strcmp(mode, "hang")) pause();
      if (!strcmp(mode, "exit")) {
        fputs("fake_engine: exiting on purpose\n", stderr);
        exit(3);
      }
      if (!strcmp(mode, "badschema")) bad_observes = 1;
      if (!strcmp(mode, "garbage")) {
        puts("this is not JSON");
        fflush(stdout);
        json_decref(req);
        continue;
      }
    }
    json_t *res = zo_serve_request(s, req);
    static int steps;
    if (op && !strcmp(op, "step")) steps++;
    if (op && !strcmp(op, "setup")) steps = 0;
    if (op && !strcmp(op, "observe") && steps > 0 && !strcmp(mode, "lie")) {
      const char *k;
      json_t *o;
      json_object_foreach(json_object_get(res, "objects"), k, o) {
        json_object_set_new(o, "zone", json_string("nowhere"));
        break;
      }
    }
    if (op && !strcmp(op, "observe") && bad_observes > 0 && json_is_true(json_object_get(res, "ok"))) {
      bad_observes--;
      const char *k;
      json_t *o;
      json_object_foreach(json_object_get(res, "objects"), k, o) {
        json_object_set_new(o, "layer", json_string("bottom"));
        break;
      }
    }
    if (op) learn_tokens(op, req);
    if (op && !strcmp(op, "step"))
      after_state_check = json_object_get(json_object_get(req, "step"), "state_check") != NULL;
    if (op && !strcmp(op, "observe")) lie_about_invariants(mode, after_state_check, res);
    zo_serve_write(stdout, res);
    json_decref(res);
    json_decref(req);
  }
  json_decref(tokens);
  json_decref(ids);
  free(line);
  zo_served_free(s);
  return 0;
}
