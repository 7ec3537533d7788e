/* driver_standalone.c: runs a harness over files and directories without
 * a fuzzing engine (like LLVM's StandaloneFuzzTargetMain), so CTest replays
 * the corpora with any compiler. Exit 0 when every input ran. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  size_t cap = 1 << 16, n = 0, r;
  uint8_t *buf = malloc(cap);
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (!buf) return 1;
  uint8_t *exact = malloc(n ? n : 1); /* exact size, so ASan sees overreads */
  memcpy(exact, buf, n);
  free(buf);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  return 0;
}

static int run_path(const char *path, int *count) {
  struct stat st;
  if (stat(path, &st)) {
    perror(path);
    return 1;
  }
  if (!S_ISDIR(st.st_mode)) {
    (*count)++;
    return run_file(path);
  }
  DIR *d = opendir(path);
  if (!d) return 1;
  struct dirent *de;
  int bad = 0;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", path, de->d_name);
    bad |= run_path(p, count);
  }
  closedir(d);
  return bad;
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int bad = 0, count = 0;
  for (int i = 1; i < argc; i++) bad |= run_path(argv[i], &count);
  printf("%s: %d inputs replayed\n", argv[0], count);
  return bad;
}
