/* ruleset_names.c: rule sets (ruleset.h) once loaded, below the parser
 * and the registry: the words of their vocabularies (switches and values,
 * roles, holds, cited zone attributes), the type-word vocabulary, lookups
 * and accessors, freeing, and the shallow copies mutants make. It calls no
 * other file of the rules layer: ruleset_load.c (the parser) and
 * registry.c (the registry) call it, never the other way round. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "ruleset.h"
#include "util.h"

/* ---- names ---------------------------------------------------------- */

#define UNPAREN(...) __VA_ARGS__
#define ROW_NAME(id, name, ...) name,
#define ROW_VALUES(id, name, values) [id] = {UNPAREN values, -1},
const char *const zo_switch_names[SW_COUNT] = {ZO_SWITCHES(ROW_NAME)};
const char *const zo_switch_value_names[ZS_COUNT_] = {ZO_SWITCH_VALUES(ROW_NAME)};
const signed char zo_switch_values[SW_COUNT][5] = {ZO_SWITCHES(ROW_VALUES)};
const char *const zo_zone_role_names[ZR_COUNT] = {ZO_ZONE_ROLES(ROW_NAME)};
const char *const zo_holds_names[ZH_COUNT] = {ZO_HOLDS(ROW_NAME)};
#undef ROW_NAME
#undef ROW_VALUES

const char *zo_switch_name(zo_switch s) {
  return (unsigned)s < SW_COUNT ? zo_switch_names[s] : "?";
}

const char *zo_switch_value_name(int v) {
  return v >= 0 && v < ZS_COUNT_ ? zo_switch_value_names[v] : "?";
}

#define ROW_KEY(id, field, key, value, mutant) key,
#define ROW_VALUE(id, field, key, value, mutant) value,
#define ROW_OFFSET(id, field, key, value, mutant) offsetof(zo_zone_type, field),
const char *const zo_zone_attr_keys[ZA_COUNT] = {ZO_ZONE_ATTRS(ROW_KEY)};
const zo_attr_value zo_zone_attr_values[ZA_COUNT] = {ZO_ZONE_ATTRS(ROW_VALUE)};
static const size_t attr_offsets[ZA_COUNT] = {ZO_ZONE_ATTRS(ROW_OFFSET)};
#undef ROW_KEY
#undef ROW_VALUE
#undef ROW_OFFSET

zo_cited *zo_zone_cited(zo_zone_type *t, zo_zone_attr a) {
  return (zo_cited *)((char *)t + attr_offsets[a]);
}

int zo_zone_attr_is_zone_rule(zo_zone_attr a) {
  switch (a) {
  case ZA_LIMITS:
  case ZA_DISPLACE:
  case ZA_INSTEAD:
  case ZA_GROUP:
  case ZA_CLEARS:
  case ZA_CEASES_EMPTY:
  case ZA_WRONG_OWNER:
  case ZA_FOLLOWS_CONTROL:
  case ZA_AT_INDEX:
  case ZA_FACE_UP_ONLY:
  case ZA_SEATS: return 1;
  default: return 0;
  }
}

int zo_ruleset_has_zone_rules(const zo_ruleset *rs) {
  for (int z = 0; z < rs->nzones; z++)
    for (int a = 0; a < ZA_COUNT; a++)
      if (zo_zone_attr_is_zone_rule((zo_zone_attr)a) &&
          ((const zo_cited *)((const char *)&rs->zones[z] + attr_offsets[a]))->value)
        return 1;
  return 0;
}

/* ---- type words -> bits ---------------------------------------------- */

/* The vocabulary (model.h): words with a meaning in the model (model/),
 * the invariant checker (obs_check.c) or the fuzzers' palettes, and the
 * words of the built-in rule sets' equip:/keeps: lists. Constant: bit i is
 * vocab[i] in every process. Append only (fuzz corpora encode bits). */
#define VOCAB_WORD(id, word) word,
static const char *const vocab[ZO_NVOCAB] = {ZO_VOCAB(VOCAB_WORD)};
#undef VOCAB_WORD

/* Vocabulary bit of word, or 0. Pure: reads the constant table only. */
uint64_t zo_type_bit(const char *word) {
  for (int i = 0; i < ZO_NVOCAB; i++)
    if (strcmp(vocab[i], word) == 0) return (uint64_t)1 << i;
  return 0;
}

const char *zo_type_word(int i) { return i >= 0 && i < ZO_NVOCAB ? vocab[i] : NULL; }

/* A file's own table of words (model.h): the vocabulary bit, the word's
 * bit in the table, a new bit appended (the table grows; the caller owns
 * it), or 0 when the table is full. */
uint64_t zo_type_intern(char ***words, int *n, const char *word) {
  uint64_t b = zo_type_bit(word);
  if (b) return b;
  for (int i = 0; i < *n; i++)
    if (strcmp((*words)[i], word) == 0) return (uint64_t)1 << (ZO_NVOCAB + i);
  if (*n >= ZO_MAX_XTYPES) return 0;
  *words = zo_xrealloc(*words, (size_t)(*n + 1) * sizeof **words);
  (*words)[*n] = zo_xstrdup(word);
  return (uint64_t)1 << (ZO_NVOCAB + (*n)++);
}

/* ---- lookup ---------------------------------------------------------- */

int zo_ruleset_zone(const zo_ruleset *rs, const char *name) {
  for (int i = 0; i < rs->nzones; i++)
    if (strcmp(rs->zones[i].name, name) == 0) return i;
  return -1;
}

int zo_ruleset_rule(const zo_ruleset *rs, const char *id) {
  for (int i = 0; i < rs->nrules; i++)
    if (strcmp(rs->rules[i].id, id) == 0) return i;
  return -1;
}

const char *zo_ruleset_id(const zo_ruleset *rs) { return rs->id; }
const char *zo_ruleset_title(const zo_ruleset *rs) { return rs->title; }
size_t zo_ruleset_rule_count(const zo_ruleset *rs) { return (size_t)rs->nrules; }
const char *zo_ruleset_rule_id(const zo_ruleset *rs, size_t i) {
  return rs->rules[i].id;
}
const char *zo_ruleset_rule_text(const zo_ruleset *rs, size_t i) {
  return rs->rules[i].text;
}
int zo_ruleset_rule_is_seed(const zo_ruleset *rs, size_t i) {
  return rs->rules[i].seed;
}
const char *zo_ruleset_rule_out_of_scope(const zo_ruleset *rs, size_t i) {
  return rs->rules[i].out_of_scope;
}
const char *zo_ruleset_rule_language_gap(const zo_ruleset *rs, size_t i) {
  return rs->rules[i].language_gap;
}

void zo_ruleset_free(zo_ruleset *rs) {
  if (!rs) return;
  for (int i = 0; i < rs->nrules; i++) {
    free(rs->rules[i].id);
    free(rs->rules[i].text);
    free(rs->rules[i].out_of_scope);
    free(rs->rules[i].language_gap);
  }
  free(rs->rules);
  for (int i = 0; i < rs->nxtypes; i++) free(rs->xtypes[i]);
  free(rs->xtypes);
  free(rs->id);
  free(rs->title);
  free(rs->game);
  free(rs->extends);
  free(rs->file);
  free(rs);
}

/* A shallow copy that shares rule texts with its original (not to be freed
 * with zo_ruleset_free: free() it). */
zo_ruleset *zo_ruleset_clone_shallow(const zo_ruleset *rs) {
  zo_ruleset *m = zo_xmalloc(sizeof *m);
  *m = *rs;
  return m;
}

/* ---- citing rules in messages ----------------------------------------- */

/* Is rule id `id` one of the rule book of rs's own game: Magic's CR and
 * Zones of Play numbers under mtg, FaB's numbers under fab? */
static int own_book(const zo_ruleset *rs, const char *id) {
  const char *g = rs->game ? rs->game : "";
  if (!strcmp(g, "fab")) return !strncmp(id, "FaB ", 4);
  if (!strcmp(g, "mtg")) return !strncmp(id, "CR ", 3) || !strncmp(id, "Z.", 2);
  return 0;
}

const char *zo_ruleset_cite(const zo_ruleset *rs, const char *rules, char *buf, size_t cap) {
  if (!cap) return buf;
  buf[0] = 0;
  if (!rules) return buf;
  size_t used = 0;
  int all = 1;
  char group[160];
  for (const char *g = rules; *g;) {
    size_t n = strcspn(g, ";");
    snprintf(group, sizeof group, "%.*s", (int)(n < sizeof group ? n : sizeof group - 1), g);
    g += n + (g[n] == ';');
    char prefix[32] = "";
    int first = 1;
    for (char *save = NULL, *t = strtok_r(group, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      while (*t == ' ') t++;
      size_t tl = strlen(t);
      while (tl && t[tl - 1] == ' ') t[--tl] = 0;
      if (!tl) continue;
      char id[64];
      if (first || strchr(t, ' ')) { /* a whole id: its book's prefix ("CR ") */
        snprintf(id, sizeof id, "%s", t);
        const char *sp = strrchr(t, ' ');
        snprintf(prefix, sizeof prefix, "%.*s", sp ? (int)(sp - t + 1) : 0, t);
      } else { /* "301.5" after "CR 303.4," */
        snprintf(id, sizeof id, "%s%s", prefix, t);
      }
      first = 0;
      if (zo_ruleset_rule(rs, id) < 0 && !own_book(rs, id)) {
        all = 0;
        continue;
      }
      int w = snprintf(buf + used, cap - used, "%s%s", used ? "; " : "", id);
      if (w < 0 || (size_t)w >= cap - used) {
        buf[used] = 0;
        return buf;
      }
      used += (size_t)w;
    }
  }
  if (all) snprintf(buf, cap, "%s", rules); /* nothing dropped: as written */
  return buf;
}
