/* test_loader.c: the case loader's messages, checked exactly.
 *
 * Every file in malformed/ must fail to load with the message recorded for
 * it in malformed/expected.tsv ("name<TAB>line:col: message"), and every
 * file there must have a recorded message. A valid case must load. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <jansson.h>

#include "model.h"

#ifndef MALFORMED_DIR
#error MALFORMED_DIR must be defined
#endif

static void test_messages_exact(void **state) {
  (void)state;
  FILE *f = fopen(MALFORMED_DIR "/expected.tsv", "r");
  assert_non_null(f);
  char line[2048];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char *tab = strchr(line, '\t');
    assert_non_null(tab);
    *tab = 0;
    char path[3200];
    snprintf(path, sizeof path, "%s/%s", MALFORMED_DIR, line);
    zo_case *c = NULL;
    zo_error err;
    memset(&err, 0, sizeof err);
    zo_status st = zo_case_load_file(path, &c, &err);
    if (st == ZO_OK) fail_msg("%s loaded but must be rejected", line);
    assert_null(c);
    char got[1200];
    snprintf(got, sizeof got, "%d:%d: %s", err.line, err.column, err.message);
    if (strcmp(got, tab + 1)) fail_msg("%s:\n  expected %s\n  got      %s", line, tab + 1, got);
    assert_string_equal(err.file, path);
    n++;
  }
  fclose(f);
  assert_true(n >= 15);
}

static void test_every_file_has_an_expectation(void **state) {
  (void)state;
  DIR *d = opendir(MALFORMED_DIR);
  assert_non_null(d);
  FILE *f = fopen(MALFORMED_DIR "/expected.tsv", "r");
  assert_non_null(f);
  char all[65536];
  size_t len = fread(all, 1, sizeof all - 1, f);
  all[len] = 0;
  fclose(f);
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l < 5 || strcmp(de->d_name + l - 5, ".yaml")) continue;
    char key[300];
    snprintf(key, sizeof key, "%s\t", de->d_name);
    if (!strstr(all, key)) fail_msg("%s has no line in expected.tsv", de->d_name);
  }
  closedir(d);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_messages_exact),
      cmocka_unit_test(test_every_file_has_an_expectation),
      cmocka_unit_test(test_valid_case_loads),
      cmocka_unit_test(test_every_prefix_is_handled),
      cmocka_unit_test(test_schema_knows_every_step),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
