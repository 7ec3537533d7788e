/* layout.h: the decoder's byte layout (fuzz/README.md, "The decoder's byte
 * layout"), shared by decoder.c (bytes -> a game) and encode.c (a loaded
 * case -> bytes): the opcodes, the type palettes and the causes. Internal
 * to gen/. Append opcodes before OP_COUNT only: an opcode byte is taken
 * modulo the count, so a new one changes what raw fuzzer inputs decode to
 * (encoded seeds, whose opcodes are below every count, keep their
 * meaning). */
#ifndef ZO_FUZZ_LAYOUT_H
#define ZO_FUZZ_LAYOUT_H

enum {
  OP_MOVE, OP_MOVE2, OP_MOVE3, OP_MOVE4, OP_TOGETHER, OP_CREATE, OP_CONTROL, OP_PHASE,
  OP_TURN, OP_REORDER, OP_SHUFFLE, OP_DRAW, OP_MILL, OP_PUT_UNDER, OP_ZONE_CREATE,
  OP_ZONE_REMOVE, OP_STATE_CHECK, OP_STATE_CHECK2, OP_END_GAME, OP_WATCH, OP_RESOLVE,
  OP_REMEMBER, OP_REPLACE, OP_CHOOSE, OP_MARK,
  OP_SEQ_TRIGGER, OP_SEQ_REPLACE, OP_SEQ_OUTSIDE, /* sequences: several steps on one object */
  OP_SEQ_MARK_MOVE, OP_SEQ_PAIR,
  /* issue 12: a move and a move_together with their performing player
     (G3; the latter with order_by:), look (G5), reveal (G7) */
  OP_MOVE_BY, OP_TOGETHER_BY, OP_LOOK, OP_REVEAL,
  OP_ATTACH,
  OP_END_TURN, OP_WATCH_CAUSE, /* G4, G8 of issue 12: end_turn; a watch with cause: */
  OP_SEQ_DURATION,             /* G4: a duration through phasing and the end of turn */
  OP_WATCH_AURA,               /* an Aura's trigger on its permanent leaving (CR 400.7f) */
  OP_SEQ_MADNESS,              /* a discard trigger and a madness card (CR 400.7k) */
  OP_CANT,                     /* a "can't" effect on moves (CR 614.17) */
  OP_UNTAP,                    /* a player's untap step (CR 702.26a) */
  OP_LEAVE_GAME,               /* a player leaves a multiplayer game (CR 800.4a) */
  OP_WATCH_PHASE,              /* a trigger on phasing out (CR 603.10b) */
  OP_GENERIC,                  /* a step of a kind the step table marks generated
                                  (steps.def): the kind, then its options */
  OP_COUNT
};

/* The type words of each palette row (up to three; NULL ends a row):
 * Magic's and Flesh and Blood's. Static storage. */
#define ZO_FUZZ_NMTG 8
#define ZO_FUZZ_NFAB 16
extern const char *const zo_fuzz_mtg_types[ZO_FUZZ_NMTG][3];
extern const char *const zo_fuzz_fab_types[ZO_FUZZ_NFAB][3];

/* A move's cause words ("": none), read from 4 bits of a byte. Static
 * storage. Append only. */
#define ZO_FUZZ_NCAUSES 11
#define ZO_FUZZ_CAUSE_MADNESS 10 /* needs feature madness (CR 400.7k) */
extern const char *const zo_fuzz_causes[ZO_FUZZ_NCAUSES];

#endif
