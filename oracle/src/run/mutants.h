/* mutants.h: mutants of the oracle, to measure how strong a gate is
 * (`zoneoracle mutants`, `--mutant NAME`, fuzz_diff against a mutated
 * plugin). A mutant is one cited rule switch of one embedded rule set set
 * to a value another rule set uses for it (oracle/rulesets/RULESETS.md), or one cited zone
 * attribute flipped: the oracle then plays one rule wrong.
 */
#ifndef ZO_MUTANTS_H
#define ZO_MUTANTS_H

#include "ruleset.h"

typedef struct {
  int rs;          /* registry index of the rule set */
  int sw;          /* switch, or -1 for a zone attribute */
  int value;       /* the switch's mutated value */
  int zone, attr;  /* zone attribute: zone type and index of its cited field */
  char name[96];   /* "mtg-2011:new_object=leave_arena", "fab:arsenal.capacity" */
} zo_mutant;

/* Every mutant, in a stable order (equivalent mutants, which no case can
 * tell apart, are left out with the reason in mutants.c). *out is
 * malloc'd; the caller frees it. Returns the count. */
int zo_mutants_list(zo_mutant **out);

/* Put mutant k in force: its rule set's registry slot now holds a mutated
 * copy. Returns the original, for zo_mutant_restore. */
zo_ruleset *zo_mutant_apply(const zo_mutant *k);
void zo_mutant_restore(const zo_mutant *k, zo_ruleset *orig);

/* Put the mutant called `name` in force for the rest of the process.
 * ZO_ERR_USAGE with err filled (and the nearest name) when there is none. */
zo_status zo_mutant_apply_named(const char *name, zo_error *err);

#endif
