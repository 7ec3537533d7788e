/* error.c: the one way the library reports a failure (error.h), and the
 * text people read for it: "file:line:col: error: message", the note, and
 * the source line with a caret. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "util.h"
#include "ydoc.h"

static const char *const status_names[] = {
    "ok", "io", "syntax", "schema", "setup", "unknown", "nomem", "engine", "usage"};

const char *zo_status_name(zo_status s) {
  return (unsigned)s < sizeof status_names / sizeof *status_names ? status_names[s] : "?";
}

zo_status zo_error_setv(zo_error *err, zo_status code, const char *file, int line, int column,
                        const char *fmt, va_list ap) {
  if (!err) return code;
  err->code = code;
  zo_utf8_copy(err->file, sizeof err->file, file ? file : "");
  err->line = line;
  err->column = column;
  err->context[0] = 0;
  err->engine_fault = 0; /* an engine's fault kind, set after this by the engines layer */
  zo_vsnprintf_utf8(err->message, sizeof err->message, fmt, ap);
  return code;
}

zo_status zo_error_set(zo_error *err, zo_status code, const char *file, int line, int column,
                       const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  zo_error_setv(err, code, file, line, column, fmt, ap);
  va_end(ap);
  return code;
}

void zo_error_fault(zo_error *err, int fault) {
  if (err) err->engine_fault = fault;
}

void zo_error_note(zo_error *err, const char *fmt, ...) {
  if (!err) return;
  va_list ap;
  va_start(ap, fmt);
  zo_vsnprintf_utf8(err->context, sizeof err->context, fmt, ap);
  va_end(ap);
}

/* ---- error text for people ------------------------------------------- */

/* The longest quoted line, in characters: a longer one is shown as a
 * window around the column, cut with "..." at character boundaries. */
#define QUOTE_MAX 160

/* Append to out (cap bytes; nothing when it does not fit whole) "\n  " and
 * line `line` of file path, then "\n  " and a caret under character column
 * `col` (both 1-based, counted as ydoc counts them: lines break at LF, CR LF,
 * CR, NEL, LS and PS; a column is one character). Bytes that are not UTF-8
 * and control characters are shown as U+FFFD, one column each, so the quote
 * is valid UTF-8 and the caret stays under its character; a tab stays a tab
 * in both lines. Reads only a regular file (never blocks on a FIFO). */
static void quote_line(const char *path, int line, int col, char *out, size_t cap) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  FILE *f = NULL;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "rb"))) {
    close(fd);
    return;
  }
  size_t len = 0, bufcap = 0;
  unsigned char *text = NULL;
  for (;;) { /* the file, up to the loader's own limit */
    if (len == bufcap) {
      if (bufcap >= (size_t)16 << 20) break;
      bufcap = bufcap ? bufcap * 2 : 8192;
      text = zo_xrealloc(text, bufcap);
    }
    size_t r = fread(text + len, 1, bufcap - len, f);
    if (!r) break;
    len += r;
  }
  fclose(f);
  /* the line's bytes [a, b) */
  size_t a = 0, i = 0;
  if (len >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF) a = i = 3;
  int ln = 1;
  while (i < len && ln < line) {
    unsigned cp = text[i];
    size_t n = yd_utf8_char(text + i, len - i, &cp);
    if (!n) n = 1, cp = 0xFFFD;
    i += n;
    if (cp == 0x0A || cp == 0x85 || cp == 0x2028 || cp == 0x2029 ||
        (cp == 0x0D && !(i < len && text[i] == 0x0A))) {
      ln++;
      a = i;
    }
  }
  if (ln != line) {
    free(text);
    return;
  }
  /* its characters: start byte of each (and a sentinel) */
  size_t nch = 0, capch = 64;
  size_t *at = zo_xmalloc(capch * sizeof *at);
  for (i = a; i < len;) {
    unsigned cp = text[i];
    size_t n = yd_utf8_char(text + i, len - i, &cp);
    if (!n) n = 1, cp = 0xFFFD;
    if (cp == 0x0A || cp == 0x0D || cp == 0x85 || cp == 0x2028 || cp == 0x2029) break;
    if (nch + 2 > capch) at = zo_xrealloc(at, (capch *= 2) * sizeof *at);
    at[nch++] = i;
    i += n;
  }
  at[nch] = i;
  size_t c0 = col > 1 ? (size_t)col - 1 : 0; /* the caret's character */
  if (c0 > nch) c0 = nch;                     /* at most just past the end */
  size_t ws = 0, we = nch;
  if (nch > QUOTE_MAX) {
    ws = c0 > QUOTE_MAX / 3 ? c0 - QUOTE_MAX / 3 : 0;
    if (ws + QUOTE_MAX > nch) ws = nch - QUOTE_MAX;
    we = ws + QUOTE_MAX;
  }
  /* worst case: 3 bytes a character, twice, and the frame */
  size_t need = 2 * (we - ws) * 4 + 32;
  char *q = zo_xmalloc(need);
  size_t k = 0;
  memcpy(q + k, "\n  ", 3), k += 3;
  if (ws > 0) memcpy(q + k, "...", 3), k += 3;
  for (size_t ch = ws; ch < we; ch++) {
    unsigned cp = 0;
    size_t n = yd_utf8_char(text + at[ch], at[ch + 1] - at[ch], &cp);
    int shown = n && (cp == 0x09 || (cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp < 0xA0)));
    if (shown) memcpy(q + k, text + at[ch], n), k += n;
    else memcpy(q + k, "\xEF\xBF\xBD", 3), k += 3;
  }
  if (we < nch) memcpy(q + k, "...", 3), k += 3;
  memcpy(q + k, "\n  ", 3), k += 3;
  if (ws > 0) memcpy(q + k, "   ", 3), k += 3;
  for (size_t ch = ws; ch < c0; ch++)
    q[k++] = ch < nch && text[at[ch]] == '\t' ? '\t' : ' ';
  q[k++] = '^';
  if (k < cap) {
    memcpy(out, q, k);
    out[k] = 0;
  }
  free(q);
  free(at);
  free(text);
}

void zo_error_format(const zo_error *err, char *buf, size_t cap) {
  int w = snprintf(buf, cap, "%s:%d:%d: error: %s", err->file, err->line,
                   err->column, err->message);
  if (w < 0 || (size_t)w >= cap) return;
  size_t used = (size_t)w;
  if (err->context[0]) {
    w = snprintf(buf + used, cap - used, "\nnote: %s", err->context);
    if (w < 0 || (size_t)w >= cap - used) return;
    used += (size_t)w;
  }
  /* the source line with a caret */
  if (err->line > 0) quote_line(err->file, err->line, err->column, buf + used, cap - used);
}

