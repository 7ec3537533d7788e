/* engines/zcp_json.c: observations, step results and steps in zcp/1's JSON
 * (zcp_json.h), written by the server and read by the client over the one
 * table of words below. A word changed here changes both sides. */
#include "zcp_json.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcp_int.h"
#include "util.h"

/* The protocol's words for observations and results: keys, then the
 * values a field takes. */
enum {
  W_OBJECTS, W_TRIGGERS, W_REFS, W_PLAYERS, W_VISIBLE,              /* an observation */
  W_EXISTS, W_ZONE, W_OBJECT, W_POSITION, W_LAYER, W_VISIBILITY,   /* an object */
  W_FACE, W_CONTROLLER, W_OWNER, W_MARKS, W_UNDER, W_PHASED_OUT, W_CAME_FROM,
  W_FIRED, W_FOUND, W_HANDLE, W_LOST,                               /* triggers, refs, players */
  W_OUTCOME, W_ERROR, W_EVENTS,                                     /* a step's result */
  W_PUBLIC, W_PRIVATE, W_UP, W_DOWN,                                /* values */
  W_ATTACHED_TO, W_ATTACHED_TO_PLAYER,                              /* attachments */
  W_COUNT
};

static const char *const words[W_COUNT] = {
    [W_OBJECTS] = "objects",   [W_TRIGGERS] = "triggers",     [W_REFS] = "refs",
    [W_PLAYERS] = "players",   [W_VISIBLE] = "visible",       [W_EXISTS] = "exists",
    [W_ZONE] = "zone",         [W_OBJECT] = "object",         [W_POSITION] = "position",
    [W_LAYER] = "layer",       [W_VISIBILITY] = "visibility", [W_FACE] = "face",
    [W_CONTROLLER] = "controller", [W_OWNER] = "owner",       [W_MARKS] = "marks",
    [W_UNDER] = "under",       [W_PHASED_OUT] = "phased_out", [W_CAME_FROM] = "came_from",
    [W_FIRED] = "fired",       [W_FOUND] = "found",           [W_HANDLE] = "handle",
    [W_LOST] = "lost",         [W_OUTCOME] = "outcome",       [W_ERROR] = "error",
    [W_EVENTS] = "events",     [W_PUBLIC] = "public",         [W_PRIVATE] = "private",
    [W_UP] = "up",             [W_DOWN] = "down",
    [W_ATTACHED_TO] = "attached_to", [W_ATTACHED_TO_PLAYER] = "attached_to_player"};

/* Field w of object x. */
static json_t *field(const json_t *x, int w) { return json_object_get(x, words[w]); }

/* ---- protocol lines ----------------------------------------------------------- */

/* json_dump_callback's sink: appended to a zo_zcp_line. */
static int line_put(const char *buf, size_t size, void *data) {
  zo_zcp_line *line = data;
  if (line->n + size + 1 > line->cap) {
    line->cap = 2 * (line->n + size) + 256;
    line->p = zo_xrealloc(line->p, line->cap);
  }
  memcpy(line->p + line->n, buf, size);
  line->n += size;
  return 0;
}

int zo_zcp_line_write(zo_zcp_line *line, const json_t *j) {
  line->n = 0;
  if (json_dump_callback(j, line_put, line, JSON_COMPACT | JSON_PRESERVE_ORDER)) {
    line->n = 0;
    return -1;
  }
  line_put("\n", 1, line);
  return 0;
}

/* ---- writing ---------------------------------------------------------------- */

/* Every name written here is a case's (a handle, a player, a mark, a zone
 * built of them) or one of the words above, and a case is read from UTF-8
 * text (libyaml and jansson check it), so the writers skip jansson's
 * UTF-8 checks (the _nocheck calls): serve writes these for every step. */

/* Player p's name, or null when none (-1 or out of range). */
static json_t *player_json(const zo_case *c, int p) {
  return p >= 0 && p < c->nplayers ? json_string_nocheck(c->players[p]) : json_null();
}

/* Handle h's name, or null when none (-1). */
static json_t *handle_json(const zo_case *c, int h) {
  return h >= 0 ? json_string_nocheck(c->handles[h]) : json_null();
}

/* The marks of o as a list of their names. */
static json_t *marks_json(const zo_case *c, const zo_obj_obs *o) {
  json_t *marks = json_array();
  for (int m = 0; m < o->nmarks; m++) json_array_append_new(marks, json_string_nocheck(c->marknames[o->marks[m]]));
  return marks;
}

/* One object's properties, in the protocol's order. compact (zcp/2): the
 * fields at their default (PROTOCOL.md, "Defaults") left out; exists,
 * zone, object, visibility and owner are always there. attached_to is
 * written only while attached, so that an observation without attachments
 * is what it was before the feature; attached_to_player likewise, only
 * while an Aura is attached to a player, which only a step of feature
 * attach_player does, so no engine without it is sent the field. */
static json_t *object_json(const zo_case *c, const zo_obj_obs *o, int compact) {
  json_t *x = json_object();
  json_object_set_new_nocheck(x, words[W_EXISTS], json_boolean(o->exists));
  json_object_set_new_nocheck(x, words[W_ZONE], json_string_nocheck(o->zone));
  json_object_set_new_nocheck(x, words[W_OBJECT], json_integer((json_int_t)o->object));
  if (!compact || o->position >= 0)
    json_object_set_new_nocheck(x, words[W_POSITION], o->position >= 0 ? json_integer(o->position) : json_null());
  if (!compact || o->layer >= 0)
    json_object_set_new_nocheck(x, words[W_LAYER], o->layer >= 0 ? json_integer(o->layer) : json_null());
  json_object_set_new_nocheck(x, words[W_VISIBILITY], json_string_nocheck(words[o->visibility ? W_PUBLIC : W_PRIVATE]));
  if (!compact || o->face_down) json_object_set_new_nocheck(x, words[W_FACE], json_string_nocheck(words[o->face_down ? W_DOWN : W_UP]));
  if (!compact || o->controller >= 0) json_object_set_new_nocheck(x, words[W_CONTROLLER], player_json(c, o->controller));
  json_object_set_new_nocheck(x, words[W_OWNER], player_json(c, o->owner));
  if (!compact || o->nmarks) json_object_set_new_nocheck(x, words[W_MARKS], marks_json(c, o));
  if (!compact || o->under >= 0) json_object_set_new_nocheck(x, words[W_UNDER], handle_json(c, o->under));
  if (!compact || o->phased_out) json_object_set_new_nocheck(x, words[W_PHASED_OUT], json_boolean(o->phased_out));
  if (!compact || o->came_from[0])
    json_object_set_new_nocheck(x, words[W_CAME_FROM], o->came_from[0] ? json_string_nocheck(o->came_from) : json_null());
  if (o->attached_to >= 0) json_object_set_new_nocheck(x, words[W_ATTACHED_TO], handle_json(c, o->attached_to));
  if (o->attached_player >= 0)
    json_object_set_new_nocheck(x, words[W_ATTACHED_TO_PLAYER], player_json(c, o->attached_player));
  return x;
}

/* Has handle h of c no object yet (a `create` step's, not executed)?
 * Such a handle is left out of an observation. */
static int not_created(const zo_case *c, const zo_obj_obs *o, int h) {
  return h >= c->nsetup && !o->exists && o->object == 0;
}

/* Trigger t of ob, whole: {fired, found, controller}. */
static json_t *trigger_json(const zo_case *c, const zo_observation *ob, int t) {
  return json_pack("{s:b, s:o, s:o}", words[W_FIRED], ob->trig_fired[t], words[W_FOUND],
                   ob->trig_found[t] < 0 ? json_null() : json_boolean(ob->trig_found[t]),
                   words[W_CONTROLLER], player_json(c, ob->trig_controller[t]));
}

/* Reference r of ob, whole: {found, handle}. */
static json_t *ref_json(const zo_case *c, const zo_observation *ob, int r) {
  return json_pack("{s:b, s:o}", words[W_FOUND], ob->ref_found[r], words[W_HANDLE],
                   handle_json(c, ob->ref_found[r] ? ob->ref_handle[r] : -1));
}

/* Player p of ob: {lost}. */
static json_t *player_obs_json(const zo_observation *ob, int p) {
  return json_pack("{s:b}", words[W_LOST], ob->lost[p]);
}

/* The handles player p sees in ob, as a list. */
static json_t *sight_json(const zo_case *c, const zo_observation *ob, int p) {
  json_t *sees = json_array();
  for (int h = 0; h < ob->nhandles; h++)
    if (ob->sees[p * ob->nhandles + h]) json_array_append_new(sees, json_string_nocheck(c->handles[h]));
  return sees;
}

json_t *zo_zcp_observation_json(const zo_case *c, const zo_observation *ob, int compact) {
  json_t *objs = json_object();
  for (int h = 0; h < ob->nhandles; h++) {
    const zo_obj_obs *o = &ob->objs[h];
    if (not_created(c, o, h)) continue;
    json_object_set_new_nocheck(objs, c->handles[h], object_json(c, o, compact));
  }
  json_t *trig = json_object();
  for (int t = 0; t < ob->ntriggers; t++) json_object_set_new_nocheck(trig, c->triggers[t], trigger_json(c, ob, t));
  json_t *refs = json_object();
  for (int r = 0; r < ob->nrefs; r++) json_object_set_new_nocheck(refs, c->refs[r], ref_json(c, ob, r));
  json_t *players = json_object(), *visible = json_object();
  for (int p = 0; p < ob->nplayers; p++) {
    json_object_set_new_nocheck(players, c->players[p], player_obs_json(ob, p));
    json_object_set_new_nocheck(visible, c->players[p], sight_json(c, ob, p));
  }
  return json_pack("{s:o, s:o, s:o, s:o, s:o}", words[W_OBJECTS], objs, words[W_TRIGGERS], trig,
                   words[W_REFS], refs, words[W_PLAYERS], players, words[W_VISIBLE], visible);
}

/* The fields of object o that differ from a, in the protocol's order (an
 * empty object when none does). */
static json_t *object_delta_json(const zo_case *c, const zo_obj_obs *a, const zo_obj_obs *o) {
  json_t *x = json_object();
  if (a->exists != o->exists) json_object_set_new_nocheck(x, words[W_EXISTS], json_boolean(o->exists));
  if (strcmp(a->zone, o->zone)) json_object_set_new_nocheck(x, words[W_ZONE], json_string_nocheck(o->zone));
  if (a->object != o->object) json_object_set_new_nocheck(x, words[W_OBJECT], json_integer((json_int_t)o->object));
  if (a->position != o->position)
    json_object_set_new_nocheck(x, words[W_POSITION], o->position >= 0 ? json_integer(o->position) : json_null());
  if (a->layer != o->layer)
    json_object_set_new_nocheck(x, words[W_LAYER], o->layer >= 0 ? json_integer(o->layer) : json_null());
  if (a->visibility != o->visibility)
    json_object_set_new_nocheck(x, words[W_VISIBILITY], json_string_nocheck(words[o->visibility ? W_PUBLIC : W_PRIVATE]));
  if (a->face_down != o->face_down)
    json_object_set_new_nocheck(x, words[W_FACE], json_string_nocheck(words[o->face_down ? W_DOWN : W_UP]));
  if (a->controller != o->controller) json_object_set_new_nocheck(x, words[W_CONTROLLER], player_json(c, o->controller));
  if (a->owner != o->owner) json_object_set_new_nocheck(x, words[W_OWNER], player_json(c, o->owner));
  int marks = a->nmarks != o->nmarks;
  for (int m = 0; !marks && m < o->nmarks; m++) marks = a->marks[m] != o->marks[m];
  if (marks) json_object_set_new_nocheck(x, words[W_MARKS], marks_json(c, o));
  if (a->under != o->under) json_object_set_new_nocheck(x, words[W_UNDER], handle_json(c, o->under));
  if (a->phased_out != o->phased_out) json_object_set_new_nocheck(x, words[W_PHASED_OUT], json_boolean(o->phased_out));
  if (a->attached_to != o->attached_to) json_object_set_new_nocheck(x, words[W_ATTACHED_TO], handle_json(c, o->attached_to));
  if (a->attached_player != o->attached_player)
    json_object_set_new_nocheck(x, words[W_ATTACHED_TO_PLAYER], player_json(c, o->attached_player));
  if (strcmp(a->came_from, o->came_from))
    json_object_set_new_nocheck(x, words[W_CAME_FROM], o->came_from[0] ? json_string_nocheck(o->came_from) : json_null());
  return x;
}

/* Whether two observations of one object say the same. */
static int same_object(const zo_obj_obs *a, const zo_obj_obs *b) {
  if (a->exists != b->exists || a->object != b->object || a->position != b->position ||
      a->layer != b->layer || a->visibility != b->visibility || a->face_down != b->face_down ||
      a->controller != b->controller || a->owner != b->owner || a->under != b->under ||
      a->phased_out != b->phased_out || a->attached_to != b->attached_to || a->attached_player != b->attached_player ||
      a->nmarks != b->nmarks ||
      strcmp(a->zone, b->zone) ||
      strcmp(a->came_from, b->came_from))
    return 0;
  for (int m = 0; m < a->nmarks; m++)
    if (a->marks[m] != b->marks[m]) return 0;
  return 1;
}

/* Whether player p sees the same handles in a and b (b may know more
 * handles than a: a new one seen differs). */
static int same_sight(const zo_observation *a, const zo_observation *b, int p) {
  for (int h = 0; h < b->nhandles; h++) {
    int was = h < a->nhandles ? a->sees[p * a->nhandles + h] : 0;
    if (was != b->sees[p * b->nhandles + h]) return 0;
  }
  return 1;
}

/* Player p's visible list as changes from a: {"add": [...], "remove":
 * [...]}, each left out when empty (visible_changes). */
static json_t *sight_changes_json(const zo_case *c, const zo_observation *a, const zo_observation *b, int p) {
  json_t *add = json_array(), *remove = json_array();
  for (int h = 0; h < b->nhandles; h++) {
    int was = h < a->nhandles ? a->sees[p * a->nhandles + h] : 0, now = b->sees[p * b->nhandles + h];
    if (was != now) json_array_append_new(now ? add : remove, json_string_nocheck(c->handles[h]));
  }
  json_t *x = json_object();
  if (json_array_size(add)) json_object_set_new_nocheck(x, "add", add);
  else json_decref(add);
  if (json_array_size(remove)) json_object_set_new_nocheck(x, "remove", remove);
  else json_decref(remove);
  return x;
}

json_t *zo_zcp_observation_delta_json(const zo_case *c, const zo_observation *prev,
                                      const zo_observation *ob, int compact, int sight_changes) {
  if (!prev || prev->nplayers != ob->nplayers) return zo_zcp_observation_json(c, ob, compact);
  json_t *objs = json_object();
  for (int h = 0; h < ob->nhandles; h++) {
    const zo_obj_obs *o = &ob->objs[h];
    if (not_created(c, o, h)) continue;
    if (h >= prev->nhandles || not_created(c, &prev->objs[h], h))
      json_object_set_new_nocheck(objs, c->handles[h], object_json(c, o, compact)); /* new: whole */
    else if (!same_object(&prev->objs[h], o))
      json_object_set_new_nocheck(objs, c->handles[h], object_delta_json(c, &prev->objs[h], o));
  }
  json_t *trig = json_object();
  for (int t = 0; t < ob->ntriggers; t++) {
    if (t < prev->ntriggers && prev->trig_fired[t] == ob->trig_fired[t] &&
        prev->trig_found[t] == ob->trig_found[t] && prev->trig_controller[t] == ob->trig_controller[t])
      continue;
    json_object_set_new_nocheck(trig, c->triggers[t], trigger_json(c, ob, t));
  }
  json_t *refs = json_object();
  for (int r = 0; r < ob->nrefs; r++) {
    if (r < prev->nrefs && prev->ref_found[r] == ob->ref_found[r] && prev->ref_handle[r] == ob->ref_handle[r])
      continue;
    json_object_set_new_nocheck(refs, c->refs[r], ref_json(c, ob, r));
  }
  json_t *players = json_object(), *visible = json_object();
  for (int p = 0; p < ob->nplayers; p++) {
    if (prev->lost[p] != ob->lost[p])
      json_object_set_new_nocheck(players, c->players[p], player_obs_json(ob, p));
    if (!same_sight(prev, ob, p))
      json_object_set_new_nocheck(visible, c->players[p],
                                  sight_changes ? sight_changes_json(c, prev, ob, p) : sight_json(c, ob, p));
  }
  /* objects: always in zcp/1's deltas; left out when empty in compact ones */
  json_t *x = json_object();
  if (!compact || json_object_size(objs)) json_object_set_new_nocheck(x, words[W_OBJECTS], objs);
  else json_decref(objs);
  json_t *parts[] = {trig, refs, players, visible};
  int keys[] = {W_TRIGGERS, W_REFS, W_PLAYERS, W_VISIBLE};
  for (int i = 0; i < 4; i++) {
    if (json_object_size(parts[i])) json_object_set_new_nocheck(x, words[keys[i]], parts[i]);
    else json_decref(parts[i]);
  }
  return x;
}

json_t *zo_zcp_result_json(const zo_case *c, const zo_step_result *r, int compact) {
  json_t *x = json_object();
  json_object_set_new_nocheck(x, words[W_OUTCOME], json_string_nocheck(zo_outcome_name(r->outcome)));
  if (!compact || r->error)
    json_object_set_new_nocheck(x, words[W_ERROR], r->error ? json_string_nocheck(zo_step_error_name(r->error)) : json_null());
  if (compact && !r->nevents) return x;
  json_t *ev = json_array();
  for (int i = 0; i < r->nevents; i++) {
    json_t *e = json_object();
    json_object_set_new_nocheck(e, words[W_HANDLE], json_string_nocheck(c->handles[r->events[i].handle]));
    json_object_set_new_nocheck(e, words[W_OUTCOME], json_string_nocheck(zo_outcome_name(r->events[i].outcome)));
    json_array_append_new(ev, e);
  }
  json_object_set_new_nocheck(x, words[W_EVENTS], ev);
  return x;
}

/* ---- reading ---------------------------------------------------------------- */

/* bsearch/qsort order of names: by name. */
static int cmp_name(const void *a, const void *b) {
  return strcmp(((const struct zo_zcp_name *)a)->name, ((const struct zo_zcp_name *)b)->name);
}

void zo_zcp_names_forget(zo_zcp_names *names) { names->of = NULL; }

void zo_zcp_names_free(zo_zcp_names *names) {
  free(names->sorted);
  memset(names, 0, sizeof *names);
}

/* The handle of c named name, or -1 (name NULL or unknown). O(1) for the
 * handle after the last one found (a list in the case's order), else
 * O(log n): the names are sorted once per case. */
static int handle_of(zo_zcp_names *names, const zo_case *c, const char *name) {
  if (!name) return -1;
  if (names->of != c || names->n != c->nhandles) {
    names->sorted = zo_xrealloc(names->sorted, ((size_t)c->nhandles + 1) * sizeof *names->sorted);
    for (int i = 0; i < c->nhandles; i++) names->sorted[i] = (struct zo_zcp_name){c->handles[i], i};
    if (c->nhandles > 1) qsort(names->sorted, (size_t)c->nhandles, sizeof *names->sorted, cmp_name);
    names->n = c->nhandles;
    names->of = c;
    names->next = 0;
  }
  int h = names->next < c->nhandles ? names->next : 0;
  if (h < c->nhandles && !strcmp(c->handles[h], name)) {
    names->next = h + 1;
    return h;
  }
  struct zo_zcp_name key = {name, -1};
  const struct zo_zcp_name *k =
      names->n ? bsearch(&key, names->sorted, (size_t)names->n, sizeof *names->sorted, cmp_name) : NULL;
  if (!k) return -1;
  names->next = k->handle + 1;
  return k->handle;
}

/* The player of c named name, or -1. */
static int player_of(const zo_case *c, const char *name) {
  for (int i = 0; name && i < c->nplayers; i++)
    if (!strcmp(c->players[i], name)) return i;
  return -1;
}

/* The string value of field w of x, or dflt. */
static const char *text_of(const json_t *x, int w, const char *dflt) {
  const char *s = json_string_value(field(x, w));
  return s ? s : dflt;
}

zo_status zo_zcp_result_read(zo_zcp_names *names, const zo_case *c, const json_t *res,
                             zo_step_result *r, const char *who, zo_error *err) {
  const char *o = text_of(res, W_OUTCOME, NULL);
  if (!o)
    return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, who,
                     "the step answer has no outcome (is it the answer to another request?)");
  int oc = zo_outcome_parse(o);
  r->outcome = oc > 0 ? (zo_outcome)oc : ZO_OUTCOME_NONE;
  const char *e = text_of(res, W_ERROR, NULL);
  int ec = e ? zo_step_error_parse(e) : 0;
  r->error = ec > 0 ? (zo_step_error)ec : ZO_E_NONE;
  size_t i;
  json_t *ev;
  json_array_foreach(field(res, W_EVENTS), i, ev) {
    int h = handle_of(names, c, text_of(ev, W_HANDLE, NULL));
    const char *eo = text_of(ev, W_OUTCOME, NULL);
    int k = eo ? zo_outcome_parse(eo) : -1;
    if (h < 0 || k <= 0) continue;
    if (r->nevents == r->capevents) {
      r->capevents = r->capevents ? r->capevents * 2 : 8;
      r->events = zo_xrealloc(r->events, (size_t)r->capevents * sizeof *r->events);
    }
    r->events[r->nevents].handle = h;
    r->events[r->nevents++].outcome = (zo_outcome)k;
  }
  return ZO_OK;
}

/* An identity token: a number at its full width, or a string hashed
 * (compared only for equality, ci/protocol/PROTOCOL.md). */
static uint64_t identity(const json_t *v) {
  if (json_is_integer(v)) return (uint64_t)json_integer_value(v) + 1;
  const char *s = json_string_value(v);
  uint64_t h = 1469598103934665603ULL;
  for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

/* Integer field w of object `handle` that the model holds in an int: null
 * (or absent, or not an integer: the schema's business, --validate) is
 * -1; an integer from lo to INT_MAX is itself; any other integer is
 * refused at its full width. ZO_OK with *to set, or ZO_ERR_ENGINE (kind
 * error, naming the field and the value). */
static zo_status read_int(const json_t *x, const char *handle, int w, int lo, int *to, const char *who,
                          zo_error *err) {
  json_t *v = field(x, w);
  *to = -1;
  if (!json_is_integer(v)) return ZO_OK;
  json_int_t n = json_integer_value(v);
  if (n < lo || n > INT_MAX) {
    char h[100];
    zcp_text_set(h, sizeof h, handle);
    return zcp_faultf(err, ZO_ENGINE_FAULT_ERROR, who, "the observation of %s has %s %lld, outside %d..%d", h,
                      words[w], (long long)n, lo, INT_MAX);
  }
  *to = (int)n;
  return ZO_OK;
}

/* The fields x names of object h (a delta) applied to o; what x does not
 * name stays. ZO_OK, or ZO_ERR_ENGINE as read_int. */
static zo_status read_object_fields(zo_zcp_names *names, const zo_case *c, int h, const json_t *x,
                                    zo_obj_obs *o, const char *who, zo_error *err) {
  json_t *v;
  if ((v = field(x, W_EXISTS))) o->exists = json_is_true(v);
  if ((v = field(x, W_ZONE))) snprintf(o->zone, sizeof o->zone, "%s", json_string_value(v) ? json_string_value(v) : "");
  if ((v = field(x, W_OBJECT))) o->object = identity(v);
  if (field(x, W_POSITION) && read_int(x, c->handles[h], W_POSITION, 0, &o->position, who, err)) return ZO_ERR_ENGINE;
  if (field(x, W_LAYER) && read_int(x, c->handles[h], W_LAYER, 1, &o->layer, who, err)) return ZO_ERR_ENGINE;
  if ((v = field(x, W_VISIBILITY))) o->visibility = json_string_value(v) && !strcmp(json_string_value(v), words[W_PUBLIC]);
  if ((v = field(x, W_FACE))) o->face_down = json_string_value(v) && !strcmp(json_string_value(v), words[W_DOWN]);
  if ((v = field(x, W_CONTROLLER))) o->controller = player_of(c, json_string_value(v));
  if ((v = field(x, W_OWNER))) o->owner = player_of(c, json_string_value(v));
  if ((v = field(x, W_UNDER))) o->under = handle_of(names, c, json_string_value(v));
  if ((v = field(x, W_PHASED_OUT))) o->phased_out = json_is_true(v);
  if ((v = field(x, W_ATTACHED_TO))) o->attached_to = handle_of(names, c, json_string_value(v));
  if ((v = field(x, W_ATTACHED_TO_PLAYER))) o->attached_player = player_of(c, json_string_value(v));
  if ((v = field(x, W_CAME_FROM)))
    snprintf(o->came_from, sizeof o->came_from, "%s", json_string_value(v) ? json_string_value(v) : "");
  if ((v = field(x, W_MARKS))) {
    o->nmarks = 0;
    size_t i;
    json_t *m;
    json_array_foreach(v, i, m) {
      for (int k = 0; k < c->nmarknames && o->nmarks < ZO_MAX_MARKS_PER_OBJ; k++)
        if (json_string_value(m) && !strcmp(c->marknames[k], json_string_value(m))) o->marks[o->nmarks++] = k;
    }
  }
  return ZO_OK;
}

/* Object h of an observation from its JSON x (an object, or anything
 * else: absent). ZO_OK, or ZO_ERR_ENGINE as read_int. */
static zo_status read_object(zo_zcp_names *names, const zo_case *c, int h, const json_t *x, zo_obj_obs *o,
                             const char *who, zo_error *err) {
  o->position = o->layer = o->controller = o->owner = o->under = o->attached_to = -1;
  o->attached_player = -1;
  if (!json_is_object(x)) return ZO_OK;
  o->exists = json_is_true(field(x, W_EXISTS));
  snprintf(o->zone, sizeof o->zone, "%s", text_of(x, W_ZONE, ""));
  o->object = identity(field(x, W_OBJECT));
  if (read_int(x, c->handles[h], W_POSITION, 0, &o->position, who, err) ||
      read_int(x, c->handles[h], W_LAYER, 1, &o->layer, who, err))
    return ZO_ERR_ENGINE;
  const char *vis = text_of(x, W_VISIBILITY, NULL);
  o->visibility = vis && !strcmp(vis, words[W_PUBLIC]);
  const char *face = text_of(x, W_FACE, NULL);
  o->face_down = face && !strcmp(face, words[W_DOWN]);
  o->controller = player_of(c, text_of(x, W_CONTROLLER, NULL));
  o->owner = player_of(c, text_of(x, W_OWNER, NULL));
  o->under = handle_of(names, c, text_of(x, W_UNDER, NULL));
  o->attached_to = handle_of(names, c, text_of(x, W_ATTACHED_TO, NULL)); /* absent: null */
  o->attached_player = player_of(c, text_of(x, W_ATTACHED_TO_PLAYER, NULL)); /* absent: null */
  o->phased_out = json_is_true(field(x, W_PHASED_OUT));
  snprintf(o->came_from, sizeof o->came_from, "%s", text_of(x, W_CAME_FROM, ""));
  size_t i;
  json_t *m;
  json_array_foreach(field(x, W_MARKS), i, m) {
    for (int k = 0; k < c->nmarknames && o->nmarks < ZO_MAX_MARKS_PER_OBJ; k++)
      if (json_string_value(m) && !strcmp(c->marknames[k], json_string_value(m))) o->marks[o->nmarks++] = k;
  }
  return ZO_OK;
}

/* ob's arrays sized for case c, zeroed. */
static void observation_alloc(const zo_case *c, zo_observation *ob) {
  ob->nhandles = c->nhandles;
  ob->objs = zo_xcalloc((size_t)c->nhandles + 1, sizeof *ob->objs);
  ob->ntriggers = c->ntriggers;
  ob->trig_fired = zo_xcalloc((size_t)c->ntriggers + 1, sizeof(int));
  ob->trig_found = zo_xcalloc((size_t)c->ntriggers + 1, sizeof(int));
  ob->trig_controller = zo_xcalloc((size_t)c->ntriggers + 1, sizeof(int));
  ob->nrefs = c->nrefs;
  ob->ref_found = zo_xcalloc((size_t)c->nrefs + 1, sizeof(int));
  ob->ref_handle = zo_xcalloc((size_t)c->nrefs + 1, sizeof(int));
  ob->nplayers = c->nplayers;
  ob->sees = zo_xcalloc((size_t)(c->nplayers * c->nhandles) + 1, 1);
}

zo_status zo_zcp_observation_read(zo_zcp_names *names, const zo_case *c, const json_t *res,
                                  zo_observation *ob, const char *who, zo_error *err) {
  observation_alloc(c, ob);
  json_t *objs = field(res, W_OBJECTS);
  if (!json_is_object(objs))
    return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, who,
                     "the observation has no objects (is it the answer to another request?)");
  for (int h = 0; h < c->nhandles; h++)
    if (read_object(names, c, h, json_object_get(objs, c->handles[h]), &ob->objs[h], who, err))
      return ZO_ERR_ENGINE;
  for (int t = 0; t < c->ntriggers; t++) {
    json_t *x = json_object_get(field(res, W_TRIGGERS), c->triggers[t]);
    ob->trig_fired[t] = json_is_true(field(x, W_FIRED));
    json_t *found = field(x, W_FOUND);
    ob->trig_found[t] = json_is_boolean(found) ? json_is_true(found) : -1;
    ob->trig_controller[t] = player_of(c, text_of(x, W_CONTROLLER, NULL));
  }
  for (int r = 0; r < c->nrefs; r++) {
    json_t *x = json_object_get(field(res, W_REFS), c->refs[r]);
    ob->ref_found[r] = json_is_true(field(x, W_FOUND));
    ob->ref_handle[r] = handle_of(names, c, text_of(x, W_HANDLE, NULL));
  }
  for (int pl = 0; pl < c->nplayers; pl++) {
    ob->lost[pl] = json_is_true(field(json_object_get(field(res, W_PLAYERS), c->players[pl]), W_LOST));
    size_t i;
    json_t *h;
    json_array_foreach(json_object_get(field(res, W_VISIBLE), c->players[pl]), i, h) {
      int k = handle_of(names, c, json_string_value(h));
      if (k >= 0) ob->sees[pl * c->nhandles + k] = 1;
    }
  }
  return ZO_OK;
}

zo_status zo_zcp_observation_read_delta(zo_zcp_names *names, const zo_case *c, const json_t *res,
                                        const zo_observation *prev, zo_observation *ob,
                                        const char *who, zo_error *err) {
  observation_alloc(c, ob);
  memcpy(ob->objs, prev->objs, (size_t)c->nhandles * sizeof *ob->objs);
  memcpy(ob->trig_fired, prev->trig_fired, (size_t)c->ntriggers * sizeof(int));
  memcpy(ob->trig_found, prev->trig_found, (size_t)c->ntriggers * sizeof(int));
  memcpy(ob->trig_controller, prev->trig_controller, (size_t)c->ntriggers * sizeof(int));
  memcpy(ob->ref_found, prev->ref_found, (size_t)c->nrefs * sizeof(int));
  memcpy(ob->ref_handle, prev->ref_handle, (size_t)c->nrefs * sizeof(int));
  memcpy(ob->lost, prev->lost, sizeof ob->lost);
  memcpy(ob->sees, prev->sees, (size_t)(c->nplayers * c->nhandles));
  return zo_zcp_observation_apply_delta(names, c, res, ob, NULL, NULL, who, err);
}

zo_status zo_zcp_observation_apply_delta(zo_zcp_names *names, const zo_case *c, const json_t *res,
                                         zo_observation *ob, int *changed, int *nchanged,
                                         const char *who, zo_error *err) {
  if (nchanged) *nchanged = 0;
  json_t *objs = field(res, W_OBJECTS); /* absent (zcp/2): no object changed */
  if (!json_is_object(res) || (objs && !json_is_object(objs)))
    return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, who,
                     "a delta observation is not an object, or its objects is not one");
  const char *key;
  json_t *x;
  json_object_foreach(objs, key, x) {
    int h = handle_of(names, c, key);
    if (h < 0 || !json_is_object(x)) continue;
    if (read_object_fields(names, c, h, x, &ob->objs[h], who, err)) return ZO_ERR_ENGINE;
    if (changed) changed[(*nchanged)++] = h; /* a JSON object's keys are distinct */
  }
  for (int t = 0; t < c->ntriggers; t++) {
    x = json_object_get(field(res, W_TRIGGERS), c->triggers[t]);
    if (!x) continue;
    ob->trig_fired[t] = json_is_true(field(x, W_FIRED));
    json_t *found = field(x, W_FOUND);
    ob->trig_found[t] = json_is_boolean(found) ? json_is_true(found) : -1;
    ob->trig_controller[t] = player_of(c, text_of(x, W_CONTROLLER, NULL));
  }
  for (int r = 0; r < c->nrefs; r++) {
    x = json_object_get(field(res, W_REFS), c->refs[r]);
    if (!x) continue;
    ob->ref_found[r] = json_is_true(field(x, W_FOUND));
    ob->ref_handle[r] = handle_of(names, c, text_of(x, W_HANDLE, NULL));
  }
  for (int pl = 0; pl < c->nplayers; pl++) {
    x = json_object_get(field(res, W_PLAYERS), c->players[pl]);
    if (x) ob->lost[pl] = json_is_true(field(x, W_LOST));
    json_t *list = json_object_get(field(res, W_VISIBLE), c->players[pl]);
    if (!list) continue;
    size_t i;
    json_t *h;
    if (json_is_object(list)) { /* visible: changes (the shape was checked) */
      json_array_foreach(json_object_get(list, "add"), i, h) {
        int k = handle_of(names, c, json_string_value(h));
        if (k >= 0) ob->sees[pl * c->nhandles + k] = 1;
      }
      json_array_foreach(json_object_get(list, "remove"), i, h) {
        int k = handle_of(names, c, json_string_value(h));
        if (k >= 0) ob->sees[pl * c->nhandles + k] = 0;
      }
      continue;
    }
    memset(ob->sees + pl * c->nhandles, 0, (size_t)c->nhandles);
    json_array_foreach(list, i, h) {
      int k = handle_of(names, c, json_string_value(h));
      if (k >= 0) ob->sees[pl * c->nhandles + k] = 1;
    }
  }
  return ZO_OK;
}

json_t *zo_zcp_step_json(const zo_step *s) {
  json_error_t je;
  json_t *step = json_loads(s->json ? s->json : "null", JSON_DECODE_ANY, &je);
  return step ? step : json_null();
}

/* ---- a rule set's zone types (feature ruleset_zones) --------------------- */

/* The words of type bits `bits` of rule set rs (its vocabulary and own
 * words), as a JSON list. */
static json_t *type_words(const zo_ruleset *rs, uint64_t bits) {
  json_t *a = json_array();
  for (int i = 0; i < 64; i++) {
    if (!(bits >> i & 1u)) continue;
    const char *w = i < ZO_NVOCAB ? zo_type_word(i)
                    : i - ZO_NVOCAB < rs->nxtypes ? rs->xtypes[i - ZO_NVOCAB] : NULL;
    if (w) json_array_append_new(a, json_string(w));
  }
  return a;
}

json_t *zo_zcp_ruleset_zones_json(const zo_ruleset *rs, int limits) {
  json_t *zones = json_object();
  for (int z = 0; z < rs->nzones; z++) {
    zo_zone_type *t = (zo_zone_type *)&rs->zones[z];
    json_t *o = json_object();
    json_object_set_new(o, "role", json_string(zo_zone_role_names[t->role]));
    for (int a = 0; a < ZA_COUNT; a++) {
      /* limits: and displace: only for an engine that knows them */
      /* issue 31's zone rules only for an engine that knows them (zone_rules) */
      if (!limits && zo_zone_attr_is_zone_rule((zo_zone_attr)a))
        continue;
      const zo_cited *c = zo_zone_cited(t, (zo_zone_attr)a);
      json_t *v = NULL;
      switch (zo_zone_attr_values[a]) {
      case AV_BOOL: v = json_boolean(c->value); break;
      case AV_INT: v = json_integer(c->value); break;
      case AV_VISIBILITY: v = json_string(c->value ? "public" : "hidden"); break;
      case AV_HOLDS:
        v = json_array();
        for (int b = 0; b < ZH_COUNT; b++)
          if (c->value >> b & 1) json_array_append_new(v, json_string(zo_holds_names[b]));
        break;
      case AV_EQUIP: v = type_words(rs, t->equip_types); break;
      case AV_KEEPS: v = type_words(rs, t->keep_types); break;
      case AV_TYPES: v = type_words(rs, t->only_types); break;
      case AV_LIMITS:
        v = json_array();
        for (int k = 0; k < c->value && k < ZO_MAX_LIMITS; k++)
          json_array_append_new(v, json_pack("{s:o, s:i, s:s}", "types", type_words(rs, t->limit[k].types),
                                             "count", t->limit[k].count, "among",
                                             t->limit[k].among == ZL_UNDER      ? "under"
                                             : t->limit[k].among == ZL_ATTACHED ? "attached"
                                                                                 : "zone"));
        break;
      case AV_ZONE:
      case AV_FOLLOW:
        v = c->value > 0 && c->value <= rs->nzones ? json_string(rs->zones[c->value - 1].name) : json_null();
        break;
      case AV_GROUP: v = t->group_name[0] ? json_string(t->group_name) : json_null(); break;
      case AV_MARKS:
        v = json_array();
        for (int k = 0; k < MK_COUNT; k++)
          if (c->value >> k & 1) json_array_append_new(v, json_string(zo_mark_kind_names[k]));
        break;
      case AV_FACE_UP: v = type_words(rs, t->face_up_types); break; /* issue 31 */
      case AV_SEATS: /* issue 31: the seats, 1-based; [] for every player */
        v = json_array();
        for (int i = 0; c->value && i < 8; i++)
          if (t->seat_bits >> i & 1u) json_array_append_new(v, json_integer(i + 1));
        break;
      case AV_AT_INDEX: /* issue 31: [{types, index: [1-based]}] */
        v = json_array();
        for (int k = 0; k < c->value && k < ZO_MAX_AT_INDEX; k++) {
          json_t *ix = json_array();
          for (int i = 0; i < 64; i++)
            if (t->at[k].index >> i & 1u) json_array_append_new(ix, json_integer(i + 1));
          json_array_append_new(v, json_pack("{s:o, s:o}", "types", type_words(rs, t->at[k].types), "index", ix));
        }
        break;
      case AV_WRONG_OWNER: /* issue 31: the switch's word, null for the switch's */
        v = c->value ? json_string(zo_switch_value_name(c->value)) : json_null();
        break;
      case AV_INSTEAD:
        v = json_array();
        for (int k = 0; k < c->value && k < ZO_MAX_INSTEAD; k++) {
          const zo_zone_instead *e = &t->inst[k];
          json_t *from = json_array();
          for (int f = 0; f < rs->nzones; f++)
            if (e->from >> f & 1u) json_array_append_new(from, json_string(rs->zones[f].name));
          json_array_append_new(
              v, json_pack("{s:o, s:o, s:s, s:o}", "types", type_words(rs, e->types), "from", from, "to",
                           rs->zones[e->to > 0 ? e->to - 1 : z].name, "face",
                           e->face < 0 ? json_null() : json_string(e->face ? "down" : "up")));
        }
        break;
      }
      json_object_set_new(o, zo_zone_attr_keys[a], v);
    }
    json_object_set_new(zones, t->name, o);
  }
  return zones;
}
