/* table_int.h: what the transition table's files share (private to run/):
 * the zones of the table, and the grouping of its cells into rows
 * (table_group.c) that table.c calls. */
#ifndef ZO_TABLE_INT_H
#define ZO_TABLE_INT_H

#include <jansson.h>

/* An origin (written as a case names the zone) or a destination of the
 * table. Plain storage. */
typedef struct {
  char name[64];     /* destination: "other.library #1"; origin: as zone */
  char zone[48];     /* as written: "owner.weapon.1", "battlefield", "outside" */
  int type;          /* zone type of the rule set; -1 outside, -2 arena */
  int player;        /* 0 owner, 1 other, -1 shared */
  int position;      /* ZO_POS_TOP, ZO_POS_BOTTOM or an index from the top */
  int face_down;     /* the move puts it there face down (face_up_only:'s
                        destination, issue 31) */
} tzone;

/* Add the cells of origin f (cells: an array of {cell}, one per
 * destination of to[0..nto), borrowed) to bykey (result -> {result, tos:
 * {destination: [origins]}}) and order (the results' keys, in order of
 * first appearance), origin named fname. The positions of one ordered
 * zone (consecutive destinations of one zone) become one destination
 * named after the zone when they say the same (all alike, or each put
 * where it was asked: position "as asked", the rules of all); a
 * destination that is the origin's own zone is called "its own zone"
 * (f NULL: none is, the set-up moved the object out of it). */
void zo_table_add_origin(const tzone *to, int nto, const tzone *f, const char *fname, json_t *cells,
                         json_t *bykey, json_t *order);

/* The rows of one object from bykey and order (borrowed): for each
 * result, its destinations grouped by the origins they share ({from:
 * [...], to: [...], result...}), rows of the same origins next to each
 * other. A new array. */
json_t *zo_table_rows(json_t *bykey, json_t *order);

#endif
