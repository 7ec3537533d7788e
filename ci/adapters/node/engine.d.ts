// ci/adapters/node/engine.d.ts: TypeScript declarations for engine.js: the
// zcp/2 messages (zcp/1 is the same without run deltas) (ci/protocol/PROTOCOL.md; the JSON Schemas in ci/protocol/
// are the exact reference), the interface between the protocol half and the
// rules half (RulesEngine, Game), and what engine.js exports.
//
// A TypeScript engine can keep engine.js and this file as they are and call
// main() with its own RulesEngine (README.md, "TypeScript"), or copy the
// types into its own protocol code.

// ---- words of the protocol ---------------------------------------------------

/** A card handle: a key of the setup's cards, or a name a create step introduced. */
export type Handle = string;
/** A player name from the setup's players (no "."). */
export type Player = string;

/** The features an engine may declare, wholes only (PROTOCOL.md, "Features"). */
export type Feature =
  | 'triggers' | 'replacement' | 'phasing' | 'face_down' | 'sub_cards' | 'zone_lifecycle'
  | 'ante' | 'visibility' | 'reorder' | 'stack_layers' | 'state_check' | 'marks'
  | 'performer' | 'look' | 'reveal' | 'attachments' | 'durations' | 'kept_marks'
  | 'aura_triggers' | 'madness' | 'copies' | 'casting' | 'phasing_together' | 'cant'
  | 'draw_replacement' | 'untap_phasing' | 'leave_game' | 'phasing_triggers' | 'as_enters'
  | 'shuffle_order' | 'draw_then' | 'together_order' | 'created_owner' | 'control_effects'
  | 'unattach' | 'cant_costs' | 'look_then' | 'enters_attached' | 'cant_draw'
  | 'token_as_enters' | 'next_turn' | 'attach_player' | 'unpaid_costs' | 'cant_draw_moves';

/** What a step did (PROTOCOL.md, "Outcomes and step error codes"). */
export type Outcome =
  | 'moved' | 'no_move' | 'new_object_in_place' | 'redirected' | 'stayed' | 'replaced'
  | 'failed' | 'cleared' | 'ceased' | 'rejected' | 'not_found' | 'none';

/** Why a step did not do what it asked; null when there is no reason to give. */
export type StepError =
  | 'capacity' | 'no_zone' | 'cannot_hold' | 'token_left' | 'not_in_zone' | 'no_controller'
  | 'already' | 'empty' | 'ordered' | 'wrong_player' | 'unsupported' | 'phased_out'
  | 'not_found' | 'not_fired' | 'forbidden'
  /** an as-enters effect can't choose the object: it enters the battlefield
   * in the same event, or one of the event's as-enters steps already moved
   * it (CR 614.13a, 614.13b) */
  | 'cannot_choose';

/** The code of an error answer (PROTOCOL.md, "Protocol errors"). */
export type ErrorCode = 'bad_request' | 'unsupported' | 'internal';

export type Face = 'up' | 'down';
export type Visibility = 'public' | 'private';
export type Kind = 'card' | 'token' | 'ability' | 'copy' | 'macro' | 'attack-proxy';

// ---- the case language: objects at the start and steps ------------------------

/** One value of a setup's cards (cases/README.md, "Objects at the start"). */
export interface Card {
  owner: Player;
  /** as written in cases: "hand", "battlefield", "bob.graveyard", "outside" */
  zone?: string;
  kind?: Kind;
  types?: string[];
  subtypes?: string[];
  controller?: Player;
  face?: Face;
  visibility?: Visibility;
  /** ordered zones: index from the top, 0 = top. The runner gives it for
   * every card of an ordered zone: the order of keys in cards means nothing */
  position?: number;
  under?: Handle;
}

/** The options of a move; also each of move_together's moves (with card,
 * without ref and then) and replace's instead (without card, ref, then). */
export interface MoveOptions {
  card?: Handle;
  ref?: string;
  to: string;
  from?: string;
  position?: 'top' | 'bottom' | number;
  face?: Face;
  by?: 'effect' | 'rule';
  cause?: string;
  choose?: number;
  shuffle?: boolean;
  seed?: number;
  then?: Step;
  /** who performs the move (not in then:, instead: or moves:) */
  player?: Player;
  /** feature casting, with cause 'cast' on a top-level move only: the steps
   * done while the spell is cast (CR 601.2b-h), after the move, each naming
   * its own object; the spell becomes cast at the end of the step (401.5) */
  costs?: Step[];
  /** feature enters_attached: the permanent it is put onto the battlefield
   * attached to (CR 303.4f-i) */
  attached_to?: Handle;
  /** feature attach_player: the player an Aura is put onto the battlefield
   * attached to (CR 303.4f); not with attached_to */
  attached_to_player?: Player;
}

/** One object named by handle or by a reference (neither in then:/do:). */
interface ObjectNamed { card?: Handle; ref?: string }

/** A step: an object with exactly one key, the step's name (PROTOCOL.md,
 * "Steps"; common.json $defs/step). A step without options may come as
 * {} or null. */
export type Step =
  | { move: MoveOptions }
  | { move_together: { moves: MoveOptions[]; order?: Record<string, Handle[]>; player?: Player; order_by?: Player } }
  /** feature copies: zone 'outside' for kind copy only (CR 707.13); copy_of
   * names a reference, and no token is made when its object is gone unless
   * lki is true (CR 111.12) */
  | { create: { as: Handle; owner: Player; zone: string; kind?: Kind; types?: string[]; subtypes?: string[]; controller?: Player; face?: Face; copy_of?: string; lki?: boolean;
      /** feature token_as_enters: the token's own as-enters steps (CR 614.12, 614.13) */
      as_enters?: Step[] } }
  | { control: ObjectNamed & { player: Player; until?: 'end_of_turn' } }
  /** with (feature phasing_together, out only, not nested): the other
   * permanents phasing out in the same event (CR 702.26h) */
  | { phase: ObjectNamed & { out?: boolean; with?: Handle[] } }
  | { turn_face: ObjectNamed & { face: Face } }
  | { reorder: { zone: string; order: Handle[]; by?: 'player' | 'effect'; player?: Player } }
  /** order: the result, top first, every object of the zone once (else the
   * step fails, not_in_zone); without it any order is right */
  | { shuffle: { zone: string; order?: Handle[]; seed?: number } }
  /** then (not on a then:/do: draw): one step, without card/ref, done to
   * each card this draw itself puts into the player's hand, right after it
   * is drawn; never to what a draw replacement brings (CR 614.11b) */
  | { draw: { player: Player; count?: number; then?: Step } }
  | { mill: { player: Player; count?: number; to?: string } }
  | { put_under: ObjectNamed & { under: Handle } }
  | { zone_create: { zone: string } }
  | { zone_remove: { zone: string; choose?: number } }
  | { state_check: Record<string, never> | null }
  | { end_game: { winner: Player } }
  /** phase (feature phasing_triggers): 'out', a trigger on the object
   * phasing out, directly or indirectly, never on a zone change (no from,
   * to, cause or aura with it); it looks back in time, controlled by the
   * object's controller just before (CR 603.10b), and at resolve finds the
   * object while it is the same object, phased out or not */
  | { watch: { as: string; card: Handle; from?: string; to?: string; types?: string[]; cause?: string; aura?: Handle; phase?: 'out' } }
  | { resolve: { trigger: string; do?: Step } }
  | { remember: ObjectNamed & { as: string } }
  | { replace: { as: string; card: Handle | 'any'; instead: MoveOptions; when?: { to?: string; from?: string; cause?: string }; controller?: Player; category?: 'self' | 'other' } }
  | { choose_replacement: { order: string[]; player?: Player; card?: Handle } }
  | { mark: ObjectNamed & { as: string; kind: 'counter' | 'effect' | 'characteristic' | 'prevention' | 'sticker' | 'permission' | 'spell_info'; until?: 'end_of_turn' } }
  /** then (feature look_then, top-level only): the rest of the same
   * instruction, done to the object looked at; looked at, then exiled face
   * down, it is still seen by the player while it stays exiled (CR 406.3) */
  | { look: ObjectNamed & { player: Player; then?: Step } }
  /** top_of (without card/ref): that player plays with the top card of
   * their library revealed (CR 401.5, 401.6) */
  | { reveal: ObjectNamed & { end?: boolean; top_of?: Player } }
  /** feature attachments: attach it to the permanent `to` names (CR 301.5,
   * 303.4); feature attach_player: an Aura to the player `to_player` names
   * instead (303.4b) */
  | { attach: ObjectNamed & ({ to: Handle } | { to_player: Player }) }
  /** feature durations: the turn ends (CR 514.2) */
  | { end_turn: Record<string, never> | null }
  /** feature cant, top-level only: from this step on, a move of the card
   * (its handle, whatever object it now is) or of any object, matching
   * when: as replace's does, fails with error forbidden and nothing moves
   * (CR 614.17); types: only an object with every one of them, onto the
   * battlefield as it would be there (face down: a creature and nothing
   * else, 614.17d, 708.2a). Such an event is replaced only by a
   * self-replacement effect (614.17c) */
  | { cant: { card: Handle | 'any'; when?: { to?: string; from?: string; cause?: string }; types?: string[] } }
  /** feature cant_draw: the player can't draw; each draw of theirs is failed
   * forbidden, replaced by nothing, and from an empty library no loss (CR 121.3) */
  | { cant: { draw: Player } }
  /** feature draw_replacement, top-level only: from this step on each draw
   * of `player`, one at a time (CR 121.2), is replaced by the `instead`
   * steps (maybe none; each as a move's costs: step, naming its own
   * object), even a draw from an empty library, which then loses nothing
   * (614.11); they are all done before the next draw (614.11a) and a draw
   * among them is not replaced by this effect again (614.5). `as` is a
   * replacement name (choose_replacement orders it among replace's); the
   * first in that order applies. once: only the next draw, then it ends */
  | { replace_draw: { as: string; player: Player; instead: Step[]; once?: boolean } }
  /** feature untap_phasing, top-level only: the player's untap step (CR
   * 702.26a). First what phased out directly under a player who has left
   * the game phases in, if that player's turn would have begun since the
   * last untap step (going round the players from the turn player to this
   * one, 702.26n); then, decided for all before any phases, the `phasing`
   * permanents (those with phasing: each once) that are on the battlefield,
   * phased in and controlled by the player phase out, and every permanent
   * that phased out directly under the player (its controller as it phased
   * out) phases in; what is attached phases with its permanent (702.26g,
   * 702.26h). The player is then the turn player (the first player is at
   * the start). no_move */
  | { untap: { player: Player; phasing?: Handle[] } }
  /** feature leave_game, top-level only: the player leaves the game (CR
   * 800.4a): what they own in a zone (not the ante) ceases, a phased-in
   * permanent's going firing the watches of a move from the battlefield to
   * no zone (603.6c), a phased-out one's none (702.26k); effects giving
   * them control of others' objects end (each goes back to its controller
   * before an until-end-of-turn control effect, else the one it arrived
   * under); what they control on the stack that is not a card ceases; what
   * they still control is exiled. no_move, with those events. From then on
   * a step whose player (order_by, top_of; a create's owner or controller;
   * end_game's winner) names them is rejected, wrong_player (800.4b); so
   * is the resolve of a trigger they control (800.4d) */
  | { leave_game: { player: Player } }
  /** feature as_enters, top-level only: a replacement effect of the card's
   * own modifying how it enters the battlefield (CR 614.13). From this step
   * on, each time the object of `card` is about to enter the battlefield by
   * a move of one object (a move, a move_together member, a card a draw or
   * mill moves, a nested move), after every check that could stop that
   * move, its `steps` (at least one; each as a move's costs: step, naming
   * its own object) are done first as top-level steps, their events before
   * its own; several on one card in the order they came. The event is one
   * move or one whole move_together, whose members bound for the
   * battlefield (after the redirect and the replacements in force) are all
   * entering before any moves. While the steps run, a move of an object
   * entering in the event, or of one a step of the event already moved, is
   * rejected, cannot_choose, with a rejected event, and nothing moves
   * (614.13a, 614.13b); a mill or draw takes the first card from the top
   * that is not entering (614.13c). no_move */
  | { as_enters: { card: Handle; steps: Step[] } }
  /** feature unattach: the object is attached to nothing where it is, the
   * same object (CR 701.3d); failed already when attached to nothing, as
   * attach off the battlefield or phased out. no_move */
  | { unattach: { card: Handle } | { ref: string } };

// ---- results and observations ------------------------------------------------------

/** What happened to one object during a step. */
export interface StepEvent { handle: Handle; outcome: Outcome }

/** The answer to a step, without id and ok; also each of run's results. */
export interface StepResult {
  outcome: Outcome;
  error: StepError | null;
  events: StepEvent[];
}

/** One handle in an observation: all thirteen fields are required. */
export interface ObjectObservation {
  exists: boolean;
  /** full name: "battlefield", "alice.hand", "outside"; "" once it ceased */
  zone: string;
  /** identity token: changes exactly when the card becomes a new object */
  object: number | string;
  position: number | null;
  layer: number | null;
  visibility: Visibility;
  face: Face;
  controller: Player | null;
  owner: Player;
  marks: string[];
  under: Handle | null;
  phased_out: boolean;
  /** FaB 3.0.9c: the zone it was in when it became this object; null in
   * every Magic rule set (no zone history), also right after a move */
  came_from: string | null;
  /** feature attachments: the permanent it is attached to; left out (or
   * null in a delta) when it is attached to nothing */
  attached_to?: Handle | null;
  /** feature attach_player: the player an Aura is attached to; left out (or
   * null in a delta) when it is attached to no player */
  attached_to_player?: Player | null;
}

export interface TriggerObservation { fired: boolean; found: boolean | null; controller: Player | null }
/** handle: the object it finds; null whenever found is false */
export interface RefObservation { found: boolean; handle: Handle | null }
export interface PlayerObservation { lost: boolean }

/** The answer to observe, without id and ok; also each of run's observations. */
export interface Observation {
  objects: Record<Handle, ObjectObservation>;
  triggers: Record<string, TriggerObservation>;
  refs: Record<string, RefObservation>;
  players: Record<Player, PlayerObservation>;
  visible: Record<Player, Handle[]>;
}

/** What changed since the observation before (run with observe: 'delta',
 * zcp/2): objects always, each changed handle with only its changed fields
 * (a new handle: all of them); the other four only when an entry changed,
 * each changed entry (a player's visible list) whole. */
export interface ObservationDelta {
  objects: Record<Handle, Partial<ObjectObservation>>;
  triggers?: Record<string, TriggerObservation>;
  refs?: Record<string, RefObservation>;
  players?: Record<Player, PlayerObservation>;
  visible?: Record<Player, Handle[]>;
}

// ---- requests and answers ------------------------------------------------------------

export type ProtocolVersion = 'zcp/1' | 'zcp/2';
/** protocol: the runner's baseline (zoneoracle sends zcp/1); accepts: every
 * version it speaks. */
export interface HelloRequest { op: 'hello'; id: number; protocol: string; accepts?: string[] }
export interface SetupRequest { op: 'setup'; id: number; ruleset: string; players: Player[]; cards: Record<Handle, Card> }
export interface StepRequest { op: 'step'; id: number; step: Step }
export interface ObserveRequest { op: 'observe'; id: number }
export interface RunRequest { op: 'run'; id: number; steps: Step[]; observe?: 'each' | 'delta' | 'end' }
export interface ByeRequest { op: 'bye'; id: number }
export type Request = HelloRequest | SetupRequest | StepRequest | ObserveRequest | RunRequest | ByeRequest;

/** protocol: the version chosen, the newest both sides speak */
export interface HelloResult { protocol: ProtocolVersion; engine: string; version: string; rulesets: string[]; features: Feature[] }
/** observations: whole ones (each, end) or deltas (delta) */
export interface RunResult { results: StepResult[]; observations: Array<Observation | ObservationDelta> }

/** An answer: exactly id, ok and the operation's result fields, or id, ok
 * and error. `id` is null only when the request had no usable id. */
export type Answer =
  | ({ id: number; ok: true } & (HelloResult | StepResult | Observation | RunResult | Record<string, never>))
  | { id: number | null; ok: false; error: { code: ErrorCode; message: string } };

// ---- the interface between the halves --------------------------------------------------

/** One game, made by RulesEngine.newGame. */
export interface Game {
  /** Apply one step. Throw badRequest(...) for a malformed step or an unknown
   * name, unsupported(...) for something the engine does not implement; any
   * other exception is answered `internal`. Whatever is thrown, the step is
   * undone (see begin, snapshot). */
  step(step: Step): StepResult;
  /** Everything the runner compares, now. */
  observe(): Observation;
  /** Optional, preferred: what changed since the observation this game
   * last returned (observe() or observeDelta()), for run with observe:
   * delta. Before any observation it makes one and returns no change. A
   * game that knows what its steps wrote (its undo log does) answers at
   * the cost of what changed; without it the protocol half compares two
   * whole observations after every step, which costs the whole game. */
  observeDelta?(): ObservationDelta;
  /** Optional, preferred: an undo log. begin() before each step starts
   * logging what the step writes (or nests in the log under way) and
   * returns a mark; commit(mark) keeps the step, rollback(mark) undoes
   * everything written since begin(). It costs what the step writes. */
  begin?(): unknown;
  commit?(mark: unknown): void;
  rollback?(mark: unknown): void;
  /** Optional, used without begin(): a copy of the game's state, taken
   * before each step so that a step that throws can be undone with
   * restore(); it costs the whole game every step. Without either the
   * protocol half undoes a step by building the game again from the setup
   * and replaying the steps that succeeded. */
  snapshot?(): unknown;
  restore?(snapshot: unknown): void;
}

/** The rules half as the protocol half sees it. */
export interface RulesEngine {
  /** shown in reports and the badge */
  name: string;
  version: string;
  /** the rule set ids it implements; setup of any other is answered unsupported */
  rulesets: readonly string[];
  /** the features it implements completely; ZO_NODE_FEATURES may declare fewer */
  features: readonly Feature[];
  /** A new game. The order of `cards` means nothing: place each card of
   * an ordered zone at its `position`. Throw badRequest(...) for a
   * position the rules forbid. `cards` is read only: the protocol half
   * keeps it to build the game again (a game with neither begin() nor
   * snapshot()). */
  newGame(ruleset: string, players: Player[], cards: Array<[Handle, Card]>): Game;
}

// ---- what engine.js exports ---------------------------------------------------------------

/** The versions engine.js speaks, oldest first. */
export declare const PROTOCOLS: readonly ProtocolVersion[];
export declare const KNOWN_FEATURES: readonly Feature[];

/** Thrown by either half to get an error answer with this code. */
export declare class ZcpError extends Error {
  constructor(code: ErrorCode, message: string);
  code: ErrorCode;
}
export declare function badRequest(message: string): ZcpError;
export declare function unsupported(message: string): ZcpError;

/** The features a step uses, nested steps included. */
export declare function featuresOfStep(step: unknown, found?: Set<Feature>): Set<Feature>;
/** The features a setup's cards use (face_down, sub_cards). */
export declare function featuresOfSetup(cards: Array<[Handle, unknown]>): Set<Feature>;
/** The features to declare: `implemented`, limited to the comma list `wanted` when it is set. */
export declare function chooseFeatures(implemented: readonly Feature[], wanted: string | undefined): Feature[];
/** What changed from `prev` to `cur` (run with observe: 'delta'). */
export declare function observationDelta(prev: Observation, cur: Observation): ObservationDelta;

/** The protocol for one session. */
export declare class Server {
  constructor(engine: RulesEngine, features?: Feature[]);
  readonly engine: RulesEngine;
  /** the features declared in hello */
  readonly features: Feature[];
  /** the current game, null before a successful setup */
  game: Game | null;
  /** true once bye was answered */
  finished: boolean;
  /** the version hello chose (zcp/1 before hello) */
  protocol: ProtocolVersion;
  /** One request line to one answer line (no newline); null for a blank line. Never throws. */
  answerLine(line: string): string | null;
  /** One parsed request to its answer. Never throws. */
  answer(request: unknown): Answer;
}

/** Serve stdin to stdout until bye or the end of input. */
export declare function main(engine?: RulesEngine): void;

/** The rules half: one game of mtg-current. */
export declare class MtgGame implements Game {
  constructor(players: Player[], cards: Array<[Handle, Card]>);
  step(step: Step): StepResult;
  observe(): Observation;
  /** the undo log: -1 for the outermost begin(), else the log's length */
  begin(): number;
  commit(mark: number): void;
  rollback(mark: number): void;
  snapshot(): unknown;
  restore(snapshot: unknown): void;
}
export declare const mtgCurrent: RulesEngine;

/** A shuffle whose result no step gives: any order, repeatable for a seed; in place. */
export declare function seededShuffle(list: unknown[], seed: number): void;
