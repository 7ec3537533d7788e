/* table.h: the transition table of a rule set (`zoneoracle table`, and a
 * section of the HTML report): for each kind of object the rule set knows
 * and each pair of zones (each position of an ordered zone), what a move
 * does in the model. Every cell is a small game played by the model
 * itself (model.h: zo_game_new, zo_game_apply, zo_game_observe), never a
 * rule written again here: the object is set up in its origin (or moved
 * there from where it can be set up), marked, moved by an effect to the
 * destination, then a state check is made; the cell is what the model
 * then shows. So the table follows the model and its rule sets, and is
 * where a reader reviews them against the rules text.
 *
 * The table is built as JSON (the one form the text, Markdown and HTML
 * writers read), its identical cells grouped: one row per set of
 * destinations with the same result, origins with the same rows merged,
 * and an object whose rows are all another's "same as" that one. */
#ifndef ZO_TABLE_H
#define ZO_TABLE_H

#include <stdio.h>

#include "error.h"
#include "ruleset.h"

struct json_t;

/* The transition table of rule set rs (registered: zo_ruleset_find finds
 * its id, as a case naming it needs) as a new JSON object (the caller
 * decrefs it; shape in oracle/src/run/table.c's header and README.md):
 * {ruleset, title, players, legend, cells, rows, objects: [...]}.
 * ZO_ERR_UNKNOWN with err naming the id when rs is not registered, or
 * ZO_ERR_SETUP when rs lists no rule a case could cite; never fails
 * otherwise (a cell the model refuses is a result of the table). Borrows
 * rs for the call. Cost: about ten thousand small games for fab, a few
 * thousand for a Magic rule set. */
zo_status zo_table_build(const zo_ruleset *rs, struct json_t **out, zo_error *err);

/* Write a table of zo_table_build to f as plain text (one block per
 * object, one line per row of destinations) or as Markdown (one table
 * per object). Never fails; f's errors are the caller's to check. */
void zo_table_write_text(const struct json_t *table, FILE *f);
void zo_table_write_markdown(const struct json_t *table, FILE *f);

#endif
