/* engines/zcp_shape.c: the shape of every answer an engine may give
 * (ci/protocol/PROTOCOL.md 5, 7 and 8; the JSON Schemas in ci/protocol say
 * the same at length), checked on every answer whatever the options: a
 * field the protocol version the engine speaks does not define, a
 * required field left out, or a value of the wrong JSON type is an engine
 * error naming the field and its JSON path. Without it an observation with
 * `Zone` for `zone` read as an object nowhere, and only `--validate` said
 * why. Values within a type (an outcome's word, a zone's name) are the
 * readers' business (zcp_json.c) and the schemas'.
 *
 * The shapes are static tables, one per JSON object of the protocol; a
 * check walks the answer once, looking each key up in its object's table
 * (a dozen names at most). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "zcp_int.h"

/* The JSON types a value may have, as bits. */
enum { T_NULL = 1, T_BOOL = 2, T_INT = 4, T_STR = 8, T_ARR = 16, T_OBJ = 32 };

typedef struct shape shape;

/* One field of an object: its name, the types its value may have, the
 * shape of that value when it is an object (its fields), a map (each
 * member's shape) or an array (each item's), whether it is required, and
 * the protocol version that defined it. */
typedef struct {
  const char *name;
  unsigned types;
  const shape *of;
  unsigned char required, since;
} field;

/* An object's fields, or (nfields 0, each not NULL) a map whose every
 * member has shape `each`, or (items) an array of items of one type. */
struct shape {
  const field *fields;
  int nfields;
  const shape *each;   /* a map: every member's shape */
  unsigned items;      /* an array: every item's types (T_*), 0 none given */
  const shape *item;   /* and the shape of an object item */
  int partial;         /* an object whose fields may all be left out (a delta's) */
};

#define N(a) (int)(sizeof a / sizeof *a)
#define SHAPE(a) {.fields = a, .nfields = N(a)}

static const shape strings = {.items = T_STR};
static const shape ints = {.items = T_INT};

/* ---- observations (PROTOCOL.md 8) ---- */

static const field object_fields[] = {
    {"exists", T_BOOL, NULL, 1, 1},         {"zone", T_STR, NULL, 1, 1},
    {"object", T_INT | T_STR, NULL, 1, 1},  {"position", T_INT | T_NULL, NULL, 0, 1},
    {"layer", T_INT | T_NULL, NULL, 0, 1},  {"visibility", T_STR, NULL, 1, 1},
    {"face", T_STR, NULL, 0, 1},            {"controller", T_STR | T_NULL, NULL, 0, 1},
    {"owner", T_STR, NULL, 1, 1},           {"marks", T_ARR, &strings, 0, 1},
    {"under", T_STR | T_NULL, NULL, 0, 1},  {"phased_out", T_BOOL, NULL, 0, 1},
    {"came_from", T_STR | T_NULL, NULL, 0, 1}, {"attached_to", T_STR | T_NULL, NULL, 0, 1},
    {"attached_to_player", T_STR | T_NULL, NULL, 0, 1}};
static const field trigger_fields[] = {{"fired", T_BOOL, NULL, 1, 1},
                                       {"found", T_BOOL | T_NULL, NULL, 1, 1},
                                       {"controller", T_STR | T_NULL, NULL, 1, 1}};
static const field ref_fields[] = {{"found", T_BOOL, NULL, 1, 1}, {"handle", T_STR | T_NULL, NULL, 1, 1}};
static const field player_fields[] = {{"lost", T_BOOL, NULL, 1, 1}};

static const shape object_shape = SHAPE(object_fields);
static const shape object_delta_shape = {.fields = object_fields, .nfields = N(object_fields), .partial = 1};
static const shape trigger_shape = SHAPE(trigger_fields);
static const shape ref_shape = SHAPE(ref_fields);
static const shape player_shape = SHAPE(player_fields);
static const shape objects = {.each = &object_shape};
static const shape object_deltas = {.each = &object_delta_shape};
static const shape triggers = {.each = &trigger_shape};
static const shape refs = {.each = &ref_shape};
static const shape players = {.each = &player_shape};
static const shape handle_list = {.items = T_STR};
static const shape visible = {.each = &handle_list};

#define OBSERVATION(req)                                                               \
  {"objects", T_OBJ, &objects, req, 1}, {"triggers", T_OBJ, &triggers, req, 1},         \
      {"refs", T_OBJ, &refs, req, 1}, {"players", T_OBJ, &players, req, 1},            \
      {"visible", T_OBJ, &visible, req, 1}

static const field observation_fields[] = {OBSERVATION(1)};
static const field delta_fields[] = {
    {"objects", T_OBJ, &object_deltas, 0, 2}, {"triggers", T_OBJ, &triggers, 0, 2},
    {"refs", T_OBJ, &refs, 0, 2}, {"players", T_OBJ, &players, 0, 2}, {"visible", T_OBJ, &visible, 0, 2}};
/* visible: changes (feature visible_changes): a player's list as the
   handles it gained and lost */
static const field sight_change_fields[] = {{"add", T_ARR, &handle_list, 0, 2},
                                            {"remove", T_ARR, &handle_list, 0, 2}};
static const shape sight_change_shape = SHAPE(sight_change_fields);
static const shape sight_changes = {.each = &sight_change_shape};
static const field changes_fields[] = {
    {"objects", T_OBJ, &object_deltas, 0, 2}, {"triggers", T_OBJ, &triggers, 0, 2},
    {"refs", T_OBJ, &refs, 0, 2}, {"players", T_OBJ, &players, 0, 2}, {"visible", T_OBJ, &sight_changes, 0, 2}};
static const shape observation_shape = SHAPE(observation_fields);
static const shape delta_shape = SHAPE(delta_fields);
static const shape changes_shape = SHAPE(changes_fields);

/* ---- step results (PROTOCOL.md 7.3, 11) ---- */

static const field event_fields[] = {{"handle", T_STR, NULL, 1, 1}, {"outcome", T_STR, NULL, 1, 1}};
static const shape event_shape = SHAPE(event_fields);
static const shape events = {.items = T_OBJ, .item = &event_shape};
#define RESULT                                                                          \
  {"outcome", T_STR, NULL, 1, 1}, {"error", T_STR | T_NULL, NULL, 0, 1},                \
      {"events", T_ARR, &events, 0, 1}
static const field result_fields[] = {RESULT};
static const shape result_shape = SHAPE(result_fields);
static const shape results = {.items = T_OBJ, .item = &result_shape};
static const shape observations = {.items = T_OBJ, .item = &observation_shape};
static const shape deltas = {.items = T_OBJ, .item = &delta_shape};
static const shape changes = {.items = T_OBJ, .item = &changes_shape};

/* ---- the answers (PROTOCOL.md 5, 7) ---- */

#define ENVELOPE {"id", T_INT, NULL, 1, 1}, {"ok", T_BOOL, NULL, 1, 1}

static const field capability_fields[] = {{"players", T_ARR, &ints, 0, 2},
                                          {"zones", T_ARR, &strings, 0, 2},
                                          {"objects", T_ARR, &strings, 0, 2},
                                          {"face_down", T_ARR, &strings, 0, 2}};
static const shape capability_shape = SHAPE(capability_fields);
static const field hello_fields[] = {ENVELOPE,
                                     {"protocol", T_STR, NULL, 0, 1},
                                     {"engine", T_STR, NULL, 1, 1},
                                     {"version", T_STR, NULL, 1, 1},
                                     {"rulesets", T_ARR, &strings, 1, 1},
                                     {"features", T_ARR, &strings, 1, 1},
                                     {"capabilities", T_OBJ, &capability_shape, 0, 2}};
static const field plain_fields[] = {ENVELOPE};
static const field step_fields[] = {ENVELOPE, RESULT};
static const field observe_fields[] = {ENVELOPE, OBSERVATION(1)};
static const field run_each_fields[] = {ENVELOPE, {"results", T_ARR, &results, 1, 1},
                                        {"observations", T_ARR, &observations, 1, 1}};
static const field run_delta_fields[] = {ENVELOPE, {"results", T_ARR, &results, 1, 1},
                                         {"observations", T_ARR, &deltas, 1, 2}};
static const field run_changes_fields[] = {ENVELOPE, {"results", T_ARR, &results, 1, 1},
                                           {"observations", T_ARR, &changes, 1, 2}};
static const field error_body_fields[] = {{"code", T_STR, NULL, 1, 1}, {"message", T_STR, NULL, 1, 1}};
static const shape error_body = SHAPE(error_body_fields);
static const field error_fields[] = {{"id", T_INT | T_NULL, NULL, 1, 1},
                                     {"ok", T_BOOL, NULL, 1, 1},
                                     {"error", T_OBJ, &error_body, 1, 1}};

static const shape answers[ZCP_ANSWER_COUNT] = {
    [ZCP_ANSWER_HELLO] = SHAPE(hello_fields),       [ZCP_ANSWER_PLAIN] = SHAPE(plain_fields),
    [ZCP_ANSWER_STEP] = SHAPE(step_fields),         [ZCP_ANSWER_OBSERVE] = SHAPE(observe_fields),
    [ZCP_ANSWER_RUN_EACH] = SHAPE(run_each_fields), [ZCP_ANSWER_RUN_DELTA] = SHAPE(run_delta_fields),
    [ZCP_ANSWER_RUN_CHANGES] = SHAPE(run_changes_fields)};
static const shape error_shape = SHAPE(error_fields);

/* ---- the check ---- */

/* The types bit of JSON value v. */
static unsigned type_of(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_NULL: return T_NULL;
  case JSON_TRUE: case JSON_FALSE: return T_BOOL;
  case JSON_INTEGER: return T_INT;
  case JSON_STRING: return T_STR;
  case JSON_ARRAY: return T_ARR;
  case JSON_OBJECT: return T_OBJ;
  default: return 0; /* a real number: no field of the protocol is one */
  }
}

/* "a boolean", "an integer or null"... for the types in t. */
static void types_text(unsigned t, char *buf, size_t n) {
  static const char *const words[] = {"null", "a boolean", "an integer", "a string", "an array", "an object"};
  buf[0] = 0;
  int first = 1;
  for (int i = 0; i < 6; i++)
    if (t >> i & 1u) {
      size_t at = strlen(buf);
      snprintf(buf + at, n - at, "%s%s", first ? "" : " or ", words[i]);
      first = 0;
    }
}

/* The path so far: "$" then ".name" or "[i]" per level, cut at its end. */
typedef struct {
  char p[160];
  size_t n;
} path;

/* Append ".key" (key not NULL) or "[index]" to pt, cut at its end; the
 * length before, for path_pop. */
static size_t path_push(path *pt, const char *key, size_t index) {
  size_t start = pt->n, at = start, room = sizeof pt->p - 1 - start;
  char num[24], *d = num + sizeof num;
  const char *add = key;
  size_t len;
  if (key) { /* every value of an answer passes here: no printf */
    len = strlen(key);
    if (room) {
      pt->p[at++] = '.';
      room--;
    }
  } else {
    *--d = ']';
    do *--d = (char)('0' + index % 10); while ((index /= 10) != 0);
    *--d = '[';
    add = d;
    len = (size_t)(num + sizeof num - d);
  }
  if (len > room) len = room;
  memcpy(pt->p + at, add, len);
  pt->n = at + len;
  pt->p[pt->n] = 0;
  return start;
}

static void path_pop(path *pt, size_t at) {
  pt->n = at;
  pt->p[at] = 0;
}

static int check(const json_t *v, const shape *s, int protocol, path *pt, char *why, size_t n);

/* A value v of types t (its shape `of`, may be NULL) at pt. */
static int check_value(const json_t *v, unsigned t, const shape *of, int protocol, path *pt, char *why,
                       size_t n) {
  if (!(type_of(v) & t)) {
    char want[80];
    types_text(t, want, sizeof want);
    snprintf(why, n, "%s must be %s", pt->p, want);
    return -1;
  }
  return of && (json_is_object(v) || json_is_array(v)) ? check(v, of, protocol, pt, why, n) : 0;
}

/* v (an object or array) against s. */
static int check(const json_t *v, const shape *s, int protocol, path *pt, char *why, size_t n) {
  if (json_is_array(v)) {
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x) {
      size_t at = path_push(pt, NULL, i);
      int bad = s->items && check_value(x, s->items, s->item, protocol, pt, why, n);
      path_pop(pt, at);
      if (bad) return -1;
    }
    return 0;
  }
  const char *key;
  json_t *x;
  if (s->each) { /* a map: any key, each member one shape */
    json_object_foreach((json_t *)v, key, x) {
      size_t at = path_push(pt, key, 0);
      int bad = check_value(x, s->each->items ? T_ARR : T_OBJ, s->each, protocol, pt, why, n);
      path_pop(pt, at);
      if (bad) return -1;
    }
    return 0;
  }
  /* a required field left out first: the most telling (a step answer
     without an outcome), naming a key written in another case */
  for (int i = 0; i < s->nfields && !s->partial; i++)
    if (s->fields[i].required && s->fields[i].since <= protocol && !json_object_get(v, s->fields[i].name)) {
      const char *like = NULL;
      json_object_foreach((json_t *)v, key, x) if (!strcasecmp(key, s->fields[i].name)) like = key;
      char shown[64] = "";
      if (like) zcp_text_set(shown, sizeof shown, like);
      snprintf(why, n, "%s has no field \"%s\", which is required%s%s%s", pt->p, s->fields[i].name,
               like ? " (it has \"" : "", shown, like ? "\")" : "");
      return -1;
    }
  json_object_foreach((json_t *)v, key, x) {
    const field *f = NULL;
    for (int i = 0; i < s->nfields && !f; i++)
      if (!strcmp(s->fields[i].name, key) && s->fields[i].since <= protocol) f = &s->fields[i];
    if (!f) {
      char shown[64];
      zcp_text_set(shown, sizeof shown, key);
      snprintf(why, n, "%s has a field \"%s\" that zcp/%d does not define", pt->p, shown, protocol);
      return -1;
    }
    size_t at = path_push(pt, key, 0);
    int bad = check_value(x, f->types, f->of, protocol, pt, why, n);
    path_pop(pt, at);
    if (bad) return -1;
  }
  return 0;
}

int zcp_shape_check(const json_t *answer, zcp_answer kind, int protocol, char *why, size_t n) {
  path pt = {"$", 1};
  const shape *s = json_is_false(json_object_get(answer, "ok")) ? &error_shape : &answers[kind];
  return check(answer, s, protocol, &pt, why, n);
}
