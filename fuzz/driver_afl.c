/* driver_afl.c: AFL++ persistent mode (shared-memory test cases, 100000
 * runs per fork) when built with afl-clang-fast; with any other compiler
 * (or -DZO_AFL_FORKSERVER) it reads one input from stdin or a file per
 * process, which AFL++ drives through its fork server. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional, as in libFuzzer: run once before the fork server starts (so a
   plugin fuzz_diff dlopen()s is loaded, and instrumented, in the parent). */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

#if defined(__AFL_FUZZ_TESTCASE_LEN) && !defined(ZO_AFL_FORKSERVER)
__AFL_FUZZ_INIT();
int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  __AFL_INIT();
  unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
  while (__AFL_LOOP(100000)) LLVMFuzzerTestOneInput(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
  return 0;
}
#else
int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
#ifdef __AFL_HAVE_MANUAL_CONTROL
  __AFL_INIT(); /* the fork server starts here, after the initialization */
#endif
  FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
  if (!f) return 1;
  static uint8_t buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  if (f != stdin) fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  return 0;
}
#endif
