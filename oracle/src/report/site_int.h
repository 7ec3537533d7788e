/* site_int.h: what the results site's three files share (private to
 * report/): site.c reads the run records into a zo_site and writes the
 * directory, site_html.c renders the pages from it, and site_data.c
 * holds the small reads both make (site.c -> site_html.c -> site_data.c).
 * report.h declares zo_report_site, the interface. */
#ifndef ZO_SITE_INT_H
#define ZO_SITE_INT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* A case line's status, in the record's words (zo_site_status_word). */
enum {
  ZO_SITE_PASS,
  ZO_SITE_FAIL,
  ZO_SITE_ERROR,
  ZO_SITE_SKIP,
  ZO_SITE_CRASH,
  ZO_SITE_TIMEOUT,
  ZO_SITE_XFAIL, /* a known gap (--expect-failures) that failed */
  ZO_SITE_XPASS, /* a known gap that passed */
  NSTATUS
};

/* One case line of a run: its key (zo_site.keys), status, and the line
 * itself when it did not pass (owned; NULL for a pass). */
typedef struct {
  int key;
  unsigned char st;
  json_t *line;
} zo_site_case;

/* One run record. Strings borrowed from header (or paths). */
typedef struct {
  const char *path;   /* as given (borrowed from the caller) */
  char *shown;        /* path made valid UTF-8, for the pages (owned) */
  int order;          /* its place among the paths given */
  json_t *header;     /* the header line (owned) */
  const char *engine, *version, *started;
  json_t *invalid;    /* its "invalid" lines (owned array) */
  zo_site_case *cases;
  size_t ncases, capcases;
  long long (*cnt)[NSTATUS]; /* per rule set index: cases by status */
  int ncnt;
  long long tot[NSTATUS];    /* over every rule set */
  int row;            /* its row when it is the newest run of its engine and version, else -1 */
  int engine_ix;      /* its engine's index in zo_site.engines */
  char *page;         /* a row's page file name (owned), else NULL */
} zo_site_run;

/* Every record read, and what the pages are computed from. */
typedef struct {
  zo_site_run *runs;   /* in time order after the reading (by started) */
  int nruns;
  json_t *keys;        /* "RULESET\x1fID" -> key index, first-seen order */
  int *key_rs;         /* key -> rule set index */
  size_t nkeys, capkeys;
  json_t *rs_ix;       /* rule set id -> index */
  json_t *rs_names;    /* index -> rule set id (array of strings) */
  json_t *rule_text;   /* "RULESET\x1fRULE" -> the rule's text (newest header's) */
  zo_site_run **rows;  /* the newest run of each engine and version: engine, newest first */
  int nrows;
  json_t **engines;    /* engine names, sorted (strings of engine_names) */
  json_t *engine_names;
  int nengines;
  int **at;            /* [row][key]: index into that row's cases, -1 absent */
  unsigned char *dis;  /* [key]: 1 when the rows disagree on it */
  int ndis;
  char *kbuf;          /* zo_site_pair's scratch */
  size_t kcap;
} zo_site;

/* ---- site_data.c ---- */

/* The record's word for status st ("pass", "xfail"...); static storage. */
const char *zo_site_status_word(int st);
/* Whether status st behaved as the rules say: pass, or xpass (a known gap
 * that now passes). Every other status that ran counts against. */
int zo_site_conforms(int st);
/* The status of case key in row, -1 when that run has no such case. */
int zo_site_status(const zo_site *s, int row, int key);
/* Its case line (borrowed), NULL for a pass or an absent case. */
json_t *zo_site_line(const zo_site *s, int row, int key);
/* "a\x1fb" in s's scratch buffer, valid until the next call. */
const char *zo_site_pair(zo_site *s, const char *a, const char *b);

/* The pages (site_html.c), written to f; r is the row's run (engine page)
 * or NULL (index). */
void zo_site_index_page(FILE *f, zo_site *s, zo_site_run *r);
void zo_site_engine_page(FILE *f, zo_site *s, zo_site_run *r);

#endif
