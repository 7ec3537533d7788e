/* engines/zcp_fault.c: how an engine's failure is told. The kind is a
 * value (zo_engine_fault, engine.h) and its word the error's note; what an
 * engine wrote (names, messages, its stderr) is made one line of valid
 * UTF-8 before it enters a message; every zo_error is filled through
 * base/error.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "error.h"
#include "zcp_int.h"
#include "ydoc.h"

static const char *const fault_names[] = {"", "timeout", "crash", "error", "answer", "unsupported"};

const char *zo_engine_fault_name(zo_engine_fault f) {
  return (unsigned)f < sizeof fault_names / sizeof *fault_names ? fault_names[f] : "";
}

void zcp_text_put(char *dst, size_t cap, const char *src, size_t n) {
  size_t len = strlen(dst);
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)src[i];
    unsigned cp;
    size_t k = yd_utf8_char((const unsigned char *)src + i, n - i, &cp);
    char esc[8];
    const char *piece = src + i;
    size_t plen = k;
    if (!k) {
      snprintf(esc, sizeof esc, "\\x%02X", ch);
      piece = esc;
      plen = 4;
      k = 1;
    } else if (k == 1 && (ch < 0x20 || ch == 0x7f)) {
      piece = " ";
      plen = 1;
    }
    if (len + plen + 1 > cap) break;
    memcpy(dst + len, piece, plen);
    len += plen;
    i += k;
  }
  dst[len] = 0;
}

void zcp_text_set(char *dst, size_t cap, const char *src) {
  dst[0] = 0;
  if (src) zcp_text_put(dst, cap, src, strlen(src));
}

zo_status zcp_fault(zo_error *err, zo_engine_fault fault, const char *who, const char *what) {
  if (!err) return ZO_ERR_ENGINE;
  char file[sizeof err->file], message[sizeof err->message];
  zcp_text_set(file, sizeof file, who);
  zcp_text_set(message, sizeof message, what);
  zo_error_set(err, ZO_ERR_ENGINE, file, 0, 0, "%s", message);
  if (fault != ZO_ENGINE_FAULT_NONE) zo_error_note(err, "%s", zo_engine_fault_name(fault));
  zo_error_fault(err, (int)fault);
  return ZO_ERR_ENGINE;
}

zo_status zcp_faultf(zo_error *err, zo_engine_fault fault, const char *who, const char *fmt, ...) {
  char what[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return zcp_fault(err, fault, who, what);
}
