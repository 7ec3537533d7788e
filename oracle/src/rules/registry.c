/* registry.c: the registry of rule sets (declared in ruleset.h): the embedded ones
 * (oracle/rulesets/<id>.yaml, parsed at first use by ruleset_load.c) and
 * users' ones, zo_ruleset_load_* (a file's `extends:` names a registered
 * rule set), and the registry swaps mutants make. The top of the rules
 * layer: it calls the parser (ruleset_load.c) and the names and lookups
 * (ruleset_names.c); neither calls it (the parser is handed the registry's
 * look-up). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "ruleset.h"
#include "util.h"
#include "ydoc.h"

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
      if (zo_ruleset_parse_doc(&doc, find_any, &rs, &err)) {
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
  rs->user = 1;
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

/* ---- loading a file or a text: extends: names a registered rule set ---- */

zo_status zo_ruleset_load_mem(const char *name, const char *text, size_t len, zo_ruleset **out,
                              zo_error *err) {
  yd_doc doc;
  zo_status st = yd_parse(name, text, len, &doc, err);
  if (st) return st;
  st = zo_ruleset_parse_doc(&doc, zo_ruleset_find, out, err);
  yd_free(&doc);
  return st;
}

zo_status zo_ruleset_load_file(const char *path, zo_ruleset **out, zo_error *err) {
  yd_doc doc;
  zo_status st = yd_parse_file(path, &doc, err);
  if (st) return st;
  st = zo_ruleset_parse_doc(&doc, zo_ruleset_find, out, err);
  yd_free(&doc);
  return st;
}
