/* bench_json: what JSON alone costs the protocol. Reads files of JSON
 * lines (a transcript of zcp requests and answers, one message a line) and
 * parses, prints (compact) and frees every message once per pass with
 * jansson, the library both sides of the protocol use. Three passes; the
 * fastest counts. Prints the messages, their bytes and the seconds of one
 * pass: the time any client and server pair spends on JSON alone to
 * exchange those messages, whatever else it does (each message is printed
 * once by its sender and parsed once by its receiver). ci/bench turns it
 * into a ceiling on steps per second; under callgrind, one_pass's count
 * is the same cost in instructions. A benchmark, not a test: it asserts
 * nothing. Exit: 0, or 2 when a file can't be read or a line is not JSON. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  char **text;
  size_t *len;
  size_t n, cap, bytes;
} lines;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Every line of path appended to ls (copies it owns); 0, or -1 when the
 * file can't be opened. */
static int read_lines(const char *path, lines *ls) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char *l = NULL;
  size_t cap = 0;
  ssize_t k;
  while ((k = getline(&l, &cap, f)) > 0) {
    if (ls->n == ls->cap) {
      ls->cap = ls->cap ? ls->cap * 2 : 4096;
      ls->text = realloc(ls->text, ls->cap * sizeof *ls->text);
      ls->len = realloc(ls->len, ls->cap * sizeof *ls->len);
      if (!ls->text || !ls->len) abort();
    }
    ls->text[ls->n] = malloc((size_t)k);
    if (!ls->text[ls->n]) abort();
    memcpy(ls->text[ls->n], l, (size_t)k);
    ls->len[ls->n++] = (size_t)k;
    ls->bytes += (size_t)k;
  }
  free(l);
  fclose(f);
  return 0;
}

/* One pass: parse, print and free each message. The number of lines that
 * are not JSON (0 for a transcript). Not static, so that callgrind's
 * --toggle-collect can name it. */
size_t one_pass(const lines *ls);
size_t one_pass(const lines *ls) {
  size_t bad = 0;
  for (size_t i = 0; i < ls->n; i++) {
    json_error_t e;
    json_t *j = json_loadb(ls->text[i], ls->len[i], JSON_DECODE_ANY, &e);
    if (!j) {
      bad++;
      continue;
    }
    char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    free(s);
    json_decref(j);
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_json FILE...  (files of JSON lines)\n");
    return 2;
  }
  lines ls = {0};
  for (int a = 1; a < argc; a++)
    if (read_lines(argv[a], &ls)) {
      fprintf(stderr, "bench_json: cannot read %s\n", argv[a]);
      return 2;
    }
  double best = 0;
  for (int r = 0; r < 3; r++) {
    double t0 = now();
    size_t bad = one_pass(&ls);
    double t = now() - t0;
    if (bad) {
      fprintf(stderr, "bench_json: %zu lines are not JSON\n", bad);
      return 2;
    }
    if (r == 0 || t < best) best = t;
  }
  printf("%zu messages, %zu bytes: %.4f s a pass (parse, print, free each once)\n", ls.n, ls.bytes,
         best);
  for (size_t i = 0; i < ls.n; i++) free(ls.text[i]);
  free(ls.text);
  free(ls.len);
  return 0;
}
