/* test_utf8.c: the UTF-8 helpers of util.h (what keeps every string of a
 * report valid) and the out-of-memory handler's contract. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "util.h"

/* Whether the whole NUL-terminated s is valid UTF-8. */
static int valid(const char *s) { return zo_utf8_valid_prefix(s, strlen(s)) == strlen(s); }

static void test_valid_prefix(void **state) {
  (void)state;
  assert_int_equal(zo_utf8_valid_prefix("abc", 3), 3);
  assert_int_equal(zo_utf8_valid_prefix("\xC3\xA9", 2), 2);            /* é */
  assert_int_equal(zo_utf8_valid_prefix("\xF0\x9F\x98\x80", 4), 4);    /* U+1F600 */
  assert_int_equal(zo_utf8_valid_prefix("\xC3", 1), 0);                /* cut short */
  assert_int_equal(zo_utf8_valid_prefix("a\xE2\x82", 3), 1);           /* cut short */
  assert_int_equal(zo_utf8_valid_prefix("\xC0\x80", 2), 0);            /* overlong NUL */
  assert_int_equal(zo_utf8_valid_prefix("\xE0\x80\xAF", 3), 0);        /* overlong */
  assert_int_equal(zo_utf8_valid_prefix("\xED\xA0\x80", 3), 0);        /* surrogate */
  assert_int_equal(zo_utf8_valid_prefix("\xF4\x90\x80\x80", 4), 0);    /* above U+10FFFF */
  assert_int_equal(zo_utf8_valid_prefix("ok\xFFno", 5), 2);
  assert_int_equal(zo_utf8_valid_prefix("\x80", 1), 0);                /* lone continuation */
}

static void test_cut(void **state) {
  (void)state;
  const char *s = "a\xE2\x82\xAC" "b"; /* a € b */
  size_t n = strlen(s);
  size_t want[] = {0, 1, 1, 1, 4, 5};
  for (size_t max = 0; max <= n; max++) assert_int_equal(zo_utf8_cut(s, n, max), want[max]);
  assert_int_equal(zo_utf8_cut(s, n, 99), n);
  /* invalid bytes are cut anywhere */
  assert_int_equal(zo_utf8_cut("a\xFF\xFF" "b", 4, 2), 2);
  /* a 4-byte character is never split */
  const char *e = "\xF0\x9F\x98\x80\xF0\x9F\x98\x80";
  for (size_t max = 4; max < 8; max++) assert_int_equal(zo_utf8_cut(e, 8, max), 4);
}

static void test_sanitize(void **state) {
  (void)state;
  char *s = zo_utf8_sanitize("caf\xE9.yaml");
  assert_string_equal(s, "caf\\xE9.yaml");
  free(s);
  s = zo_utf8_sanitize("d\xC3\xA9j\xC3\xA0 vu");
  assert_string_equal(s, "d\xC3\xA9j\xC3\xA0 vu"); /* valid: unchanged */
  free(s);
  s = zo_utf8_sanitize("end\xE2\x82");
  assert_string_equal(s, "end\\xE2\\x82");
  free(s);
  s = zo_utf8_sanitize(NULL);
  assert_string_equal(s, "");
  free(s);
}

static void test_copy(void **state) {
  (void)state;
  char b[8];
  assert_int_equal(zo_utf8_copy(b, 4, "a\xE2\x82\xAC" "b"), 1);
  assert_string_equal(b, "a");
  assert_int_equal(zo_utf8_copy(b, 5, "a\xE2\x82\xAC" "b"), 4);
  assert_string_equal(b, "a\xE2\x82\xAC");
  assert_int_equal(zo_utf8_copy(b, 5, "\xFF"), 4);
  assert_string_equal(b, "\\xFF");
  assert_int_equal(zo_utf8_copy(b, 4, "\xFF"), 0); /* "\xFF" does not fit whole */
  assert_string_equal(b, "");
}

static void test_snprintf(void **state) {
  (void)state;
  char b[5];
  assert_int_equal(zo_snprintf_utf8(b, sizeof b, "%s", "ab\xE2\x82\xAC"), 5);
  assert_string_equal(b, "ab"); /* not "ab\xE2\x82" */
  assert_int_equal(zo_snprintf_utf8(b, sizeof b, "%s", "abcdef"), 6);
  assert_string_equal(b, "abcd");
  assert_int_equal(zo_snprintf_utf8(b, sizeof b, "%s", "\xC3\xA9\xC3\xA9\xC3\xA9"), 6);
  assert_string_equal(b, "\xC3\xA9\xC3\xA9");
  /* every cut of a long message lands on a boundary */
  char msg[64];
  for (int pre = 0; pre < 4; pre++)
    for (size_t cap = 1; cap < sizeof msg; cap++) {
      zo_snprintf_utf8(msg, cap, "%.*s%s", pre, "xyz",
                       "\xE2\x82\xAC\xC3\xA9\xF0\x9F\x98\x80\xE2\x82\xAC\xC3\xA9\xF0\x9F\x98\x80"
                       "\xE2\x82\xAC\xC3\xA9\xF0\x9F\x98\x80\xE2\x82\xAC\xC3\xA9\xF0\x9F\x98\x80");
      assert_true(valid(msg));
    }
}

static void test_join(void **state) {
  (void)state;
  const char *names[] = {"\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC", "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"};
  for (size_t cap = 5; cap < 24; cap++) {
    char b[24];
    zo_join(b, cap, names, 2);
    assert_true(valid(b));
    assert_true(strlen(b) < cap);
  }
}

/* Random bytes: sanitized, always valid, and jansson takes them. */
static void test_random(void **state) {
  (void)state;
  uint64_t x = 88172645463325252ULL;
  for (int round = 0; round < 20000; round++) {
    char in[40];
    size_t n = 1 + (size_t)(round % 39);
    for (size_t i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      in[i] = (char)(x & 0xFF ? x & 0xFF : 'z');
    }
    in[n] = 0;
    char *s = zo_utf8_sanitize(in);
    assert_true(valid(s));
    json_t *j = json_string(s);
    assert_non_null(j);
    json_decref(j);
    char b[17];
    zo_utf8_copy(b, sizeof b, in);
    assert_true(valid(b));
    /* a valid string cut anywhere by zo_utf8_cut stays valid */
    size_t len = strlen(s);
    for (size_t max = 0; max <= len; max++) {
      size_t k = zo_utf8_cut(s, len, max);
      assert_true(k <= max);
      assert_int_equal(zo_utf8_valid_prefix(s, k), k);
      assert_true(max - k <= 3);
    }
    free(s);
  }
}

static jmp_buf oom_jump;
static char oom_seen[300];

/* A handler for the test: remember the activity, jump back. */
static void catch_oom(const char *activity) {
  snprintf(oom_seen, sizeof oom_seen, "%s", activity);
  longjmp(oom_jump, 1);
}

static void test_oom_handler(void **state) {
  (void)state;
  zo_oom_handler prev = zo_set_oom_handler(catch_oom);
  assert_null(prev); /* the default */
  zo_activity_set("loading %s", "cases/x.yaml");
  assert_string_equal(zo_activity(), "loading cases/x.yaml");
  if (!setjmp(oom_jump)) zo_oom(NULL);
  assert_string_equal(oom_seen, "loading cases/x.yaml");
  if (!setjmp(oom_jump)) zo_oom("writing the run record");
  assert_string_equal(oom_seen, "writing the run record");
  /* an allocation that cannot be: the handler, never NULL */
  if (!setjmp(oom_jump)) {
    void *p = zo_xcalloc(SIZE_MAX / 2, 4);
    free(p);
    fail_msg("zo_xcalloc returned");
  }
  assert_string_equal(oom_seen, "loading cases/x.yaml");
  zo_activity_set(NULL);
  assert_string_equal(zo_activity(), "");
  /* a long activity is cut on a character boundary */
  char big[600];
  for (size_t i = 0; i + 3 < sizeof big; i += 3) memcpy(big + i, "\xE2\x82\xAC", 3);
  big[597] = 0;
  zo_activity_set("x%s", big);
  assert_true(valid(zo_activity()));
  zo_set_oom_handler(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_prefix), cmocka_unit_test(test_cut),    cmocka_unit_test(test_sanitize),
      cmocka_unit_test(test_copy),         cmocka_unit_test(test_snprintf), cmocka_unit_test(test_join),
      cmocka_unit_test(test_random),       cmocka_unit_test(test_oom_handler),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
