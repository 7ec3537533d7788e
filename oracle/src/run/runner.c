/* runner.c: runs cases against an engine and compares what it observes with
 * what the case expects.
 *
 * For each case file and each of its rule sets: set the engine up, apply the
 * steps one by one, after each step compare the step's `expect:` (outcome,
 * error, objects, zones, counts, triggers, refs, players, visible) with the
 * engine's observation, and at the end the case's `expect:`. The first
 * difference fails the case, naming the file:line of the expectation and
 * expected vs observed. With check_invariants, the engine's own invariant
 * check (zo_game_check for the oracle) runs after every step too; with
 * obs_invariants (--invariants), fuzz/INVARIANTS.md is checked on what the
 * engine shows (obs_check.c), after the setup and after every step.
 */
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "obs_check.h"
#include "obs_diff.h"
#include "util.h"
#include "ydoc.h"

static const char *const status_names[] = {"pass",  "fail",    "error", "skip",
                                           "crash", "timeout", "xfail", "xpass"};
const char *zo_result_status_name(zo_result_status s) { return status_names[s]; }

/* ---- collecting files ----------------------------------------------- */

/* qsort's comparison of two strings (char *). */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A growing list of paths (malloc'd strings). */
typedef struct {
  char **v;
  int n, cap;
} path_list;

/* Append p (taken: the list owns it from now). */
static void push_path(path_list *l, char *p) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 64;
    l->v = zo_xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
  }
  l->v[l->n++] = p;
}

/* Whether s ends with suf. */
static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Fill err (ZO_ERR_IO) naming path; returns ZO_ERR_IO. */
static zo_status collect_fail(zo_error *err, const char *path, const char *why) {
  if (err) {
    memset(err, 0, sizeof *err);
    err->code = ZO_ERR_IO;
    snprintf(err->file, sizeof err->file, "%s", path);
    snprintf(err->message, sizeof err->message, "%s", why);
  }
  return ZO_ERR_IO;
}

/* Check that the regular file path (st: its stat) can be opened for
 * reading, without reading it: opened O_NONBLOCK (should it have turned
 * into a FIFO since the stat, the open cannot block) and checked again on
 * the descriptor. ZO_OK, or ZO_ERR_IO with err naming path. */
static zo_status check_readable(const char *path, const struct stat *st, zo_error *err) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return collect_fail(err, path, strerror(errno));
  struct stat now;
  int same = !fstat(fd, &now) && S_ISREG(now.st_mode) && now.st_dev == st->st_dev && now.st_ino == st->st_ino;
  close(fd);
  return same ? ZO_OK : collect_fail(err, path, "not a regular file (it changed while being read)");
}

/* The directories being walked, outermost first: a directory whose device
 * and inode are among them is reached again through a symlink (or a bind
 * mount) and would be walked forever. */
typedef struct {
  dev_t dev;
  ino_t ino;
  const char *path;
} walk_frame;

/* When path (an entry of directory dir; st its stat) is a symlink to dir
 * itself or to one of its ancestors, even one above where the walk started
 * (`ln -s / cases/root`): ZO_ERR_IO, a symlink loop, with err naming path
 * and the link's text. Else ZO_OK. Compares devices and inodes of dir,
 * dir/.., dir/../.. up to the root. */
static zo_status symlink_to_ancestor(const char *dir, const char *path, const struct stat *st,
                                     zo_error *err) {
  struct stat lst;
  if (lstat(path, &lst) || !S_ISLNK(lst.st_mode)) return ZO_OK;
  size_t len = strlen(dir), cap = len + 64;
  char *up = zo_xmalloc(cap);
  memcpy(up, dir, len + 1);
  struct stat cur;
  int loop = 0;
  if (!stat(up, &cur))
    for (;;) {
      if (cur.st_dev == st->st_dev && cur.st_ino == st->st_ino) {
        loop = 1;
        break;
      }
      if (len + 4 >= cap) up = zo_xrealloc(up, cap *= 2);
      memcpy(up + len, "/..", 4);
      len += 3;
      struct stat parent;
      if (stat(up, &parent) || (parent.st_dev == cur.st_dev && parent.st_ino == cur.st_ino)) break;
      cur = parent; /* up to the root, whose parent is itself */
    }
  free(up);
  if (!loop) return ZO_OK;
  char target[300] = "?", why[400];
  ssize_t n = readlink(path, target, sizeof target - 1);
  target[n > 0 ? n : 1] = 0;
  snprintf(why, sizeof why, "symlink loop: it points at a directory that contains it (-> %s)", target);
  return collect_fail(err, path, why);
}

/* Walk directory dir (st: its stat; depth frames above it in stack),
 * appending its *.yaml and *.yml files to l, in any order (the caller
 * sorts). Names starting with '.' are skipped. ZO_ERR_IO with err naming
 * the path for an unreadable directory or entry, a *.yaml or *.yml entry that
 * is not a regular file (FIFO, socket, device: never opened), and a
 * directory loop. */
static zo_status walk(const char *dir, const struct stat *st, walk_frame **stack, int depth, int *cap,
                      path_list *l, zo_error *err) {
  for (int k = 0; k < depth; k++)
    if ((*stack)[k].dev == st->st_dev && (*stack)[k].ino == st->st_ino) {
      char why[400];
      snprintf(why, sizeof why, "symlink loop: the same directory as %.300s, which contains it",
               (*stack)[k].path);
      return collect_fail(err, dir, why);
    }
  if (depth == *cap) {
    *cap = *cap ? *cap * 2 : 16;
    *stack = zo_xrealloc(*stack, (size_t)*cap * sizeof **stack);
  }
  (*stack)[depth] = (walk_frame){st->st_dev, st->st_ino, dir};
  DIR *d = opendir(dir);
  if (!d) return collect_fail(err, dir, strerror(errno));
  zo_status rc = ZO_OK;
  size_t dlen = strlen(dir);
  int slash = dlen > 0 && dir[dlen - 1] == '/';
  for (;;) {
    errno = 0;
    struct dirent *de = readdir(d);
    if (!de) {
      if (errno) rc = collect_fail(err, dir, strerror(errno));
      break;
    }
    if (de->d_name[0] == '.') continue;
    size_t nlen = strlen(de->d_name);
    char *path = zo_xmalloc(dlen + nlen + 2);
    memcpy(path, dir, dlen);
    if (!slash) path[dlen] = '/';
    memcpy(path + dlen + !slash, de->d_name, nlen + 1);
    int yaml = ends_with(path, ".yaml") || ends_with(path, ".yml");
    struct stat est;
    if (stat(path, &est)) { /* dangling symlink, ELOOP, EACCES on the way... */
      rc = collect_fail(err, path, errno == ELOOP ? "symlink loop (too many levels of symbolic links)"
                                                  : strerror(errno));
    } else if (S_ISDIR(est.st_mode)) {
      rc = symlink_to_ancestor(dir, path, &est, err);
      if (!rc) rc = walk(path, &est, stack, depth + 1, cap, l, err);
    } else if (yaml && !S_ISREG(est.st_mode)) {
      rc = collect_fail(err, path, "not a regular file");
    } else if (yaml) {
      rc = check_readable(path, &est, err);
      if (!rc) {
        push_path(l, path);
        path = NULL;
      }
    }
    free(path);
    if (rc) break;
  }
  closedir(d);
  return rc;
}

/* Named files and walked directories into one list (runner.h): each
 * directory's files sorted, the named paths in their order. */
zo_status zo_collect_cases(const char *const *paths, int npaths, char ***out,
                           int *count, zo_error *err) {
  path_list l = {0};
  walk_frame *stack = NULL;
  int cap = 0;
  zo_status rc = ZO_OK;
  for (int i = 0; i < npaths && !rc; i++) {
    struct stat st;
    if (stat(paths[i], &st)) {
      rc = collect_fail(err, paths[i], errno == ELOOP ? "symlink loop (too many levels of symbolic links)"
                                                      : strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
      int from = l.n;
      rc = walk(paths[i], &st, &stack, 0, &cap, &l, err);
      if (!rc && l.n > from) qsort(l.v + from, (size_t)(l.n - from), sizeof *l.v, cmp_str);
    } else if (!S_ISREG(st.st_mode)) {
      rc = collect_fail(err, paths[i], "not a regular file");
    } else if (!(rc = check_readable(paths[i], &st, err))) {
      push_path(&l, zo_xstrdup(paths[i])); /* a file named: taken whatever its name */
    }
  }
  free(stack);
  if (rc) {
    zo_paths_free(l.v, l.n);
    return rc;
  }
  *out = l.v;
  *count = l.n;
  return ZO_OK;
}

void zo_paths_free(char **paths, int n) {
  for (int i = 0; i < n; i++) free(paths[i]);
  free(paths);
}

/* ---- comparison ------------------------------------------------------- */

typedef struct {
  const zo_case *c;
  const zo_observation *ob, *prev;
  const zo_step_result *r; /* NULL for the final expect */
  zo_case_result *res;
  int step;
} cmpctx;

static char *fmt(const char *f, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static char *fmt(const char *f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return zo_xstrdup(buf);
}

/* "HANDLE.KEY" for a property of an object expectation (its key from the
 * case layer's table). */
static char *prop(const char *h, int index) { return fmt("%s.%s", h, zo_obj_expect_keys[index]); }

static int mismatch(cmpctx *x, int line, char *what, char *expected,
                    char *observed) {
  zo_case_result *r = x->res;
  r->status = RS_FAIL;
  r->line = line;
  r->step = x->step;
  r->what = what;
  r->expected = expected;
  r->observed = observed;
  r->message = fmt("%s:%d: %s: expected %s, observed %s", x->c->file, line,
                   what, expected, observed);
  return 1;
}

static const char *pname(const zo_case *c, int p) {
  return p >= 0 && p < c->nplayers ? c->players[p] : "null";
}

static const char *hname(const zo_case *c, int h) {
  return h >= 0 && h < c->nhandles ? c->handles[h] : "null";
}

static const char *bstr(int b) { return b ? "true" : "false"; }

/* An object of a zone and its observed position, for sorting. */
typedef struct { int position, handle; } zone_member;

/* qsort order of zone members: by position, then handle (so the sort is
 * stable over members collected in handle order). */
static int by_position(const void *a, const void *b) {
  const zone_member *x = a, *y = b;
  if (x->position != y->position) return x->position < y->position ? -1 : 1;
  return (x->handle > y->handle) - (x->handle < y->handle);
}

/* Handles at top level of a zone, in order (ordered zones: by position,
 * ties in handle order) or as a set (handle order). out has room for every
 * handle of the observation (all of a zone's members are returned, so
 * counts and zones compare whole zones); O(n log n) in the zone's size. */
static int zone_members(const cmpctx *x, const char *zone, int *out, int *ordered) {
  int n = 0;
  *ordered = 0;
  for (int h = 0; h < x->ob->nhandles; h++) {
    const zo_obj_obs *o = &x->ob->objs[h];
    if (!o->exists || o->under >= 0 || strcmp(o->zone, zone)) continue;
    if (o->position >= 0) *ordered = 1;
    out[n++] = h;
  }
  if (*ordered && n > 1) { /* sort by position */
    zone_member *m = zo_xcalloc((size_t)n, sizeof *m);
    for (int i = 0; i < n; i++) m[i] = (zone_member){x->ob->objs[out[i]].position, out[i]};
    qsort(m, (size_t)n, sizeof *m, by_position);
    for (int i = 0; i < n; i++) out[i] = m[i].handle;
    free(m);
  }
  return n;
}

static char *list_names(const zo_case *c, const int *h, int n) {
  char buf[1024];
  size_t used = 0;
  buf[used++] = '[';
  for (int i = 0; i < n && used < sizeof buf - 64; i++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", hname(c, h[i]));
  snprintf(buf + used, sizeof buf - used, "]");
  return zo_xstrdup(buf);
}

static int cmp_obj(cmpctx *x, const zo_obj_expect *e) {
  const zo_case *c = x->c;
  const zo_obj_obs *o = &x->ob->objs[e->handle];
  const char *h = c->handles[e->handle];
#define LN(bit) (e->lines[__builtin_ctz(bit)] ? e->lines[__builtin_ctz(bit)] : e->line)
  if ((e->mask & OX_EXISTS) && e->exists != o->exists)
    return mismatch(x, LN(OX_EXISTS), prop(h, OX_EXISTS_INDEX), fmt("%s", bstr(e->exists)),
                    fmt("%s", bstr(o->exists)));
  if ((e->mask & OX_ZONE) && (!o->exists || strcmp(e->zone, o->zone)))
    return mismatch(x, LN(OX_ZONE), prop(h, OX_ZONE_INDEX), fmt("%s", e->zone),
                    o->exists ? fmt("%s", o->zone) : fmt("(ceased to exist)"));
  if ((e->mask & OX_NEW)) {
    int is_new = x->prev && o->object != x->prev->objs[e->handle].object;
    if (is_new != e->is_new)
      return mismatch(x, LN(OX_NEW), prop(h, OX_NEW_INDEX), fmt("%s", bstr(e->is_new)),
                      fmt("%s", bstr(is_new)));
  }
  if (e->mask & OX_SAME_AS) {
    int same = x->ob->ref_found[e->same_as] && x->ob->ref_handle[e->same_as] == e->handle;
    if (!same)
      return mismatch(x, LN(OX_SAME_AS), prop(h, OX_SAME_AS_INDEX), fmt("the object '%s' remembered", c->refs[e->same_as]),
                      fmt("a different object"));
  }
  if ((e->mask & OX_POSITION) && e->position != o->position)
    return mismatch(x, LN(OX_POSITION), prop(h, OX_POSITION_INDEX), fmt("%d", e->position),
                    o->position < 0 ? fmt("(not in an ordered zone)") : fmt("%d", o->position));
  if ((e->mask & OX_LAYER) && e->layer != o->layer)
    return mismatch(x, LN(OX_LAYER), prop(h, OX_LAYER_INDEX), fmt("%d", e->layer),
                    o->layer < 0 ? fmt("(not on the stack)") : fmt("%d", o->layer));
  if ((e->mask & OX_VISIBILITY) && e->visibility != o->visibility)
    return mismatch(x, LN(OX_VISIBILITY), prop(h, OX_VISIBILITY_INDEX),
                    fmt("%s", e->visibility ? "public" : "private"),
                    fmt("%s", o->visibility ? "public" : "private"));
  if ((e->mask & OX_FACE) && e->face != o->face_down)
    return mismatch(x, LN(OX_FACE), prop(h, OX_FACE_INDEX), fmt("%s", e->face ? "down" : "up"),
                    fmt("%s", o->face_down ? "down" : "up"));
  if ((e->mask & OX_CONTROLLER) && e->controller != o->controller)
    return mismatch(x, LN(OX_CONTROLLER), prop(h, OX_CONTROLLER_INDEX), fmt("%s", pname(c, e->controller)),
                    fmt("%s", pname(c, o->controller)));
  if ((e->mask & OX_OWNER) && e->owner != o->owner)
    return mismatch(x, LN(OX_OWNER), prop(h, OX_OWNER_INDEX), fmt("%s", pname(c, e->owner)),
                    fmt("%s", pname(c, o->owner)));
  if ((e->mask & OX_UNDER) && e->under != o->under)
    return mismatch(x, LN(OX_UNDER), prop(h, OX_UNDER_INDEX), fmt("%s", hname(c, e->under)),
                    fmt("%s", hname(c, o->under)));
  if ((e->mask & OX_ATTACHED_TO) && e->attached_to != o->attached_to)
    return mismatch(x, LN(OX_ATTACHED_TO), prop(h, OX_ATTACHED_TO_INDEX), fmt("%s", hname(c, e->attached_to)),
                    fmt("%s", hname(c, o->attached_to)));
  if ((e->mask & OX_ATTACHED_TO_PLAYER) && e->attached_to_player != o->attached_player)
    return mismatch(x, LN(OX_ATTACHED_TO_PLAYER), prop(h, OX_ATTACHED_TO_PLAYER_INDEX),
                    fmt("%s", pname(c, e->attached_to_player)), fmt("%s", pname(c, o->attached_player)));
  if ((e->mask & OX_PHASED) && e->phased != o->phased_out)
    return mismatch(x, LN(OX_PHASED), prop(h, OX_PHASED_INDEX), fmt("%s", bstr(e->phased)),
                    fmt("%s", bstr(o->phased_out)));
  if (e->mask & OX_CAME_FROM) {
    const char *want = e->came_from_null ? "" : e->came_from;
    if (strcmp(want, o->came_from))
      return mismatch(x, LN(OX_CAME_FROM), prop(h, OX_CAME_FROM_INDEX), fmt("%s", want[0] ? want : "null"),
                      fmt("%s", o->came_from[0] ? o->came_from : "null"));
  }
  if (e->mask & OX_MARKS) {
    int ok = e->nmarks == o->nmarks;
    for (int i = 0; ok && i < e->nmarks; i++) {
      int found = 0;
      for (int j = 0; j < o->nmarks; j++)
        if (!strcmp(e->marks[i], c->marknames[o->marks[j]])) found = 1;
      ok = found;
    }
    if (!ok) {
      char eb[512] = "[", obuf[512] = "[";
      for (int i = 0; i < e->nmarks; i++)
        snprintf(eb + strlen(eb), sizeof eb - strlen(eb), "%s%s", i ? ", " : "", e->marks[i]);
      for (int j = 0; j < o->nmarks; j++)
        snprintf(obuf + strlen(obuf), sizeof obuf - strlen(obuf), "%s%s", j ? ", " : "", c->marknames[o->marks[j]]);
      strcat(eb, "]");
      strcat(obuf, "]");
      return mismatch(x, LN(OX_MARKS), prop(h, OX_MARKS_INDEX), zo_xstrdup(eb), zo_xstrdup(obuf));
    }
  }
#undef LN
  return 0;
}

static int compare(cmpctx *x, const zo_expect *e) {
  const zo_case *c = x->c;
  if (e->has_outcome && x->r && e->outcome != x->r->outcome)
    return mismatch(x, e->outcome_line, fmt("outcome"), fmt("%s", zo_outcome_name(e->outcome)),
                    fmt("%s", zo_outcome_name(x->r->outcome)));
  if (e->has_error && x->r && e->error != x->r->error)
    return mismatch(x, e->error_line, fmt("error"), fmt("%s", zo_step_error_name(e->error)),
                    fmt("%s", zo_step_error_name(x->r->error)));
  for (int i = 0; i < e->nobjs; i++)
    if (cmp_obj(x, &e->objs[i])) return 1;
  int *got = NULL;                /* a zone's members: room for every handle */
  unsigned char *member = NULL;   /* [nhandles]: 1 for a member (sets) */
  if (e->nzones || e->ncounts) got = zo_xcalloc((size_t)x->ob->nhandles + 1, sizeof *got);
  for (int i = 0; i < e->nzones; i++) {
    const zo_zone_expect *z = &e->zones[i];
    int ordered;
    int n = zone_members(x, z->zone, got, &ordered);
    int ok = n == z->n;
    if (ok && !ordered) { /* as a set: each expected handle is a member */
      if (!member) member = zo_xcalloc((size_t)x->ob->nhandles + 1, 1);
      for (int j = 0; j < n; j++) member[got[j]] = 1;
      for (int k = 0; ok && k < n; k++)
        ok = z->handles[k] >= 0 && z->handles[k] < x->ob->nhandles && member[z->handles[k]];
      for (int j = 0; j < n; j++) member[got[j]] = 0;
    }
    for (int k = 0; ok && ordered && k < n; k++) ok = got[k] == z->handles[k];
    if (!ok) {
      int r = mismatch(x, z->line, fmt("zones.%s", z->zone), list_names(c, z->handles, z->n),
                       list_names(c, got, n));
      free(got);
      free(member);
      return r;
    }
  }
  free(member);
  for (int i = 0; i < e->ncounts; i++) {
    const zo_count_expect *z = &e->counts[i];
    int ordered;
    int n = zone_members(x, z->zone, got, &ordered);
    if (n != z->count) {
      free(got);
      return mismatch(x, z->line, fmt("counts.%s", z->zone), fmt("%d", z->count), fmt("%d", n));
    }
  }
  free(got);
  for (int i = 0; i < e->ntriggers; i++) {
    const zo_trig_expect *t = &e->triggers[i];
    const char *nm = c->triggers[t->index];
    int fired = x->ob->trig_fired[t->index], found = x->ob->trig_found[t->index] > 0;
    if ((t->mask & 1) && t->fired != fired)
      return mismatch(x, t->line, fmt("triggers.%s.fired", nm), fmt("%s", bstr(t->fired)), fmt("%s", bstr(fired)));
    if ((t->mask & 2) && t->found != found)
      return mismatch(x, t->line, fmt("triggers.%s.found", nm), fmt("%s", bstr(t->found)), fmt("%s", bstr(found)));
    if ((t->mask & 4) && t->controller != x->ob->trig_controller[t->index])
      return mismatch(x, t->line, fmt("triggers.%s.controller", nm), fmt("%s", pname(c, t->controller)),
                      fmt("%s", pname(c, x->ob->trig_controller[t->index])));
  }
  for (int i = 0; i < e->nrefs; i++) {
    const zo_trig_expect *t = &e->refs[i];
    int found = x->ob->ref_found[t->index];
    if ((t->mask & 2) && t->found != found)
      return mismatch(x, t->line, fmt("refs.%s.found", c->refs[t->index]), fmt("%s", bstr(t->found)),
                      fmt("%s", bstr(found)));
  }
  for (int i = 0; i < e->nplayers; i++) {
    const zo_trig_expect *t = &e->players[i];
    if ((t->mask & 1) && t->fired != x->ob->lost[t->index])
      return mismatch(x, t->line, fmt("players.%s.lost", c->players[t->index]), fmt("%s", bstr(t->fired)),
                      fmt("%s", bstr(x->ob->lost[t->index])));
  }
  for (int i = 0; i < e->nvisible; i++) {
    const zo_visible_expect *v = &e->visible[i];
    const char *pl = c->players[v->player];
    for (int k = 0; k < v->nsees; k++)
      if (!x->ob->sees[v->player * x->ob->nhandles + v->sees[k]])
        return mismatch(x, v->line, fmt("visible.%s.sees", pl), fmt("%s may look at %s", pl, hname(c, v->sees[k])),
                        fmt("%s is hidden from %s", hname(c, v->sees[k]), pl));
    for (int k = 0; k < v->nhidden; k++)
      if (x->ob->sees[v->player * x->ob->nhandles + v->hidden[k]])
        return mismatch(x, v->line, fmt("visible.%s.hidden", pl), fmt("%s hidden from %s", hname(c, v->hidden[k]), pl),
                        fmt("%s may look at it", pl));
  }
  return 0;
}

/* ---- --strict: every observable property against the oracle ------- */

/* First difference between the engine's observation (a) and the oracle's
 * (b) after a step, as "what: engine X, oracle Y" (obs_diff.h: every
 * observable property). Returns 0 when they agree. */
static int strict_diff(const zo_case *c, const zo_observation *a, const zo_observation *b,
                       const zo_observation *pa, const zo_observation *pb,
                       const zo_step_result *ra, const zo_step_result *rb, char *out, size_t cap) {
  zo_obs_difference d;
  if (!zo_observation_diff(c, a, b, pa, pb, ra, rb, &d)) return 0;
  zo_obs_difference_format(c, &d, out, cap);
  return 1;
}

/* ---- running ---------------------------------------------------------- */

static void engine_error(zo_case_result *res, const zo_case *c, int step,
                         const zo_error *err) {
  /* the process engine says what kind of failure it was */
  res->status = err->engine_fault == ZO_ENGINE_FAULT_TIMEOUT       ? RS_TIMEOUT
                : err->engine_fault == ZO_ENGINE_FAULT_CRASH       ? RS_CRASH
                : err->engine_fault == ZO_ENGINE_FAULT_UNSUPPORTED ? RS_SKIP
                                                                   : RS_ERROR;
  res->step = step;
  res->line = step > 0 ? c->steps[step - 1].line : 1;
  res->what = fmt("engine");
  res->message = fmt("%s:%d: %s: %s", c->file, res->line,
                     res->status == RS_SKIP ? "skipped" : "engine error", err->message);
}

/* --invariants: a violation on the engine's observation fails the case
 * at that step (0 = the setup), named like the oracle's own check. */
static void obs_violation(zo_case_result *res, const zo_case *c, const zo_ruleset *rs, int step,
                          const zo_obs_violation *v) {
  char cite[160], rules[168] = "";
  if (zo_ruleset_cite(rs, v->rule, cite, sizeof cite)[0]) snprintf(rules, sizeof rules, " (%s)", cite);
  res->status = RS_FAIL;
  res->step = step;
  res->line = step > 0 ? c->steps[step - 1].line : 1;
  if (step == 0) /* the setup: the card's own line */
    for (int i = 0; i < c->ncards; i++)
      if (c->cards[i].handle == v->handle) res->line = c->cards[i].line;
  res->what = fmt("invariant %s", v->invariant);
  if (step > 0)
    res->message = fmt("%s:%d: invariant %s%s broken after step %d (%s): %s", c->file, res->line,
                       v->invariant, rules, step, zo_step_kind_name(c->steps[step - 1].kind),
                       v->detail);
  else
    res->message = fmt("%s:%d: invariant %s%s broken after the setup: %s", c->file, res->line,
                       v->invariant, rules, v->detail);
}

/* The features e declares, as bits 1 << zo_feature (engine.h: its
 * `features`, else its `has` read as a zcp/2 engine's). */
static uint64_t declared(zo_engine *e) {
  if (e->ops->features) return e->ops->features(e->self);
  return zo_features_declared(e->ops->has, e->self, 2);
}

/* Whether e declares every feature (the oracle; nothing to check). */
static int declares_all(zo_engine *e) { return !e->ops->has && !e->ops->features; }

/* The protocol features a case needs (ci/protocol/PROTOCOL.md) from its
 * steps and expectations and its `features:` key, as far as they show
 * without playing it; the first one `e` lacks, or NULL. */
static const char *missing_feature(zo_engine *e, const zo_case *c) {
  if (declares_all(e)) return NULL;
  uint64_t d = declared(e);
#define LACKS(f) (!((d >> (f)) & 1u))
  for (int i = 0; i < c->nfeatures; i++) {
    zo_feature f = zo_feature_parse(c->features[i]);
    if (f == FT_NONE ? !(e->ops->has && e->ops->has(e->self, c->features[i], 0)) : LACKS(f))
      return c->features[i];
  }
  for (int i = 0; i < c->nsteps; i++) {
    uint64_t need = zo_case_step_features(c, &c->steps[i]) & ~d;
    for (int f = 0; need && f < FT_COUNT; f++)
      if (need >> f & 1) return zo_feature_name((zo_feature)f);
  }
  for (int i = 0; i < c->ncards; i++) {
    if (c->cards[i].under >= 0 && LACKS(FT_SUB_CARDS)) return zo_feature_name(FT_SUB_CARDS);
    if (c->cards[i].face_down && LACKS(FT_FACE_DOWN)) return zo_feature_name(FT_FACE_DOWN);
  }
  if (c->expect && c->expect->nvisible && LACKS(FT_VISIBILITY)) return zo_feature_name(FT_VISIBILITY);
  for (int i = 0; c->expect && i < c->expect->nobjs; i++)
    if ((c->expect->objs[i].mask & OX_LAYER) && LACKS(FT_STACK_LAYERS))
      return zo_feature_name(FT_STACK_LAYERS);
  for (int i = 0; c->expect && i < c->expect->nobjs; i++)
    if ((c->expect->objs[i].mask & OX_ATTACHED_TO) && LACKS(FT_ATTACHMENTS))
      return zo_feature_name(FT_ATTACHMENTS);
  for (int i = 0; c->expect && i < c->expect->nobjs; i++)
    if ((c->expect->objs[i].mask & OX_ATTACHED_TO_PLAYER) && LACKS(FT_ATTACH_PLAYER))
      return zo_feature_name(FT_ATTACH_PLAYER);
#undef LACKS
  return NULL;
}

/* The features whose meaning the oracle's own play of c under rs relied
 * on beyond what its steps show (zo_game_features_used: together_order,
 * marks.refused, zone_rules, and a cast refused for its costs or a move as
 * a draw refused: cant_costs, unpaid_costs, cant_draw_moves), when e lacks
 * one of them; the first e lacks, or NULL.
 * A case the oracle cannot set up needs nothing more (the engine's answer
 * is what counts then). */
static const char *missing_played_feature(zo_engine *e, const zo_case *c, const zo_ruleset *rs) {
  if (declares_all(e)) return NULL;
  const uint64_t played =
      (uint64_t)1 << FT_TOGETHER_ORDER | (uint64_t)1 << FT_MARKS_REFUSED | (uint64_t)1 << FT_CREATED_OWNER |
      (uint64_t)1 << FT_FACE_DOWN_INSTANTS | (uint64_t)1 << FT_ZONE_RULES |
      (uint64_t)1 << FT_CANT_COSTS | (uint64_t)1 << FT_UNPAID_COSTS | (uint64_t)1 << FT_CANT_DRAW_MOVES;
  uint64_t lacks = played & ~declared(e);
  if (!lacks) return NULL;
  zo_game *g;
  if (zo_game_new(rs, c, &g, NULL)) return NULL;
  for (int i = 0; i < c->nsteps && !(zo_game_features_used(g) & lacks); i++) {
    zo_step_result r = {0};
    zo_game_apply(g, &c->steps[i], &r);
    zo_step_result_free(&r);
  }
  uint64_t need = zo_game_features_used(g) & lacks;
  zo_game_free(g);
  for (int f = 0; need && f < FT_COUNT; f++)
    if (need >> f & 1) return zo_feature_name((zo_feature)f);
  return NULL;
}

/* ---- steps in batches (plain gate over zcp/2) --------------------------- */

/* Steps per `run` when a case is played in batches, and the fewest steps
 * a case needs to be (a short case gains little from it). */
#define BATCH_STEPS 256
#define BATCH_MIN 16

/* A batch of steps played as one `run` with deltas, read one step at a
 * time. The loop keeps two observations a step apart, prev and cur: cur
 * lags prev by the objects the last step changed (dirty), so each step
 * costs what its delta names, not the whole game. */
typedef struct {
  int start, n;             /* steps [start, start + n) */
  int failed;               /* a run failed: the case is played again */
  zo_run_reader *rd;        /* the run's answers */
  int *dirty, ndirty;       /* handles the last step changed (cur lags by them) */
  int *changed;             /* the step being read's (room for every handle) */
  int whole;                /* cur is copied whole from prev at the next step */
} batch;

/* Free what b still holds (NULL: nothing). */
static void batch_clear(batch *b) {
  if (!b) return;
  zo_run_reader_free(b->rd);
  free(b->dirty);
  free(b->changed);
  b->rd = NULL;
  b->dirty = b->changed = NULL;
  b->ndirty = b->n = 0;
}

/* Step i's result into *r (the caller's) and the game after it into *cur,
 * the game before it being *prev: from b's run, which runs the next
 * BATCH_STEPS steps when it holds no more (for i > 0 the game is observed
 * first, and *prev becomes that observation: the deltas are relative to
 * it, PROTOCOL.md 7.5). *cur is the observation the caller swapped with
 * *prev after the last step (or empty). ZO_OK, or the run's error with
 * b->failed set. */
static zo_status batch_next(zo_engine *e, const zo_case *c, batch *b, int i, zo_observation *prev,
                            zo_step_result *r, zo_observation *cur, zo_error *err) {
  if (i >= b->start + b->n) {
    zo_run_reader_free(b->rd);
    b->rd = NULL;
    b->start = i;
    b->n = c->nsteps - i < BATCH_STEPS ? c->nsteps - i : BATCH_STEPS;
    zo_observation seen = {0};
    if (zo_engine_process_run_start(e, c, i, b->n, &seen, &b->rd, err)) {
      zo_observation_free(&seen);
      b->failed = 1;
      return ZO_ERR_ENGINE;
    }
    if (i > 0) {
      zo_observation_free(prev);
      *prev = seen;
    }
    b->whole = 1;
  }
  if (!b->dirty) {
    b->dirty = zo_xcalloc((size_t)c->nhandles + 1, sizeof *b->dirty);
    b->changed = zo_xcalloc((size_t)c->nhandles + 1, sizeof *b->changed);
  }
  if (b->whole || !cur->objs) zo_observation_copy(cur, prev);
  else zo_observation_sync(cur, prev, b->dirty, b->ndirty);
  b->whole = 0;
  int n = 0;
  if (zo_run_reader_next(b->rd, r, cur, b->changed, &n, err)) {
    b->failed = 1;
    return ZO_ERR_ENGINE;
  }
  int *t = b->dirty;
  b->dirty = b->changed;
  b->changed = t;
  b->ndirty = n;
  return ZO_OK;
}

/* Play case c on e from its setup into res (its status and what failed;
 * the caller filled the rest): step by step, each step and observe a
 * request, or, with b, in batches. */
static void play(zo_engine *e, const zo_case *c, const zo_ruleset *rs, const zo_run_options *opt,
                 zo_case_result *res, batch *b) {
  zo_error err = {0};
  if (e->ops->setup(e->self, rs, c, &err)) {
    engine_error(res, c, 0, &err);
    return;
  }
  zo_observation prev = {0}, cur = {0}, oprev = {0}, ocur = {0};
  zo_obs_checker *ock = NULL; /* --invariants */
  zo_engine *ref = opt->strict;
  if (ref && ref->ops->setup(ref->self, rs, c, &err)) ref = NULL; /* the oracle refuses: no strict */
  if (e->ops->observe(e->self, &prev, &err)) {
    engine_error(res, c, 0, &err);
    goto done;
  }
  if (ref) ref->ops->observe(ref->self, &oprev, &err);
  if (opt->obs_invariants) ock = zo_obs_checker_new(rs, c);
  zo_obs_violation ov;
  if (ock && zo_observation_check(ock, NULL, NULL, &prev, &ov)) {
    obs_violation(res, c, rs, 0, &ov);
    goto done;
  }
  if (c->nsteps == 0 && c->expect) {
    /* no steps: the final expect: holds of the setup itself (no object is
       new: nothing happened) */
    cmpctx x = {.c = c, .ob = &prev, .prev = NULL, .r = NULL, .res = res, .step = 0};
    compare(&x, c->expect);
  }
  int at_rest = 0;
  for (int i = 0; i < c->nsteps; i++) {
    const zo_step *s = &c->steps[i];
    zo_step_result r = {0};
    if (b) { /* the result and observation come from a batch */
      if (batch_next(e, c, b, i, &prev, &r, &cur, &err)) {
        zo_step_result_free(&r);
        break; /* played again step by step, to name the step */
      }
    } else if (e->ops->step(e->self, s, &r, &err)) {
      engine_error(res, c, i + 1, &err);
      zo_step_result_free(&r);
      break;
    }
    at_rest = s->kind == ST_STATE_CHECK;
    zo_violation v;
    if (!b && opt->check_invariants && e->ops->check && e->ops->check(e->self, at_rest, &v)) {
      res->status = RS_ERROR;
      res->step = i + 1;
      res->line = s->line;
      res->what = fmt("invariant %s", v.invariant);
      char cite[160], rules[168] = "";
      if (zo_ruleset_cite(rs, v.rule, cite, sizeof cite)[0]) snprintf(rules, sizeof rules, " (%s)", cite);
      res->message = fmt("%s:%d: invariant %s%s broken after step %d (%s): %s", c->file,
                         s->line, v.invariant, rules, i + 1, zo_step_kind_name(s->kind), v.detail);
      zo_step_result_free(&r);
      break;
    }
    if (!b && e->ops->observe(e->self, &cur, &err)) {
      engine_error(res, c, i + 1, &err);
      zo_step_result_free(&r);
      break;
    }
    int bad = 0;
    if (ock && zo_observation_check(ock, s, &r, &cur, &ov)) {
      obs_violation(res, c, rs, i + 1, &ov);
      bad = 1;
    }
    if (ref && !bad) {
      zo_step_result rr = {0};
      ref->ops->step(ref->self, s, &rr, &err);
      ref->ops->observe(ref->self, &ocur, &err);
      char d[400];
      if (strict_diff(c, &cur, &ocur, &prev, &oprev, &r, &rr, d, sizeof d)) {
        res->status = RS_FAIL;
        res->step = i + 1;
        res->line = s->line;
        res->what = fmt("strict");
        res->message = fmt("%s:%d: strict, after step %d (%s): %s", c->file, s->line, i + 1,
                           zo_step_kind_name(s->kind), d);
        bad = 1;
      }
      zo_step_result_free(&rr);
      zo_observation_free(&oprev);
      oprev = ocur;
      memset(&ocur, 0, sizeof ocur);
    }
    if (!bad && s->expect) {
      cmpctx x = {.c = c, .ob = &cur, .prev = &prev, .r = &r, .res = res, .step = i + 1};
      bad = compare(&x, s->expect);
    }
    zo_step_result_free(&r);
    if (i == c->nsteps - 1 && !bad && c->expect) {
      cmpctx x = {.c = c, .ob = &cur, .prev = &prev, .r = NULL, .res = res, .step = 0};
      bad = compare(&x, c->expect);
    }
    if (b) { /* cur keeps its arrays, a step behind (batch_next) */
      zo_observation t = prev;
      prev = cur;
      cur = t;
    } else {
      zo_observation_free(&prev);
      prev = cur;
      memset(&cur, 0, sizeof cur);
    }
    if (bad) break;
  }
done:
  batch_clear(b);
  zo_obs_checker_free(ock);
  if (e->ops->hits) {
    const int *h = e->ops->hits(e->self);
    if (h) {
      res->hits = zo_xcalloc((size_t)rs->nrules + 1, sizeof *res->hits);
      for (int i = 0; i < rs->nrules; i++)
        if (h[i]) {
          res->hits[res->nhits].id = zo_xstrdup(rs->rules[i].id);
          res->hits[res->nhits].count = h[i];
          res->nhits++;
        }
    }
  }
  zo_observation_free(&prev);
  zo_observation_free(&cur);
  zo_observation_free(&oprev);
  zo_observation_free(&ocur);
  if (ref) ref->ops->teardown(ref->self);
  e->ops->teardown(e->self);
}

/* Forget what a play put into res (its verdict), for playing again. */
static void result_reset(zo_case_result *res) {
  free(res->what);
  free(res->expected);
  free(res->observed);
  free(res->message);
  for (int i = 0; i < res->nhits; i++) free(res->hits[i].id);
  free(res->hits);
  res->what = res->expected = res->observed = res->message = NULL;
  res->hits = NULL;
  res->nhits = 0;
  res->status = RS_PASS;
  res->line = res->step = 0;
}

void zo_run_case(zo_engine *e, const zo_case *c, const zo_ruleset *rs,
                 const zo_run_options *opt, zo_case_result *res) {
  memset(res, 0, sizeof *res);
  double t0 = (zo_now() * 1e3);
  res->case_id = zo_xstrdup(c->id);
  res->title = zo_xstrdup(c->title);
  res->file = zo_xstrdup(c->file);
  res->ruleset = zo_xstrdup(rs->id);
  res->rules = zo_xcalloc((size_t)c->nrules + 1, sizeof *res->rules);
  for (int i = 0; i < c->nrules; i++) res->rules[res->nrules++] = zo_xstrdup(c->rules[i]);
  if (e->ops->has && !e->ops->has(e->self, rs->id, 1)) {
    res->status = RS_SKIP;
    res->message = fmt("skipped: the engine does not declare rule set %s", rs->id);
    goto out;
  }
  char gap[200];
  if (e->ops->capabilities &&
      zo_case_capability_gap(c, e->ops->capabilities(e->self), gap, sizeof gap)) {
    res->status = RS_SKIP;
    res->message = fmt("skipped: %s", gap);
    goto out;
  }
  const char *need = missing_feature(e, c);
  if (!need) need = missing_played_feature(e, c, rs);
  if (need) {
    res->status = RS_SKIP;
    res->message = fmt("skipped: the case needs feature '%s', which the engine does not declare", need);
    goto out;
  }
  /* a long case over zcp/2 goes in batches (PROTOCOL.md 14); a batch
     that fails, or a verdict other than a pass, is played again step by
     step, so that what is reported is what the steps one at a time show */
  if (c->nsteps >= BATCH_MIN && zo_engine_process_can_batch(e)) {
    batch *b = zo_xcalloc(1, sizeof *b);
    play(e, c, rs, opt, res, b);
    int again = b->failed || res->status != RS_PASS;
    free(b);
    if (!again) goto out;
    result_reset(res);
  }
  play(e, c, rs, opt, res, NULL);
out:
  /* what the engine said on stderr during a case that did not pass */
  if (res->status != RS_PASS && res->status != RS_SKIP && e->ops->stderr_text)
    res->stderr_text = e->ops->stderr_text(e->self);
  res->ms = (zo_now() * 1e3) - t0;
}

static void push_result(zo_run *run, zo_case_result *r) {
  if (run->n == run->cap) {
    run->cap = run->cap ? run->cap * 2 : 128;
    run->results = zo_xrealloc(run->results, (size_t)run->cap * sizeof *run->results);
  }
  run->results[run->n++] = *r;
  switch (r->status) {
  case RS_PASS: run->passed++; break;
  case RS_FAIL: run->failed++; break;
  case RS_ERROR: case RS_CRASH: case RS_TIMEOUT: run->errors++; break;
  case RS_SKIP: run->skipped++; break;
  case RS_XFAIL: run->xfailed++; break;
  case RS_XPASS: run->xpassed++; break;
  }
}

/* The case files of this shard after file i. */
static int files_left(const zo_run_options *opt, int i, int nfiles) {
  int left = 0;
  for (int k = i + 1; k < nfiles; k++) left += opt->nshards <= 1 || k % opt->nshards == opt->shard;
  return left;
}

/* Whether --max-fail is reached: then the files not reached are counted. */
static int stop_here(zo_run *run, const zo_run_options *opt, int left) {
  if (opt->max_fail <= 0 || !left) return 0;
  if (run->failed + run->errors + run->xpassed + run->ninvalid < opt->max_fail) return 0;
  run->not_run = left;
  return 1;
}

void zo_run_files(zo_engine *e, char **files, int nfiles,
                  const zo_run_options *opt, zo_run *run) {
  double t0 = (zo_now() * 1e3);
  for (int i = 0; i < nfiles; i++) {
    if (opt->nshards > 1 && i % opt->nshards != opt->shard) continue; /* --shard I/N */
    zo_case *c;
    zo_error err = {0};
    zo_activity_set("loading %s", files[i]);
    zo_status st = zo_case_load_file(files[i], &c, &err);
    if (st == ZO_ERR_NOMEM) zo_oom(NULL); /* never an invalid file for want of memory */
    if (st) {
      char buf[2048];
      zo_error_format(&err, buf, sizeof buf);
      run->invalid = zo_xrealloc(run->invalid, (size_t)(run->ninvalid + 1) * sizeof *run->invalid);
      run->invalid[run->ninvalid].file = zo_xstrdup(files[i]);
      run->invalid[run->ninvalid].message = zo_xstrdup(buf);
      run->ninvalid++;
      if (opt->progress) opt->progress(run, i, nfiles, opt->progress_ctx);
      if (stop_here(run, opt, files_left(opt, i, nfiles))) break;
      continue;
    }
    if (opt->filter && fnmatch(opt->filter, c->id, 0) != 0) {
      zo_case_free(c);
      continue;
    }
    zo_activity_set("running %s", files[i]);
    for (int k = 0; k < c->nrulesets; k++) {
      if (opt->ruleset && strcmp(opt->ruleset, c->rulesets[k])) continue;
      zo_case_result r;
      zo_run_case(e, c, zo_ruleset_find(c->rulesets[k]), opt, &r);
      for (int x = 0; x < opt->nxfail; x++) { /* --expect-failures: the first entry naming it */
        const zo_known_gap *g = &opt->xfail[x];
        if (strcmp(g->id, c->id) || (g->ruleset && strcmp(g->ruleset, c->rulesets[k]))) continue;
        if (r.status == RS_SKIP) break;
        r.status = r.status == RS_PASS ? RS_XPASS : RS_XFAIL;
        r.reason = zo_xstrdup(g->reason ? g->reason : "");
        break;
      }
      push_result(run, &r);
      if (opt->progress) opt->progress(run, i, nfiles, opt->progress_ctx);
    }
    zo_case_free(c);
    if (stop_here(run, opt, files_left(opt, i, nfiles))) break;
  }
  run->ms += (zo_now() * 1e3) - t0;
}

void zo_case_result_clear(zo_case_result *r) {
  free(r->case_id);
  free(r->title);
  free(r->file);
  free(r->ruleset);
  free(r->what);
  free(r->expected);
  free(r->observed);
  free(r->message);
  free(r->reason);
  free(r->stderr_text);
  for (int k = 0; k < r->nrules; k++) free(r->rules[k]);
  free(r->rules);
  for (int k = 0; k < r->nhits; k++) free(r->hits[k].id);
  free(r->hits);
  memset(r, 0, sizeof *r);
}

void zo_run_free(zo_run *run) { zo_run_clear(run); }

void zo_run_clear(zo_run *run) {
  for (int i = 0; i < run->n; i++) zo_case_result_clear(&run->results[i]);
  free(run->results);
  for (int i = 0; i < run->ninvalid; i++) {
    free(run->invalid[i].file);
    free(run->invalid[i].message);
  }
  free(run->invalid);
  memset(run, 0, sizeof *run);
}

const char *zo_case_missing_feature(zo_engine *e, const zo_case *c) {
  return missing_feature(e, c);
}
