/* fuzz_empty: a harness that does nothing, so ci/bench can put fuzz_moves'
 * exec/s beside the engine's own cost per input. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)data;
  (void)size;
  return 0;
}
