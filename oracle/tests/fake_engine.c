/* fake_engine: the oracle behind zcp/1 (like `zoneoracle serve`) that
 * misbehaves on purpose at the Nth setup, so the gate's handling of broken
 * engines can be tested:
 *   fake_engine hang N      stops answering (the gate times out)
 *   fake_engine exit N      exits without answering
 *   fake_engine garbage N   answers a line that is not JSON
 *   fake_engine nozcp       refuses the handshake (the gate exits 2)
 *   fake_engine lie         reports its first object in a made-up zone
 *                           after the first step (--strict must see it)
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

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
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
    if (op && !strcmp(op, "setup") && bump() == at) {
      if (!strcmp(mode, "hang")) pause();
      if (!strcmp(mode, "exit")) {
        fputs("fake_engine: exiting on purpose\n", stderr);
        exit(3);
      }
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
    zo_serve_write(stdout, res);
    json_decref(res);
    json_decref(req);
  }
  free(line);
  zo_served_free(s);
  return 0;
}
