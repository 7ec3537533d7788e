/* ydoc.c: YAML text -> a tree of maps, sequences and scalars with marks.
 *
 * Built on libyaml's event parser (not its document loader) so that the
 * things a rule case must not contain are refused where they occur:
 * anchors and aliases (an alias bomb is also a denial of service), explicit
 * tags, duplicate keys, non-scalar keys, several documents, and nesting
 * deeper than YD_MAX_DEPTH. libyaml marks are 0-based; ydoc stores 1-based
 * lines and columns, as every message prints them.
 */
#include "ydoc.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#define YD_MAX_DEPTH 64
#define YD_MAX_KEYS 1024    /* keys in one map: bounds the duplicate-key scan */
#define YD_MAX_NODES 200000 /* nodes in one document: bounds memory and time */
#define YD_MAX_FILE (16u * 1024u * 1024u)

static size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp, const char **why);

zo_status yd_fail(zo_error *err, const yd_doc *doc, const yd_node *at,
                  zo_status code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    zo_vsnprintf_utf8(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->code = code;
    snprintf(err->file, sizeof err->file, "%s",
             doc && doc->file ? doc->file : "");
    err->line = at ? at->line : 0;
    err->column = at ? at->col : 0;
  }
  return code;
}

static void node_free(yd_node *n) {
  if (!n) return;
  for (size_t i = 0; i < n->nk; i++) node_free(n->kids[i]); /* incl. a key left without its value */
  free(n->kids);
  free(n->str);
  free(n);
}

void yd_free(yd_doc *doc) {
  if (!doc) return;
  node_free(doc->root);
  free(doc->file);
  doc->root = NULL;
  doc->file = NULL;
}

static yd_node *node_new(yd_kind kind, const yaml_mark_t *m) {
  yd_node *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->kind = kind;
  n->line = (int)m->line + 1;
  n->col = (int)m->column + 1;
  return n;
}

static int node_push(yd_node *parent, yd_node *kid) {
  if (parent->nk == parent->cap) {
    size_t ncap = parent->cap ? parent->cap * 2 : 4;
    yd_node **k = realloc(parent->kids, ncap * sizeof *k);
    if (!k) return -1;
    parent->kids = k;
    parent->cap = ncap;
  }
  parent->kids[parent->nk++] = kid;
  if (parent->kind == YD_SEQ) parent->n = parent->nk;
  else parent->n = parent->nk / 2;
  return 0;
}

yd_node *yd_get(const yd_node *map, const char *key) {
  if (!map || map->kind != YD_MAP) return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(YD_KEY(map, i)->str, key) == 0) return YD_VAL(map, i);
  return NULL;
}

int yd_is_null(const yd_node *n) {
  if (!n || n->kind != YD_SCALAR || !n->plain) return 0;
  return n->str[0] == 0 || strcmp(n->str, "null") == 0 ||
         strcmp(n->str, "~") == 0 || strcmp(n->str, "Null") == 0 ||
         strcmp(n->str, "NULL") == 0;
}

typedef struct {
  yd_node *stack[YD_MAX_DEPTH + 1];
  int depth;
  long nodes;
} builder;

static zo_status fail_mark(zo_error *err, const yd_doc *doc,
                           const yaml_mark_t *m, zo_status code,
                           const char *msg) {
  yd_node at = {.line = (int)m->line + 1, .col = (int)m->column + 1};
  return yd_fail(err, doc, &at, code, "%s", msg);
}

/* Attach a finished node to the container on top of the stack. */
static zo_status attach(builder *b, yd_doc *doc, yd_node *n, zo_error *err) {
  if (b->depth == 0) {
    doc->root = n;
    return ZO_OK;
  }
  yd_node *top = b->stack[b->depth - 1];
  if (++b->nodes > YD_MAX_NODES) {
    zo_status s = yd_fail(err, doc, n, ZO_ERR_SYNTAX, "more than %d values in one file",
                          YD_MAX_NODES);
    node_free(n);
    return s;
  }
  if (top->kind == YD_MAP && top->nk % 2 == 0 && top->n >= YD_MAX_KEYS) {
    zo_status s = yd_fail(err, doc, n, ZO_ERR_SYNTAX, "more than %d keys in one map",
                          YD_MAX_KEYS);
    node_free(n);
    return s;
  }
  if (top->kind == YD_MAP && top->nk % 2 == 0) { /* a key */
    if (n->kind != YD_SCALAR) {
      zo_status s = yd_fail(err, doc, n, ZO_ERR_SYNTAX,
                            "a map key must be a plain name, not a %s",
                            n->kind == YD_MAP ? "map" : "sequence");
      node_free(n);
      return s;
    }
    for (size_t i = 0; i < top->n; i++)
      if (strcmp(YD_KEY(top, i)->str, n->str) == 0) {
        zo_status s = yd_fail(err, doc, n, ZO_ERR_SYNTAX,
                              "duplicate key '%s' (first at line %d)", n->str,
                              YD_KEY(top, i)->line);
        node_free(n);
        return s;
      }
  }
  if (node_push(top, n)) zo_oom(NULL); /* one out-of-memory policy (util.h) */
  return ZO_OK;
}

/* ydoc.h: one UTF-8 character (utf8_decode without the reason). */
size_t yd_utf8_char(const unsigned char *s, size_t n, unsigned *cp) {
  const char *why;
  return n ? utf8_decode(s, n, cp, &why) : 0;
}

/* Decode one UTF-8 character at s[0..n) (n >= 1): its code point in *cp and
 * its length, or 0 with *why set when the bytes are not UTF-8 (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp, const char **why) {
  unsigned c = s[0];
  size_t len;
  unsigned min;
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  if (c >= 0xC2 && c <= 0xDF) len = 2, min = 0x80, c &= 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, min = 0x800, c &= 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, min = 0x10000, c &= 0x07;
  else {
    *why = c >= 0x80 && c <= 0xBF ? "a continuation byte without a lead byte"
                                  : "a byte that never starts a character";
    return 0;
  }
  for (size_t i = 1; i < len; i++) {
    if (i >= n || (s[i] & 0xC0) != 0x80) {
      *why = "a character cut short";
      return 0;
    }
    c = (c << 6) | (s[i] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
    *why = c < min        ? "the start of an overlong encoding"
           : c > 0x10FFFF ? "the start of a code point beyond U+10FFFF"
                          : "the start of an encoded surrogate (U+D800..U+DFFF)";
    return 0;
  }
  *cp = c;
  return len;
}

/* The text must be UTF-8 that YAML may hold (YAML 1.1 5.1 c-printable, as
 * libyaml reads it): refuse the first byte that is not, at its own line and
 * column (libyaml's reader errors carry no position). Lines break at LF,
 * CR LF, CR, NEL, LS and PS and columns count characters, as libyaml's marks
 * do; a byte order mark is allowed only as the very first character.
 * Returns ZO_OK or ZO_ERR_SYNTAX with err filled. */
static zo_status check_encoding(const char *text, size_t len, const yd_doc *doc, zo_error *err) {
  const unsigned char *s = (const unsigned char *)text;
  yd_node at = {.line = 1, .col = 1};
  if (len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF)))
    return yd_fail(err, doc, &at, ZO_ERR_SYNTAX,
                   "the file is UTF-%s (byte order mark %02X %02X): save it as UTF-8",
                   len >= 4 && s[0] == 0xFF && !s[2] && !s[3] ? "32" : "16", s[0], s[1]);
  if (len >= 4 && !s[0] && !s[1] && s[2] == 0xFE && s[3] == 0xFF)
    return yd_fail(err, doc, &at, ZO_ERR_SYNTAX,
                   "the file is UTF-32 (byte order mark 00 00 FE FF): save it as UTF-8");
  size_t i = 0;
  if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) i = 3; /* a leading BOM */
  while (i < len) {
    unsigned cp = 0;
    const char *why = NULL;
    size_t n = utf8_decode(s + i, len - i, &cp, &why);
    if (!n)
      return yd_fail(err, doc, &at, ZO_ERR_SYNTAX,
                     "not UTF-8: byte 0x%02X is %s (the file must be UTF-8 text)", s[i], why);
    if (cp == 0)
      return yd_fail(err, doc, &at, ZO_ERR_SYNTAX,
                     "a NUL byte (U+0000): the file must be text");
    if (cp == 0xFEFF)
      return yd_fail(err, doc, &at, ZO_ERR_SYNTAX,
                     "a byte order mark (U+FEFF) after the start of the file: remove it");
    int printable = cp == 0x09 || cp == 0x0A || cp == 0x0D || (cp >= 0x20 && cp <= 0x7E) ||
                    cp == 0x85 || (cp >= 0xA0 && cp <= 0xD7FF) ||
                    (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
    if (!printable && cp < 0x80)
      return yd_fail(err, doc, &at, ZO_ERR_SYNTAX,
                     "control character U+%04X is not allowed (only tab, line feed and "
                     "carriage return)", cp);
    if (!printable)
      return yd_fail(err, doc, &at, ZO_ERR_SYNTAX,
                     "character U+%04X is not allowed in YAML (a C1 control character or a "
                     "noncharacter)", cp);
    i += n;
    if (cp == 0x0A || cp == 0x85 || cp == 0x2028 || cp == 0x2029 ||
        (cp == 0x0D && !(i < len && s[i] == 0x0A))) {
      at.line++;
      at.col = 1;
    } else if (cp != 0x0D) {
      at.col++;
    }
  }
  return ZO_OK;
}

zo_status yd_parse(const char *file, const char *text, size_t len, yd_doc *out,
                   zo_error *err) {
  memset(out, 0, sizeof *out);
  out->file = zo_xstrdup(file ? file : "<input>");
  zo_sha256_hex(text, len, out->sha256);
  zo_status enc = check_encoding(text, len, out, err);
  if (enc) {
    free(out->file);
    out->file = NULL;
    return enc;
  }
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) zo_oom(NULL);
  yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
  builder b = {.depth = 0};
  zo_status st = ZO_OK;
  int docs = 0, done = 0;
  while (!done && st == ZO_OK) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&p, &ev)) {
      if (p.error == YAML_MEMORY_ERROR) zo_oom(NULL); /* not the file's fault */
      char msg[400];
      snprintf(msg, sizeof msg, "YAML syntax: %s%s%s",
               p.problem ? p.problem : "malformed input",
               p.context ? " " : "", p.context ? p.context : "");
      st = fail_mark(err, out, &p.problem_mark, ZO_ERR_SYNTAX, msg);
      break;
    }
    switch (ev.type) {
    case YAML_STREAM_END_EVENT: done = 1; break;
    case YAML_DOCUMENT_START_EVENT:
      if (++docs > 1)
        st = fail_mark(err, out, &ev.start_mark, ZO_ERR_SYNTAX,
                       "more than one YAML document (expected one case per "
                       "file)");
      break;
    case YAML_ALIAS_EVENT:
      st = fail_mark(err, out, &ev.start_mark, ZO_ERR_SYNTAX,
                     "aliases (*name) are not allowed: write the value out");
      break;
    case YAML_SCALAR_EVENT:
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
      const yaml_char_t *anchor =
          ev.type == YAML_SCALAR_EVENT ? ev.data.scalar.anchor
          : ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.anchor
                                                 : ev.data.mapping_start.anchor;
      const yaml_char_t *tag =
          ev.type == YAML_SCALAR_EVENT ? ev.data.scalar.tag
          : ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.tag
                                                 : ev.data.mapping_start.tag;
      if (anchor) {
        st = fail_mark(err, out, &ev.start_mark, ZO_ERR_SYNTAX,
                       "anchors (&name) are not allowed: write the value out");
        break;
      }
      if (tag) {
        st = fail_mark(err, out, &ev.start_mark, ZO_ERR_SYNTAX,
                       "tags (!name) are not allowed");
        break;
      }
      if (ev.type == YAML_SCALAR_EVENT) {
        yd_node *n = node_new(YD_SCALAR, &ev.start_mark);
        if (!n) zo_oom(NULL);
        n->str = zo_xmalloc(ev.data.scalar.length + 1);
        memcpy(n->str, ev.data.scalar.value, ev.data.scalar.length);
        n->str[ev.data.scalar.length] = 0;
        if (strlen(n->str) != ev.data.scalar.length) {
          st = fail_mark(err, out, &ev.start_mark, ZO_ERR_SYNTAX,
                         "a NUL character inside a value");
          node_free(n);
          break;
        }
        n->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        st = attach(&b, out, n, err);
      } else {
        if (b.depth >= YD_MAX_DEPTH) {
          st = fail_mark(err, out, &ev.start_mark, ZO_ERR_SYNTAX,
                         "nesting deeper than 64 levels");
          break;
        }
        yd_node *n = node_new(
            ev.type == YAML_MAPPING_START_EVENT ? YD_MAP : YD_SEQ,
            &ev.start_mark);
        if (!n) zo_oom(NULL);
        st = attach(&b, out, n, err);
        if (st == ZO_OK) b.stack[b.depth++] = n;
      }
      break;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      b.depth--;
      break;
    default: break;
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&p);
  if (st == ZO_OK && !out->root) {
    yd_node at = {.line = 1, .col = 1};
    st = yd_fail(err, out, &at, ZO_ERR_SCHEMA, "empty document");
  }
  if (st != ZO_OK) {
    /* the partially built tree hangs from root (attached as we went) */
    char *f = out->file;
    out->file = NULL;
    node_free(out->root);
    out->root = NULL;
    free(f);
  }
  return st;
}

zo_status yd_parse_file(const char *path, yd_doc *out, zo_error *err) {
  memset(out, 0, sizeof *out);
  /* opened without blocking, and read only if it is a regular file: a FIFO
     or a device named *.yaml is refused, never waited on */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb;
  FILE *f = NULL;
  if (fd >= 0 && (fstat(fd, &sb) || !S_ISREG(sb.st_mode))) {
    close(fd);
    yd_doc d = {.file = (char *)path};
    return yd_fail(err, &d, NULL, ZO_ERR_IO, "not a regular file");
  }
  if (fd >= 0) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (!(f = fdopen(fd, "rb"))) close(fd);
  }
  if (!f) {
    yd_doc d = {.file = (char *)path};
    return yd_fail(err, &d, NULL, ZO_ERR_IO, "cannot open: %s",
                   strerror(errno));
  }
  size_t cap = 8192, len = 0;
  char *buf = zo_xmalloc(cap);
  for (;;) {
    if (len == cap) {
      if (cap >= YD_MAX_FILE) {
        free(buf);
        fclose(f);
        yd_doc d = {.file = (char *)path};
        return yd_fail(err, &d, NULL, ZO_ERR_IO, "file larger than 16 MiB");
      }
      buf = zo_xrealloc(buf, cap * 2);
      cap *= 2;
    }
    size_t r = fread(buf + len, 1, cap - len, f);
    len += r;
    if (r == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    yd_doc d = {.file = (char *)path};
    return yd_fail(err, &d, NULL, ZO_ERR_IO, "read error");
  }
  zo_status st = yd_parse(path, buf, len, out, err);
  free(buf);
  return st;
}
