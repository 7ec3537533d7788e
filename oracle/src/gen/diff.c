/* diff.c: differential runs of decoded fuzz inputs (diff.h). */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "util.h"

/* A decoded input, its steps' outcomes and byte boundaries, and the case
 * `replay` prints for it, loaded back (so it carries the JSON an engine
 * is sent). */
typedef struct {
  zo_fuzz f;
  zo_outcome outcomes[ZO_FUZZ_MAX_STEPS];
  zo_step_error errors[ZO_FUZZ_MAX_STEPS];
  size_t ends[ZO_FUZZ_MAX_STEPS + 1]; /* ends[0]: the header; ends[i]: step i */
  zo_case *c;
} decoded;

static void decode(decoded *x, const uint8_t *data, size_t size) {
  zo_fuzz_start(&x->f, data, size);
  x->ends[0] = x->f.at;
  const zo_step *s;
  zo_step_result r = {0};
  while ((s = zo_fuzz_next(&x->f))) {
    int i = x->f.c->nsteps - 1;
    zo_game_apply_again(x->f.g, s, &r);
    x->outcomes[i] = r.outcome;
    x->errors[i] = r.error;
    x->ends[i + 1] = x->f.at < size ? x->f.at : size;
  }
  zo_step_result_free(&r);
}

/* Print the decoded case and load it back. 0, or -1 with why in msg. */
static int load_back(decoded *x, char *msg, size_t cap) {
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (!mem) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  zo_fuzz_print_yaml(&x->f, x->outcomes, x->errors, "fuzz/diff", NULL, NULL, mem);
  fclose(mem);
  zo_error err;
  int rc = zo_case_load_mem("fuzz-input.yaml", text, len, &x->c, &err);
  free(text);
  if (rc != ZO_OK) {
    /* the decoder printed a case the loader refuses: a bug of ours */
    snprintf(msg, cap, "the decoded case does not load: %d:%d: %s", err.line, err.column,
             err.message);
    x->c = NULL;
    return -1;
  }
  return 0;
}

static void undecode(decoded *x) {
  zo_case_free(x->c);
  zo_fuzz_free(&x->f);
}

static zo_diff_status engine_failed(zo_diff_result *out, const zo_case *c, int step,
                                    const zo_error *err) {
  (void)c;
  out->status = ZO_DIFF_DIFFERS;
  out->step = step;
  snprintf(out->d.what, sizeof out->d.what, "engine");
  snprintf(out->d.engine, sizeof out->d.engine, "%.120s", err->message);
  snprintf(out->message, sizeof out->message, "engine %.32s at %s %d: %.400s",
           err->context[0] ? err->context : "error", step ? "step" : "setup", step,
           err->message);
  return out->status;
}

/* Step-by-step comparison of loaded case c on the oracle and on e. */
static zo_diff_status compare_steps(zo_engine *e, zo_engine *o, const zo_ruleset *rs,
                                    const zo_case *c, int batch, zo_diff_result *out) {
  zo_error err = {0};
  if (e->ops->setup(e->self, rs, c, &err)) {
    if (err.engine_fault == ZO_ENGINE_FAULT_UNSUPPORTED) {
      out->status = ZO_DIFF_SKIP;
      snprintf(out->message, sizeof out->message, "unsupported: %s", err.message);
      return out->status;
    }
    return engine_failed(out, c, 0, &err);
  }
  if (o->ops->setup(o->self, rs, c, &err)) { /* the printed case always sets up */
    snprintf(out->message, sizeof out->message, "the oracle refuses the decoded case: %s",
             err.message);
    out->status = ZO_DIFF_DIFFERS;
    snprintf(out->d.what, sizeof out->d.what, "oracle");
    return out->status;
  }
  int n = c->nsteps;
  zo_observation *ea = zo_xcalloc((size_t)n + 1, sizeof *ea);
  zo_observation *ob = zo_xcalloc((size_t)n + 1, sizeof *ob);
  zo_step_result *ra = zo_xcalloc((size_t)n + 1, sizeof *ra);
  zo_step_result *rb = zo_xcalloc((size_t)n + 1, sizeof *rb);
  int got = 0; /* engine observations filled: 0..n+1 */
  out->status = ZO_DIFF_SAME;
  if (batch && zo_engine_process_run(e, c, ra, ea, &err) == ZO_OK) {
    got = n + 1;
  } else if (batch && err.message[0]) {
    engine_failed(out, c, 0, &err);
  } else {
    if (e->ops->observe(e->self, &ea[0], &err)) engine_failed(out, c, 0, &err);
    else got = 1;
    for (int i = 0; i < n && out->status == ZO_DIFF_SAME; i++) {
      if (e->ops->step(e->self, &c->steps[i], &ra[i + 1], &err) ||
          e->ops->observe(e->self, &ea[i + 1], &err))
        engine_failed(out, c, i + 1, &err);
      else got = i + 2;
    }
  }
  /* the oracle, and the comparison, as far as the engine got */
  o->ops->observe(o->self, &ob[0], &err);
  for (int i = 0; i <= n && out->status == ZO_DIFF_SAME; i++) {
    if (i > 0) {
      o->ops->step(o->self, &c->steps[i - 1], &rb[i], &err);
      o->ops->observe(o->self, &ob[i], &err);
    }
    if (i >= got) break;
    if (zo_observation_diff(c, &ea[i], &ob[i], i ? &ea[i - 1] : NULL, i ? &ob[i - 1] : NULL,
                            i ? &ra[i] : NULL, i ? &rb[i] : NULL, &out->d)) {
      out->status = ZO_DIFF_DIFFERS;
      out->step = i;
      char what[400];
      zo_obs_difference_format(c, &out->d, what, sizeof what);
      if (i)
        snprintf(out->message, sizeof out->message, "after step %d (%s, line %d): %s", i,
                 zo_step_kind_name(c->steps[i - 1].kind), c->steps[i - 1].line, what);
      else snprintf(out->message, sizeof out->message, "after the setup: %s", what);
    }
  }
  for (int i = 0; i <= n; i++) {
    zo_observation_free(&ea[i]);
    zo_observation_free(&ob[i]);
    zo_step_result_free(&ra[i]);
    zo_step_result_free(&rb[i]);
  }
  free(ea);
  free(ob);
  free(ra);
  free(rb);
  e->ops->teardown(e->self);
  o->ops->teardown(o->self);
  return out->status;
}

zo_diff_status zo_diff_input(zo_engine *e, const uint8_t *data, size_t size, int batch,
                             zo_diff_result *out) {
  static zo_engine *oracle;
  if (!oracle) oracle = zo_engine_oracle_new(); /* kept for the process's life */
  memset(out, 0, sizeof *out);
  out->d.handle = -1;
  decoded x;
  decode(&x, data, size);
  snprintf(out->ruleset, sizeof out->ruleset, "%s", x.f.rs->id);
  out->nsteps = x.f.c->nsteps;
  if (load_back(&x, out->message, sizeof out->message)) {
    out->status = ZO_DIFF_DIFFERS;
    snprintf(out->d.what, sizeof out->d.what, "decoder");
    undecode(&x);
    return out->status;
  }
  const char *missing = NULL;
  if (e->ops->has && !e->ops->has(e->self, x.f.rs->id, 1)) missing = x.f.rs->id;
  else missing = zo_case_missing_feature(e, x.c);
  if (missing) {
    out->status = ZO_DIFF_SKIP;
    snprintf(out->message, sizeof out->message, "the engine does not declare %s", missing);
  } else {
    compare_steps(e, oracle, x.f.rs, x.c, batch, out);
  }
  if (out->status == ZO_DIFF_DIFFERS) {
    int k = out->step < x.c->nsteps ? out->step : x.c->nsteps;
    out->used = x.ends[k];
  } else {
    out->used = size;
  }
  undecode(&x);
  return out->status;
}

size_t zo_diff_minimize(zo_engine *e, uint8_t *data, size_t size, int batch,
                        zo_diff_result *res) {
  zo_diff_result r;
  if (zo_diff_input(e, data, size, batch, &r) != ZO_DIFF_DIFFERS) {
    *res = r;
    return size;
  }
  size = r.used; /* the steps after the difference add nothing */
  *res = r;
  uint8_t *trial = zo_xmalloc(size + 1);
  /* drop one step's bytes at a time, last first, while a difference stays */
  for (int again = 1; again;) {
    again = 0;
    decoded x;
    decode(&x, data, size);
    int n = x.f.c->nsteps;
    size_t ends[ZO_FUZZ_MAX_STEPS + 1];
    memcpy(ends, x.ends, sizeof ends);
    zo_fuzz_free(&x.f);
    for (int i = n; i >= 1; i--) {
      size_t from = ends[i - 1], to = ends[i];
      if (to <= from) continue;
      size_t m = 0;
      memcpy(trial, data, from);
      m = from;
      memcpy(trial + m, data + to, size - to);
      m += size - to;
      if (zo_diff_input(e, trial, m, batch, &r) == ZO_DIFF_DIFFERS) {
        memcpy(data, trial, r.used);
        size = r.used;
        *res = r;
        again = 1;
        break;
      }
    }
  }
  free(trial);
  return size;
}

int zo_diff_print_yaml(const uint8_t *data, size_t size, const zo_diff_result *res,
                       const char *id, FILE *out) {
  decoded x;
  decode(&x, data, size);
  char note[700];
  snprintf(note, sizeof note, "fuzz_diff finding (%s): %s", x.f.rs->id, res->message);
  for (char *p = note; *p; p++) /* the note goes between double quotes */
    if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20) *p = '\'';
  const zo_obs_difference *d = res->status == ZO_DIFF_DIFFERS ? &res->d : NULL;
  int rc = zo_fuzz_print_yaml_ex(&x.f, x.outcomes, x.errors, id, NULL, note, d, res->step, out);
  zo_fuzz_free(&x.f);
  return rc;
}
