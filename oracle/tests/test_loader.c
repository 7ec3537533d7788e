/* test_loader.c: the case and rule set loaders' messages, checked exactly,
 * and that no file can change how another one loads.
 *
 * Every file in malformed/ must fail to load with the message recorded for
 * it in malformed/expected.tsv ("name<TAB>line:col: message"), and every
 * file there must have a recorded message; malformed/rulesets/ does the
 * same for rule set files (malformed/rulesets/expected.tsv). Most files are
 * made by malformed/make-mutants.py (mutations of real cases). A valid case
 * must load. Loading a file full of made-up type words, refused or not,
 * leaves the verdict on every real case and rule set file as it was (the
 * words belong to the file, model.h). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <jansson.h>

#include "model.h"
#include "runner.h"
#include "util.h"

#ifndef MALFORMED_DIR
#error MALFORMED_DIR must be defined
#endif
#ifndef CASES_DIR
#error CASES_DIR must be defined
#endif
#ifndef RULESET_FILE_DIR
#error RULESET_FILE_DIR must be defined
#endif
#ifndef RULESETS_DIR
#error RULESETS_DIR must be defined
#endif

/* Load one file as a case (rulesets = 0) or a rule set (1); the rule set,
 * if any, is freed. */
static zo_status load_any(const char *path, int rulesets, zo_error *err) {
  memset(err, 0, sizeof *err);
  if (rulesets) {
    zo_ruleset *rs = NULL;
    zo_status st = zo_ruleset_load_file(path, &rs, err);
    if (st == ZO_OK) zo_ruleset_free(rs);
    else assert_null(rs);
    return st;
  }
  zo_case *c = NULL;
  zo_status st = zo_case_load_file(path, &c, err);
  if (st == ZO_OK) zo_case_free(c);
  else assert_null(c);
  return st;
}

/* Every line of dir/expected.tsv: the file must be refused with exactly
 * that "line:col: message" (and err.file naming it). Returns the count. */
static int check_expectations(const char *dir, int rulesets) {
  char tsv[600];
  snprintf(tsv, sizeof tsv, "%s/expected.tsv", dir);
  FILE *f = fopen(tsv, "r");
  if (!f) fail_msg("cannot open %s", tsv);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int n = 0;
  while ((len = getline(&line, &cap, f)) > 0) {
    line[strcspn(line, "\n")] = 0;
    char *tab = strchr(line, '\t');
    if (!tab) fail_msg("%s: line %d has no tab", tsv, n + 1);
    *tab = 0;
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, line);
    zo_error err;
    zo_status st = load_any(path, rulesets, &err);
    if (st == ZO_OK) fail_msg("%s loaded but must be rejected", line);
    char got[1200];
    snprintf(got, sizeof got, "%d:%d: %s", err.line, err.column, err.message);
    if (strcmp(got, tab + 1)) fail_msg("%s:\n  expected %s\n  got      %s", line, tab + 1, got);
    assert_string_equal(err.file, path);
    assert_true(err.line > 0 && err.column > 0); /* never 0:0 */
    n++;
  }
  free(line);
  fclose(f);
  return n;
}

/* Every *.yaml file of dir has a line in dir/expected.tsv. */
static void check_every_file_listed(const char *dir) {
  char tsv[600];
  snprintf(tsv, sizeof tsv, "%s/expected.tsv", dir);
  FILE *f = fopen(tsv, "r");
  assert_non_null(f);
  size_t cap = 1 << 16, len = 0;
  char *all = zo_xmalloc(cap);
  size_t r;
  while ((r = fread(all + len, 1, cap - len - 1, f)) > 0)
    if ((len += r) == cap - 1) all = zo_xrealloc(all, cap *= 2);
  all[len] = 0;
  fclose(f);
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l < 5 || strcmp(de->d_name + l - 5, ".yaml")) continue;
    char key[300];
    snprintf(key, sizeof key, "\n%s\t", de->d_name);
    if (!strstr(all, key) && strncmp(all, key + 1, strlen(key + 1)))
      fail_msg("%s has no line in %s", de->d_name, tsv);
  }
  closedir(d);
  free(all);
}

static void test_messages_exact(void **state) {
  (void)state;
  assert_true(check_expectations(MALFORMED_DIR, 0) >= 300);
}

static void test_every_file_has_an_expectation(void **state) {
  (void)state;
  check_every_file_listed(MALFORMED_DIR);
}

static void test_ruleset_messages_exact(void **state) {
  (void)state;
  assert_true(check_expectations(MALFORMED_DIR "/rulesets", 1) >= 20);
  check_every_file_listed(MALFORMED_DIR "/rulesets");
}

static const char valid[] =
    "id: ok/one\n"
    "title: a valid case\n"
    "rulesets: [mtg-2011, fab]\n"
    "rules: [\"CR 400.7\"]\n"
    "players: [alice, bob]\n"
    "cards:\n"
    "  x: {owner: alice, zone: graveyard, types: [action]}\n"
    "steps:\n"
    "  - move: {card: x, to: hand}\n"
    "    expect: {outcome: moved, x: {zone: alice.hand, new_object: true}}\n";

static void test_valid_case_loads(void **state) {
  (void)state;
  zo_case *c = NULL;
  zo_error err;
  memset(&err, 0, sizeof err);
  zo_status st = zo_case_load_mem("mem.yaml", valid, sizeof valid - 1, &c, &err);
  if (st) fail_msg("%d:%d: %s", err.line, err.column, err.message);
  assert_string_equal(zo_case_id(c), "ok/one");
  assert_int_equal(zo_case_ruleset_count(c), 2);
  assert_string_equal(zo_case_ruleset(c, 1), "fab");
  assert_int_equal(zo_case_rule_count(c), 1);
  zo_case_free(c);
}

/* A truncated or garbled case must be an error, never a crash: cut the
 * valid text at every length. */
static void test_every_prefix_is_handled(void **state) {
  (void)state;
  for (size_t n = 0; n < sizeof valid - 1; n++) {
    zo_case *c = NULL;
    zo_error err;
    memset(&err, 0, sizeof err);
    zo_status st = zo_case_load_mem("cut.yaml", valid, n, &c, &err);
    if (st == ZO_OK) zo_case_free(c);
    else assert_true(err.message[0] != 0);
  }
}

/* cases/schema.json describes every step the loader knows, so an editor
 * never flags a valid case (the schema is kept beside the cases). */
static void test_schema_knows_every_step(void **state) {
  (void)state;
  json_error_t je;
  json_t *schema = json_load_file(SCHEMA_FILE, 0, &je);
  if (!schema) fail_msg("%s:%d: %s", SCHEMA_FILE, je.line, je.text);
  json_t *defs = json_object_get(schema, "$defs");
  assert_non_null(defs);
  for (int k = 0; k < ST_COUNT; k++) {
    char name[64];
    snprintf(name, sizeof name, "step_%s", zo_step_kind_name((zo_step_kind)k));
    if (!json_object_get(defs, name)) fail_msg("schema has no %s", name);
  }
  json_decref(schema);
}

/* ---- one file can't change another's verdict ------------------------ */

/* A rule set's type bits, zone by zone, as text (appended to buf): what a
 * made-up word could have changed. */
static void type_bits(const zo_ruleset *rs, char *buf, size_t cap) {
  for (int z = 0; z < rs->nzones; z++) {
    size_t k = strlen(buf);
    snprintf(buf + k, cap - k, " %s=%llx/%llx", rs->zones[z].name,
             (unsigned long long)rs->zones[z].equip_types,
             (unsigned long long)rs->zones[z].keep_types);
  }
}

/* The verdict on every real case (cases/), built-in rule set file
 * (oracle/rulesets/, loaded again under its own id, not registered) and
 * user rule set file (oracle/tests/ruleset-file/), as one text: "file: ok"
 * (with a rule set's type bits) or "file: L:C: message" per line; then the
 * type bits of every registered rule set. Owned by the caller. */
static char *verdicts(void) {
  const char *const roots[] = {CASES_DIR, RULESETS_DIR, RULESET_FILE_DIR};
  char **files;
  int n;
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_collect_cases(roots, 3, &files, &n, &err)) fail_msg("%s: %s", err.file, err.message);
  assert_true(n > 400);
  size_t cap = 1 << 16, len = 0;
  char *out = zo_xmalloc(cap);
  out[0] = 0;
  for (int i = 0; i < n + (int)zo_ruleset_count(); i++) {
    char line[4000];
    int w;
    if (i >= n) { /* the registry */
      const zo_ruleset *r = zo_ruleset_at((size_t)(i - n));
      snprintf(line, sizeof line, "registered %s:", zo_ruleset_id(r));
      type_bits(r, line, sizeof line - 1);
      w = (int)strlen(line);
      line[w++] = '\n';
      line[w] = 0;
    } else {
      /* rule set files load as rule sets; the rest as cases */
      int isrs = (strstr(files[i], "ruleset-file/") && !strstr(files[i], "-case.yaml")) ||
                 strstr(files[i], "oracle/rulesets/");
      zo_status st;
      zo_ruleset *rs = NULL;
      char bits[3000] = "";
      if (isrs) {
        memset(&err, 0, sizeof err);
        st = zo_ruleset_load_file(files[i], &rs, &err);
        if (!st) type_bits(rs, bits, sizeof bits);
        zo_ruleset_free(rs);
      } else {
        st = load_any(files[i], 0, &err);
      }
      w = st ? snprintf(line, sizeof line, "%s: %d:%d: %s\n", files[i], err.line, err.column,
                        err.message)
             : snprintf(line, sizeof line, "%s: ok%s\n", files[i], bits);
    }
    while (len + (size_t)w + 1 > cap) out = zo_xrealloc(out, cap *= 2);
    memcpy(out + len, line, (size_t)w + 1);
    len += (size_t)w;
  }
  zo_paths_free(files, n);
  return out;
}

/* A text with `words` made-up type words (`prefix0`, `prefix1`...) as a
 * YAML flow list, into buf. */
static void made_up_words(char *buf, size_t cap, const char *prefix, int words) {
  size_t k = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < words && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%s%d", i ? ", " : "", prefix, i);
  snprintf(buf + k, cap - k, "]");
}

static void test_made_up_types_change_no_other_verdict(void **state) {
  (void)state;
  uint64_t instant = zo_type_bit("instant"), weapon = zo_type_bit("weapon");
  char *before = verdicts();
  char words[4096], text[8192];
  zo_error err;
  memset(&err, 0, sizeof err);
  /* a rule set with 60 made-up equip words: refused at the 26th */
  made_up_words(words, sizeof words, "rack_kind_", 60);
  snprintf(text, sizeof text,
           "id: made-up\ntitle: t\ngame: fab\nzones:\n  rack:\n    role: other\n"
           "    holds: {value: [equip], rule: null}\n    equip: {value: %s, rule: null}\n",
           words);
  zo_ruleset *rs = NULL;
  assert_int_equal(zo_ruleset_load_mem("made-up.yaml", text, strlen(text), &rs, &err),
                   ZO_ERR_SCHEMA);
  assert_null(rs);
  assert_string_equal(err.message, "type word 'rack_kind_25': a rule set may use at most 25 "
                                   "type words the model does not know (for zone rack, equip)");
  assert_int_equal(err.line, 8);
  /* one with 20 made-up words, refused for something else afterwards */
  made_up_words(words, sizeof words, "other_kind_", 20);
  snprintf(text, sizeof text,
           "id: made-up\ntitle: t\ngame: fab\nzones:\n  rack:\n    role: other\n"
           "    keeps: {value: %s, rule: null}\n    ordred: {value: true, rule: null}\n", words);
  assert_int_equal(zo_ruleset_load_mem("made-up.yaml", text, strlen(text), &rs, &err),
                   ZO_ERR_SCHEMA);
  /* a case with 60 made-up types: refused at the 26th */
  made_up_words(words, sizeof words, "goblin_kind_", 60);
  snprintf(text, sizeof text,
           "id: t/x\ntitle: t\nrulesets: [mtg-2011]\nrules: [\"CR 400.7\"]\n"
           "players: [alice]\ncards:\n  x: {owner: alice, zone: hand, subtypes: %s}\n"
           "steps: []\n", words);
  zo_case *c = NULL;
  assert_int_equal(zo_case_load_mem("made-up.yaml", text, strlen(text), &c, &err), ZO_ERR_SCHEMA);
  assert_string_equal(err.message, "type word 'goblin_kind_25': a case may use at most 25 type "
                                   "words the model does not know");
  assert_int_equal(err.line, 7);
  /* 25 of them load */
  made_up_words(words, sizeof words, "goblin_kind_", 25);
  snprintf(text, sizeof text,
           "id: t/x\ntitle: t\nrulesets: [mtg-2011]\nrules: [\"CR 400.7\"]\n"
           "players: [alice]\ncards:\n  x: {owner: alice, zone: hand, subtypes: %s}\n"
           "steps: []\n", words);
  if (zo_case_load_mem("ok.yaml", text, strlen(text), &c, &err)) fail_msg("%s", err.message);
  zo_case_free(c);
  char *after = verdicts();
  assert_string_equal(before, after);
  assert_true(zo_type_bit("instant") == instant && zo_type_bit("weapon") == weapon);
  assert_true(zo_type_bit("goblin_kind_1") == 0); /* no process-wide word */
  free(before);
  free(after);
}

/* A rule set's own equip: word matches the same word in a case, whatever
 * bits either file gave it. */
static void test_own_words_match_across_files(void **state) {
  (void)state;
  const char rs_text[] =
      "id: own-words\ntitle: t\ngame: fab\nzones:\n"
      "  rack:\n    role: other\n    per_player: {value: true, rule: null}\n"
      "    holds: {value: [equip], rule: null}\n"
      "    equip: {value: [spare_kind, sword_kind], rule: null}\n"
      "  table:\n    role: battlefield\n    arena: {value: true, rule: null}\n"
      "    controller: {value: true, rule: null}\n"
      "  grave:\n    role: graveyard\n    per_player: {value: true, rule: null}\n"
      "rules:\n  - {id: \"G 1\", text: a}\n";
  zo_ruleset *rs = NULL;
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_ruleset_load_mem("own.yaml", rs_text, sizeof rs_text - 1, &rs, &err))
    fail_msg("%d:%d: %s", err.line, err.column, err.message);
  if (zo_ruleset_register(rs, &err)) fail_msg("%s", err.message);
  const char *head = "id: t/x\ntitle: t\nrulesets: [own-words]\nrules: [\"G 1\"]\n"
                     "players: [alice]\ncards:\n";
  char text[1024];
  zo_case *c = NULL;
  /* the case numbers its words in another order */
  snprintf(text, sizeof text, "%s  a: {owner: alice, zone: grave, types: [goblin_kind]}\n"
           "  s: {owner: alice, zone: rack, subtypes: [sword_kind]}\nsteps: []\n", head);
  if (zo_case_load_mem("ok.yaml", text, strlen(text), &c, &err))
    fail_msg("%d:%d: %s", err.line, err.column, err.message);
  zo_case_free(c);
  snprintf(text, sizeof text, "%s  s: {owner: alice, zone: rack, subtypes: [goblin_kind]}\n"
           "steps: []\n", head);
  assert_int_equal(zo_case_load_mem("bad.yaml", text, strlen(text), &c, &err), ZO_ERR_SETUP);
  assert_string_equal(err.message, "'s' can't start in alice.rack: the zone can't hold it "
                                   "(rule set own-words)");
  /* a duplicate id is refused at the file's id: and the rule set is freed
     (LeakSanitizer sees the rest) */
  if (zo_ruleset_load_mem("again.yaml", rs_text, sizeof rs_text - 1, &rs, &err))
    fail_msg("%s", err.message);
  assert_int_equal(zo_ruleset_register(rs, &err), ZO_ERR_USAGE);
  assert_string_equal(err.message, "a rule set with id 'own-words' is already loaded");
  assert_string_equal(err.file, "again.yaml");
  assert_int_equal(err.line, 1);
  assert_int_equal(err.column, 5);
}

/* The source line under an error: a long line is cut at character
 * boundaries around the column with "...", the caret under its character;
 * bytes that are not UTF-8 show as U+FFFD. */
static void test_long_lines_quoted_right(void **state) {
  (void)state;
  char path[] = "/tmp/zo-quote-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs("id: t\n", f);
  for (int i = 0; i < 300; i++) fputs("\xc3\xa9", f); /* 300 é: 600 bytes */
  fputs("X", f);
  for (int i = 0; i < 300; i++) fputs("\xc3\xa9", f);
  fputs("\n\xff bad\n", f);
  fclose(f);
  zo_error err;
  memset(&err, 0, sizeof err);
  snprintf(err.file, sizeof err.file, "%s", path);
  snprintf(err.message, sizeof err.message, "m");
  err.line = 2;
  err.column = 301; /* the X */
  char buf[2048];
  zo_error_format(&err, buf, sizeof buf);
  char *q = strchr(buf, '\n');
  assert_non_null(q);
  char *caret = strchr(q + 1, '\n');
  assert_non_null(caret);
  *caret++ = 0;
  /* "  ..." then 53 é, X, 106 é, "..." */
  assert_int_equal(strncmp(q + 1, "  ...", 5), 0);
  const char *x = strchr(q + 1, 'X');
  assert_non_null(x);
  assert_int_equal(x - (q + 6), 53 * 2);
  assert_string_equal(x + 1 + 106 * 2, "...");
  /* the caret: 2 + 3 + 53 columns in */
  assert_int_equal(strlen(caret), 2 + 3 + 53 + 1);
  assert_int_equal(caret[2 + 3 + 53], '^');
  err.line = 3;
  err.column = 1;
  zo_error_format(&err, buf, sizeof buf);
  assert_non_null(strstr(buf, "\n  \xef\xbf\xbd bad\n  ^"));
  unlink(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_messages_exact),
      cmocka_unit_test(test_every_file_has_an_expectation),
      cmocka_unit_test(test_ruleset_messages_exact),
      cmocka_unit_test(test_valid_case_loads),
      cmocka_unit_test(test_every_prefix_is_handled),
      cmocka_unit_test(test_schema_knows_every_step),
      cmocka_unit_test(test_made_up_types_change_no_other_verdict),
      cmocka_unit_test(test_own_words_match_across_files),
      cmocka_unit_test(test_long_lines_quoted_right),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
