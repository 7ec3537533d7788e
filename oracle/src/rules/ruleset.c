/* ruleset.c: rule sets (ruleset.h) once loaded: the words of their
 * vocabularies (switches and values, roles, holds, cited zone attributes),
 * the type-word vocabulary, lookups and accessors, the registry of the
 * embedded rule sets (oracle/rulesets/<id>.yaml, parsed at first use by
 * ruleset_load.c) and of users' ones, and the registry swaps mutants
 * make. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "ruleset.h"
#include "util.h"
#include "ydoc.h"

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

/* ---- the embedded registry ------------------------------------------ */

extern const size_t zo_embedded_count;
extern const char *const zo_embedded_names[];
extern const char *const zo_embedded_texts[];
extern const size_t zo_embedded_lens[];

static zo_ruleset **registry;
static size_t nregistry;

static const zo_ruleset *find_any(const char *id);

static void registry_init(void) {
  if (registry) return;
  registry = zo_xcalloc(zo_embedded_count + 1, sizeof *registry);
  /* parse in dependency order: a file whose base is not loaded yet waits */
  int progress = 1;
  char *done = zo_xcalloc(zo_embedded_count + 1, 1);
  while (progress) {
    progress = 0;
    for (size_t i = 0; i < zo_embedded_count; i++) {
      if (done[i]) continue;
      yd_doc doc;
      zo_error err = {0};
      if (yd_parse(zo_embedded_names[i], zo_embedded_texts[i],
                   zo_embedded_lens[i], &doc, &err)) {
        fprintf(stderr, "zoneoracle: embedded %s:%d:%d: %s\n", err.file,
                err.line, err.column, err.message);
        abort();
      }
      const yd_node *ext = yd_get(doc.root, "extends");
      if (ext && ext->kind == YD_SCALAR && !find_any(ext->str)) {
        yd_free(&doc);
        continue;
      }
      zo_ruleset *rs;
      if (zo_ruleset_parse_doc(&doc, &rs, &err)) {
        fprintf(stderr, "zoneoracle: embedded %s:%d:%d: %s\n", err.file,
                err.line, err.column, err.message);
        abort();
      }
      yd_free(&doc);
      registry[nregistry++] = rs;
      done[i] = 1;
      progress = 1;
    }
  }
  free(done);
  if (nregistry != zo_embedded_count) {
    fprintf(stderr, "zoneoracle: an embedded rule set extends a missing one\n");
    abort();
  }
}

static const zo_ruleset *find_any(const char *id) {
  for (size_t i = 0; i < nregistry; i++)
    if (strcmp(registry[i]->id, id) == 0) return registry[i];
  return NULL;
}

size_t zo_ruleset_count(void) {
  registry_init();
  return nregistry;
}

const zo_ruleset *zo_ruleset_at(size_t i) {
  registry_init();
  return i < nregistry ? registry[i] : NULL;
}

const zo_ruleset *zo_ruleset_find(const char *id) {
  registry_init();
  return find_any(id);
}

/* Takes rs in every case: on ZO_ERR_USAGE (its id is taken) rs is freed,
 * with err at the file's `id:`. */
zo_status zo_ruleset_register(zo_ruleset *rs, zo_error *err) {
  registry_init();
  if (find_any(rs->id)) {
    zo_error_set(err, ZO_ERR_USAGE, rs->file, rs->id_line > 0 ? rs->id_line : 1,
                 rs->id_col > 0 ? rs->id_col : 1, "a rule set with id '%s' is already loaded",
                 rs->id);
    zo_ruleset_free(rs);
    return ZO_ERR_USAGE;
  }
  registry = zo_xrealloc(registry, (nregistry + 2) * sizeof *registry);
  registry[nregistry++] = rs;
  return ZO_OK;
}

/* ---- mutants (zoneoracle mutants): one switch or attribute changed ---- */

int zo_ruleset_index(const zo_ruleset *rs) {
  for (size_t i = 0; i < nregistry; i++)
    if (registry[i] == rs) return (int)i;
  return -1;
}

/* Swap the registry entry at i for rs; returns the one it held (the caller
 * keeps both and swaps back). */
zo_ruleset *zo_ruleset_swap(int i, zo_ruleset *rs) {
  registry_init();
  zo_ruleset *old = registry[i];
  registry[i] = rs;
  return old;
}

/* A shallow copy that shares rule texts with its original (not to be freed
 * with zo_ruleset_free: free() it). */
zo_ruleset *zo_ruleset_clone_shallow(const zo_ruleset *rs) {
  zo_ruleset *m = zo_xmalloc(sizeof *m);
  *m = *rs;
  return m;
}
