/* case_parse.c: case files (the case language v1, cases/README.md) ->
 * zo_case: the file's keys (id, rule sets, rules, features, players,
 * cards). Steps are case_steps.c's, expectations case_expect.c's, and the
 * names, zones and type words every part of a case is written with
 * case_fields.c's (case_read.h), below all three.
 *
 * Reads through ydoc (so aliases, tags and duplicate keys are already
 * refused) and checks everything a person can get wrong: unknown keys and
 * names (with the nearest valid one), handles used before they exist, zones
 * that no rule set of the case has, values of the wrong kind. Setting up
 * the starting position under each rule set is run/load.c's.
 *
 * Zone types are interned per case (zo_case.ztypes); the model maps them to
 * each rule set's zone indices when a game starts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "case_read.h"
#include "error.h"
#include "util.h"
#include "yjson.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- cards ---------------------------------------------------------- */

#define ROW_NAME(id, name) name,
static const char *const card_keys[CK_COUNT] = {ZO_CARD_KEYS(ROW_NAME)};
#undef ROW_NAME

/* Keys of a starting card that contradict each other whatever the rule set
 * (the rule set's own set-up checks are zo_game_new's): a sub-card (under:)
 * takes its top-card's visibility and face and has no position or controller
 * of its own (FaB 3.0.14, 3.0.14b; its zone:, if written, must be its
 * top-card's: checked at set-up); outside the game is not a zone (CR
 * 400.10), so an object there has no position and no controller (CR 109.4).
 * Refused at the first such key, naming both. */
static zo_status card_contradictions(cr_parser *p, const yd_node *k, const yd_node *v,
                                     const zo_card_setup *cs) {
  static const int sub_keys[] = {CK_POSITION, CK_CONTROLLER, CK_FACE, CK_VISIBILITY};
  static const int outside_keys[] = {CK_CONTROLLER, CK_POSITION};
  for (size_t j = 0; j < v->n; j++) {
    const yd_node *key = YD_KEY(v, j);
    int ki = yr_index(key->str, card_keys, CK_COUNT);
    for (size_t i = 0; cs->under >= 0 && i < COUNT(sub_keys); i++)
      if (ki == sub_keys[i])
        return yr_fail(&p->r, key, ZO_ERR_SCHEMA, "card '%s' is under '%s': a sub-card has no %s "
                       "of its own (it takes its top-card's visibility and face, and has no "
                       "position or controller, FaB 3.0.14): leave out %s:", k->str,
                       p->c->handles[cs->under], key->str, key->str);
    for (size_t i = 0; cs->zone.type == ZO_ZT_OUTSIDE && i < COUNT(outside_keys); i++)
      if (ki == outside_keys[i])
        return yr_fail(&p->r, key, ZO_ERR_SCHEMA, "card '%s' is outside the game, which is not "
                       "a zone (CR 400.10): it has no %s (leave out %s:)", k->str, key->str,
                       key->str);
  }
  return ZO_OK;
}

/* Starting card i (handle k, keys v) into *cs. */
static zo_status parse_card(cr_parser *p, int i, const yd_node *k, const yd_node *v,
                            zo_card_setup *cs) {
  zo_status st;
  cs->handle = i;
  cs->controller = -1;
  cs->visibility = -1;
  cs->position = -1;
  cs->under = -1;
  cs->zone.type = ZO_ZT_UNSET;
  cs->line = k->line;
  cs->col = k->col;
  if ((st = yr_want(&p->r, v, YD_MAP, "a card (owner, zone, ...)"))) return st;
  if ((st = yr_keys(&p->r, v, ZO_ERR_UNKNOWN, card_keys, CK_COUNT, "a card"))) return st;
  const yd_node *o = yd_get(v, "owner");
  if (!o) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "card '%s' needs an owner", k->str);
  if ((st = cr_player(p, o, "owner", &cs->owner))) return st;
  for (size_t j = 0; j < v->n; j++) {
    const char *key = YD_KEY(v, j)->str;
    const yd_node *val = YD_VAL(v, j);
    int ki = yr_index(key, card_keys, CK_COUNT);
    cs->at[ki].line = val->line;
    cs->at[ki].col = val->col;
    switch ((enum zo_card_key)ki) {
    case CK_OWNER: break; /* read first */
    case CK_ZONE: st = cr_zone(p, val, "zone", CR_OUTSIDE, &cs->zone); break;
    case CK_KIND: st = cr_kind(p, val, &cs->kind); break;
    case CK_TYPES: case CK_SUBTYPES: st = cr_types(p, val, key, &cs->types); break;
    case CK_CONTROLLER: st = cr_player(p, val, "controller", &cs->controller); break;
    case CK_FACE: st = cr_face(p, val, &cs->face_down); break;
    case CK_VISIBILITY: st = cr_visibility(p, val, &cs->visibility); break;
    case CK_POSITION: st = yr_int(&p->r, val, "position", 0, 10000, &cs->position); break;
    case CK_UNDER:
      st = cr_handle(p, val, "under", &cs->under);
      if (!st && cs->under == i)
        st = yr_fail(&p->r, val, ZO_ERR_SCHEMA, "a card can't be under itself");
      break;
    case CK_COUNT: break;
    }
    if (st) return st;
  }
  if (cs->zone.type == ZO_ZT_UNSET && cs->under < 0)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "card '%s' needs a zone (or under:)", k->str);
  return card_contradictions(p, k, v, cs);
}

static zo_status parse_cards(cr_parser *p, const yd_node *m) {
  zo_case *c = p->c;
  zo_status st = yr_want(&p->r, m, YD_MAP, "cards");
  if (st) return st;
  /* handles first, so `under:` may name a later card */
  for (size_t i = 0; i < m->n; i++) {
    int h;
    if ((st = cr_new_name(p, YD_KEY(m, i), "card handle", &c->handles, &c->nhandles, &h)))
      return st;
  }
  c->nsetup = c->nhandles;
  c->cards = zo_xcalloc(m->n ? m->n : 1, sizeof *c->cards);
  c->ncards = (int)m->n;
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i);
    snprintf(p->r.note, sizeof p->r.note, "while reading card '%s'", k->str);
    if ((st = parse_card(p, (int)i, k, YD_VAL(m, i), &c->cards[i]))) return st;
  }
  p->r.note[0] = 0;
  return ZO_OK;
}

/* ---- the file ------------------------------------------------------- */

static const char *const top_keys[] = {"id",      "title",    "rulesets",
                                       "rules",   "source",   "features",
                                       "players", "cards",    "steps",
                                       "expect"};

/* A non-empty list of words, copied into *out (*count of them). */
static zo_status string_list(cr_parser *p, const yd_node *n, const char *what, char ***out,
                             int *count) {
  zo_status st = yr_want(&p->r, n, YD_SEQ, what);
  if (st) return st;
  if (n->n == 0) return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "%s must not be empty", what);
  *out = zo_xcalloc(n->n, sizeof **out);
  for (size_t i = 0; i < n->n; i++) {
    if ((st = yr_want(&p->r, n->kids[i], YD_SCALAR, what))) return st;
    (*out)[i] = zo_xstrdup(n->kids[i]->str);
    (*count)++;
  }
  return ZO_OK;
}

/* id:, title:, source:. */
static zo_status parse_names(cr_parser *p, const yd_node *root) {
  zo_case *c = p->c;
  const yd_node *v = yd_get(root, "id");
  zo_status st = yr_want(&p->r, v, YD_SCALAR, "id");
  if (st) return st;
  if (!v->str[0]) return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "id must not be empty");
  for (const char *s = v->str; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr("-_./", *s)))
      return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "id '%s' may hold only a-z 0-9 - _ . /", v->str);
  c->id = zo_xstrdup(v->str);
  if ((st = yr_want(&p->r, v = yd_get(root, "title"), YD_SCALAR, "title"))) return st;
  c->title = zo_xstrdup(v->str);
  if ((v = yd_get(root, "source"))) {
    if ((st = yr_want(&p->r, v, YD_SCALAR, "source"))) return st;
    c->source = zo_xstrdup(v->str);
  }
  return ZO_OK;
}

/* rulesets: at most ZO_MAX_CASE_RULESETS registered rule sets, each once,
 * into p->rs. */
static zo_status parse_rulesets(cr_parser *p, const yd_node *v) {
  zo_case *c = p->c;
  zo_status st = string_list(p, v, "rulesets", &c->rulesets, &c->nrulesets);
  if (st) return st;
  if (c->nrulesets > ZO_MAX_CASE_RULESETS)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "at most %d rule sets", ZO_MAX_CASE_RULESETS);
  for (int i = 0; i < c->nrulesets; i++) {
    const zo_ruleset *rs = zo_ruleset_find(c->rulesets[i]);
    if (!rs) {
      size_t n = zo_ruleset_count();
      const char **names = zo_xcalloc(n + 1, sizeof *names);
      for (size_t j = 0; j < n; j++) names[j] = zo_ruleset_id(zo_ruleset_at(j));
      st = yr_unknown(&p->r, v->kids[i], ZO_ERR_UNKNOWN, "rule set", c->rulesets[i], NULL,
                      names, n);
      if (p->r.err && !zo_nearest(c->rulesets[i], names, n))
        zo_error_note(p->r.err, "a rule set of your own? load its file with --ruleset-file FILE");
      free(names);
      return st;
    }
    for (int j = 0; j < i; j++)
      if (p->rs[j] == rs)
        return yr_fail(&p->r, v->kids[i], ZO_ERR_SCHEMA, "rule set '%s' listed twice",
                       c->rulesets[i]);
    p->rs[p->nrs++] = rs;
  }
  return ZO_OK;
}

/* rules: each in the rule list of one of the case's rule sets. */
static zo_status parse_rules(cr_parser *p, const yd_node *v) {
  zo_case *c = p->c;
  zo_status st = string_list(p, v, "rules", &c->rules, &c->nrules);
  if (st) return st;
  for (int i = 0; i < c->nrules; i++) {
    int known = 0;
    for (int r = 0; r < p->nrs && !known; r++) known = zo_ruleset_rule(p->rs[r], c->rules[i]) >= 0;
    if (known) continue;
    size_t n = 0;
    for (int r = 0; r < p->nrs; r++) n += (size_t)p->rs[r]->nrules;
    const char **names = zo_xcalloc(n + 1, sizeof *names);
    n = 0;
    for (int r = 0; r < p->nrs; r++)
      for (int j = 0; j < p->rs[r]->nrules; j++) names[n++] = p->rs[r]->rules[j].id;
    const char *near = zo_nearest(c->rules[i], names, n);
    st = yr_fail(&p->r, v->kids[i], ZO_ERR_UNKNOWN, "rule '%s' is not in the rule list of %s%s%s%s",
                 c->rules[i], c->rulesets[0], near ? " (did you mean '" : "", near ? near : "",
                 near ? "'?)" : "");
    free(names);
    return st;
  }
  return ZO_OK;
}

/* features: protocol features (steps.def) the case needs beyond those its
 * steps give. */
static zo_status parse_features(cr_parser *p, const yd_node *v) {
  zo_case *c = p->c;
  zo_status st = string_list(p, v, "features", &c->features, &c->nfeatures);
  if (st) return st;
  for (int i = 0; i < c->nfeatures; i++)
    if (zo_feature_parse(c->features[i]) == FT_NONE)
      return yr_unknown(&p->r, v->kids[i], ZO_ERR_UNKNOWN, "feature", c->features[i], NULL,
                        zo_feature_names, FT_COUNT);
  return ZO_OK;
}

/* players: 1..ZO_MAX_PLAYERS distinct words, none a zone's name. */
static zo_status parse_players(cr_parser *p, const yd_node *v) {
  zo_case *c = p->c;
  zo_status st = yr_want(&p->r, v, YD_SEQ, "players");
  if (st) return st;
  if (v->n < 1 || v->n > ZO_MAX_PLAYERS)
    return yr_fail(&p->r, v, ZO_ERR_SCHEMA, "expected 1..%d players", ZO_MAX_PLAYERS);
  for (size_t i = 0; i < v->n; i++) {
    const yd_node *pl = v->kids[i];
    if ((st = yr_want(&p->r, pl, YD_SCALAR, "a player name"))) return st;
    if (strchr(pl->str, '.') || cr_index(pl->str, c->players, c->nplayers) >= 0)
      return yr_fail(&p->r, pl, ZO_ERR_SCHEMA, "player names are distinct words without '.' "
                     "('%s')", pl->str);
    for (int r = 0; r < p->nrs; r++)
      if (zo_ruleset_zone(p->rs[r], pl->str) >= 0 || !strcmp(pl->str, "outside"))
        return yr_fail(&p->r, pl, ZO_ERR_SCHEMA, "player name '%s' is also a zone name",
                       pl->str);
    /* every zone name of this player's must fit an observation, whole */
    for (int r = 0; r < p->nrs; r++)
      for (int z = 0; z < p->rs[r]->nzones; z++) {
        const char *type = p->rs[r]->zones[z].name;
        if (strlen(pl->str) + strlen(type) + 2 + ZO_ZONE_INDEX_DIGITS > ZO_ZONE_NAME_MAX)
          return yr_fail(&p->r, pl, ZO_ERR_SCHEMA, "player name '%s' is too long: with %s's zone "
                         "'%s' and an index, its zone names must fit in %d bytes", pl->str,
                         p->rs[r]->id, type, ZO_ZONE_NAME_MAX);
      }
    c->players[c->nplayers++] = zo_xstrdup(pl->str);
  }
  return ZO_OK;
}

/* The final expect: holds after the last step, or of the setup when there
 * are no steps; an outcome or error code is one step's result and is
 * compared beside that step (cases/README.md, Expectations). */
static zo_status parse_final_expect(cr_parser *p, const yd_node *v) {
  zo_case *c = p->c;
  snprintf(p->r.note, sizeof p->r.note, "while reading the final expect");
  for (size_t i = 0; v->kind == YD_MAP && i < v->n; i++) {
    const yd_node *key = YD_KEY(v, i);
    if (!strcmp(key->str, "outcome") || !strcmp(key->str, "error"))
      return yr_fail(&p->r, key, ZO_ERR_SCHEMA, "%s: is a step's result and the top-level "
                     "expect: has no step: write it in the expect: beside the step%s", key->str,
                     c->nsteps ? " (here the last one)" : "");
  }
  zo_status st = cr_expect(p, v, &c->expect);
  if (st) return st;
  p->r.note[0] = 0;
  return ZO_OK;
}

static zo_status parse_case(cr_parser *p, const yd_node *root) {
  zo_case *c = p->c;
  zo_status st = yr_want(&p->r, root, YD_MAP, "a case file (a map of id, title, "
                         "rulesets, rules, players, cards, steps)");
  if (st) return st;
  if ((st = yr_keys(&p->r, root, ZO_ERR_UNKNOWN, top_keys, COUNT(top_keys), "a case"))) return st;
  static const char *const required[] = {"id", "title", "rulesets", "rules",
                                         "players", "cards", "steps"};
  for (size_t i = 0; i < COUNT(required); i++)
    if (!yd_get(root, required[i]))
      return yr_fail(&p->r, root, ZO_ERR_SCHEMA, "missing required key '%s'", required[i]);
  const yd_node *v;
  if ((st = parse_names(p, root))) return st;
  if ((st = parse_rulesets(p, yd_get(root, "rulesets")))) return st;
  if ((st = parse_rules(p, yd_get(root, "rules")))) return st;
  if ((v = yd_get(root, "features")) && (st = parse_features(p, v))) return st;
  if ((st = parse_players(p, yd_get(root, "players")))) return st;
  if ((st = parse_cards(p, yd_get(root, "cards")))) return st;
  if (!p->no_json) c->cards_json = yd_to_json_text(yd_get(root, "cards"));
  if ((st = cr_steps(p, yd_get(root, "steps")))) return st;
  if ((v = yd_get(root, "expect")) && (st = parse_final_expect(p, v))) return st;
  return ZO_OK;
}

static zo_status load_doc(const yd_doc *doc, int no_json, zo_case **out, zo_error *err) {
  cr_parser p = {.r = {.doc = doc, .err = err}, .no_json = no_json};
  zo_case *c = zo_xcalloc(1, sizeof *c);
  c->file = zo_xstrdup(doc->file);
  p.c = c;
  zo_status st = parse_case(&p, doc->root);
  if (st) {
    zo_case_free(c);
    return st;
  }
  *out = c;
  return ZO_OK;
}

zo_status zo_case_parse_mem(const char *name, const char *text, size_t len, zo_case **out,
                            zo_error *err) {
  yd_doc doc;
  zo_status st = yd_parse(name, text, len, &doc, err);
  if (st) return st;
  st = load_doc(&doc, 0, out, err);
  yd_free(&doc);
  return st;
}

zo_status zo_case_parse_json(const char *name, json_t *json, zo_case **out, zo_error *err) {
  yd_doc doc = {.root = yd_from_json(json), .file = zo_xstrdup(name)};
  zo_status st = load_doc(&doc, 1, out, err);
  yd_free(&doc);
  return st;
}

zo_status zo_case_parse_file(const char *path, zo_case **out, zo_error *err) {
  yd_doc doc;
  zo_status st = yd_parse_file(path, &doc, err);
  if (st) return st;
  st = load_doc(&doc, 0, out, err);
  yd_free(&doc);
  return st;
}
