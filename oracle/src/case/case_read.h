/* case_read.h: the case parser's state and the readers its files share
 * (case_parse.c: the file's keys and cards; case_steps.c: the steps;
 * case_expect.c: the expectations; case_fields.c: the names, zones, types
 * and words they are all written with, below the other three: parse ->
 * steps -> expect -> fields, no call back up). Private to the case layer:
 * nothing outside case/ includes it. Every reader checks one node against
 * the case being built and the case's rule sets, and refuses it at its
 * file:line:column through yread (base/yread.h). */
#ifndef ZO_CASE_READ_H
#define ZO_CASE_READ_H

#include "case.h"
#include "yread.h"

/* The most rule sets one case may list (refused at `rulesets:` beyond). */
#define ZO_MAX_CASE_RULESETS 16

/* One case being parsed: the document, the case it fills, and the rule sets
 * its names are checked against (those it lists, in order). */
typedef struct {
  yr_reader r;
  zo_case *c;
  const zo_ruleset *rs[ZO_MAX_CASE_RULESETS];
  int nrs;
  int no_json; /* leave cards_json and each step's json NULL: the case came
                  from a request and is never sent to an engine */
} cr_parser;

/* What a zone name may also be (cr_zone's allow bits). */
enum { CR_OUTSIDE = 1, CR_ANY = 2, CR_ARENA = 4 };

/* Index of s in names[0..n), or -1. */
int cr_index(const char *s, char *const *names, int n);
/* Append a copy of s to *names (*n grows); its index. */
int cr_add_name(char ***names, int *n, const char *s);
/* The index of zone type `name` in c->ztypes, interned when new. */
int cr_ztype(zo_case *c, const char *name);

/* ---- case_fields.c ---------------------------------------------------- */

/* A player of the case (by name) into *out. */
zo_status cr_player(cr_parser *p, const yd_node *n, const char *what, int *out);
/* A card handle of the case (setup cards and those created so far). */
zo_status cr_handle(cr_parser *p, const yd_node *n, const char *what, int *out);
/* A list of card handles into a new array *out (*count of them). */
zo_status cr_handle_list(cr_parser *p, const yd_node *n, const char *what, int **out,
                         int *count);
/* A new name (`as:`): one word without '.', not yet in *names; appended. */
zo_status cr_new_name(cr_parser *p, const yd_node *n, const char *what, char ***names,
                      int *count, int *out);
/* A name defined by an earlier step (trigger, reference, mark...). */
zo_status cr_named(cr_parser *p, const yd_node *n, const char *what, char **names, int count,
                   int *out);
/* A zone as written ("type", "player.type", "player.type.N", and, by the
 * allow bits CR_*, "outside", "any", "arena"), checked against each rule
 * set of the case. */
zo_status cr_zone(cr_parser *p, const yd_node *n, const char *what, int allow,
                  zo_zone_spec *out);
/* A zone written in full (a per-player zone with its player), as text into
 * buf (cap bytes; longer is refused): expectations compare names. */
zo_status cr_zone_text(cr_parser *p, const yd_node *n, const char *what, char *buf, size_t cap);
/* A list of type words, or'ed into *bits as bits of the case (its own words
 * join c->xtypes; the ZO_MAX_XTYPES+1st is refused). */
zo_status cr_types(cr_parser *p, const yd_node *n, const char *what, uint64_t *bits);
/* An object kind (card, token...). */
zo_status cr_kind(cr_parser *p, const yd_node *n, zo_kind *out);
/* up (0) or down (1). */
zo_status cr_face(cr_parser *p, const yd_node *n, int *out);
/* public (1) or private (0). */
zo_status cr_visibility(cr_parser *p, const yd_node *n, int *out);

/* The steps: list seq into c->steps (case_steps.c). */
zo_status cr_steps(cr_parser *p, const yd_node *seq);
/* An expect: map into a new *out, which the caller frees with the step or
 * case even on an error (case_expect.c). */
zo_status cr_expect(cr_parser *p, const yd_node *m, zo_expect **out);

/* Free what step s owns (not s itself; case.c). */
void cr_step_free(zo_step *s);

#endif
