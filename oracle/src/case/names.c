/* names.c: the words cases and reports use for statuses, outcomes and
 * step error codes (cases/README.md). */
#include <string.h>

#include "zo.h"

static const char *const outcome_names[ZO_OUTCOME_COUNT] = {
    "none",     "moved",  "no_move", "new_object_in_place", "redirected",
    "stayed",   "replaced", "failed", "cleared", "ceased", "rejected", "not_found"};

const char *zo_outcome_name(zo_outcome o) {
  return (unsigned)o < ZO_OUTCOME_COUNT ? outcome_names[o] : "?";
}

int zo_outcome_parse(const char *name) {
  for (int i = 1; i < ZO_OUTCOME_COUNT; i++)
    if (strcmp(name, outcome_names[i]) == 0) return i;
  return -1;
}

static const char *const error_names[ZO_E_COUNT] = {
    "none",  "capacity", "no_zone",  "cannot_hold", "token_left",
    "not_in_zone", "no_controller", "already", "empty", "ordered",
    "wrong_player", "unsupported", "phased_out", "not_found", "not_fired"};

const char *zo_step_error_name(zo_step_error e) {
  return (unsigned)e < ZO_E_COUNT ? error_names[e] : "?";
}

int zo_step_error_parse(const char *name) {
  for (int i = 1; i < ZO_E_COUNT; i++)
    if (strcmp(name, error_names[i]) == 0) return i;
  return -1;
}
