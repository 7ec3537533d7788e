/* fuzz_ruleset_load: bytes as a rule set file into the rule set loader
 * (the same loader `--ruleset-file` uses). Errors are fine; crashes, leaks
 * and hangs are not. */
#include "model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  zo_ruleset *rs = NULL;
  zo_error err;
  if (zo_ruleset_load_mem("fuzz.yaml", (const char *)data, size, &rs, &err) == ZO_OK)
    zo_ruleset_free(rs);
  return 0;
}
