/* fuzz_protocol: bytes as zcp/1 request lines into the oracle's server
 * (zoneoracle serve). Every line must get a JSON object answer with `ok`;
 * a crash, a leak, a hang or an answer of another shape is a finding. */
#include <stdlib.h>
#include <string.h>

#include "serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  zo_served *s = zo_served_new();
  size_t at = 0;
  for (int lines = 0; at < size && lines < 64; lines++) {
    const uint8_t *nl = memchr(data + at, '\n', size - at);
    size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
    json_error_t je;
    json_t *req = json_loadb((const char *)data + at, len, 0, &je);
    json_t *res = zo_serve_request(s, req); /* NULL request: a bad_request answer */
    if (!json_is_object(res) || !json_is_boolean(json_object_get(res, "ok"))) abort();
    json_decref(res);
    json_decref(req);
    at += len + 1;
  }
  zo_served_free(s);
  return 0;
}
