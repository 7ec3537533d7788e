/* observation.h: what any engine reports after a step, in the case's terms
 * (handles, zone names, players), and a step's result. The model fills
 * them (zo_game_observe), the engines read them off the wire, the runner
 * compares them. Plain storage owned by the caller; *_free releases the
 * arrays and leaves the struct empty. */
#ifndef ZO_OBSERVATION_H
#define ZO_OBSERVATION_H

#include "case.h"

/* ------------------------------------------------------------------ */
/* Observations (what any engine reports; compared by the runner)     */

#define ZO_MAX_MARKS_PER_OBJ 8
typedef struct {
  int exists;
  char zone[ZO_ZONE_NAME_MAX + 1]; /* full name; "outside"; "" when not existing */
  uint64_t object;        /* identity token: changes exactly on new object */
  int position, layer;    /* -1 when not in an ordered zone */
  int visibility;         /* 1 public, 0 private */
  int face_down;
  int controller;         /* player index, -1 none */
  int owner;
  int under;              /* handle, -1 */
  int attached_to;        /* handle of the permanent it is attached to, -1
                             (CR 301.5, 303.4; zcp: attached_to) */
  int attached_player;    /* the player an Aura is attached to, -1 (CR
                             303.4b; zcp: attached_to_player) */
  int phased_out;
  char came_from[ZO_ZONE_NAME_MAX + 1]; /* "" = none */
  int marks[ZO_MAX_MARKS_PER_OBJ]; int nmarks; /* mark name indices */
} zo_obj_obs;

typedef struct {
  int nhandles;
  zo_obj_obs *objs;           /* [nhandles] */
  int ntriggers;
  int *trig_fired, *trig_found, *trig_controller; /* [ntriggers] */
  int nrefs;
  int *ref_found;             /* [nrefs] */
  int *ref_handle;            /* [nrefs]: handle the reference saw, -1 */
  int nplayers;
  int lost[ZO_MAX_PLAYERS];
  unsigned char *sees;        /* [nplayers * nhandles] */
} zo_observation;

typedef struct {
  int handle;
  zo_outcome outcome;
} zo_event;

typedef struct {
  zo_outcome outcome;
  zo_step_error error;
  zo_event *events; int nevents, capevents; /* owned by the result */
} zo_step_result;

void zo_observation_free(zo_observation *o);
/* dst, freed first, becomes a whole copy of src (its own arrays). */
void zo_observation_copy(zo_observation *dst, const zo_observation *src);
/* dst, an observation of the same case as src (same sizes), takes src's
 * objects of the n handles listed, and all of src's triggers, references,
 * players and visibility: the cost of a step's delta, not of the game
 * (the runner keeps two observations a step apart this way). */
void zo_observation_sync(zo_observation *dst, const zo_observation *src, const int *handles, int n);
void zo_step_result_free(zo_step_result *r);


#endif
