// Shared JSDoc types for the browser modules: the shapes the server sends (docs/PROTOCOL.md
// is their reference; the game view's are generated from server/rules/shapes.py) and the
// local ones passed between modules. No code: types only.

/**
 * An action as the server lists it in `game.legal`: a `type` plus its fields.
 * @typedef {{type: string, [field: string]: any}} Action
 */

/**
 * A structured game event (`type` plus data); log.js tells it as a sentence.
 * @typedef {{type: string, seat?: number | null, [field: string]: any}} GameEvent
 */

// BEGIN GENERATED VIEW TYPES (python -m server.api.jsdoc)

/**
 * An order card that has been drawn.
 * @typedef {{
 *   id: number,
 *   name: string,
 *   recipe: Record<string, number>,
 *   specialty: boolean,
 * }} CardView
 */

/**
 * A player's score, part by part (R-SCORE).
 * @typedef {{
 *   orders: number,
 *   upgrades: number,
 *   penalties: number,
 *   total: number,
 *   rush: number,
 *   tiles: string[],
 * }} Score
 */

/**
 * One player in the game view.
 * @typedef {{
 *   seat: number,
 *   meeples: string[],
 *   tabs: CardView[][],
 *   cups: string[][],
 *   completed: CardView[],
 *   penalties: CardView[],
 *   rush: number,
 *   upgrades: Record<string, boolean>,
 *   turns: number,
 *   score: Score,
 * }} PlayerView
 */

/**
 * The meeple moving this turn, the steps taken and the cells it went through.
 * @typedef {{
 *   meeple: number | null,
 *   steps: number,
 *   free_steps_left: number,
 *   path: string[],
 * }} MoveView
 */

/**
 * The final ranking with shared places (R-SCORE).
 * @typedef {{
 *   reason: string | null,
 *   scores: Score[],
 *   ranking: number[],
 *   places: number[],
 *   winners: number[],
 *   turns: number[],
 * }} Result
 */

/**
 * The result as a view shows it: once the game is over, its seed (as text: 64 bits) and
 * its deck order are public (R-HIDDEN).
 * @typedef {{
 *   reason: string | null,
 *   scores: Score[],
 *   ranking: number[],
 *   places: number[],
 *   winners: number[],
 *   turns: number[],
 *   seed: string,
 *   deck: number[],
 * }} FinalResult
 */

/**
 * The part of every view that is the same for all viewers.
 * @typedef {{
 *   rules_version: number,
 *   players_count: number,
 *   options: Record<string, any>,
 *   phase: string,
 *   current: number,
 *   start: number,
 *   turn: number,
 *   closed: boolean,
 *   close_reason: string | null,
 *   deck: number,
 *   supply: Record<string, number>,
 *   rush_supply: number,
 *   discard: CardView[],
 *   set_aside: CardView[],
 *   pending: number[],
 *   players: PlayerView[],
 *   move: MoveView,
 *   hand: Record<string, number>,
 *   served: number,
 *   upgraded: boolean,
 *   result: FinalResult | null,
 * }} PublicView
 */

/**
 * The part of a view that depends on who looks.
 * @typedef {{
 *   seat: number | null,
 *   can_undo: boolean,
 *   legal: Action[],
 * }} SeatExtras
 */

/**
 * The whole view for a seat (or a spectator).
 * @typedef {{
 *   rules_version: number,
 *   players_count: number,
 *   options: Record<string, any>,
 *   phase: string,
 *   current: number,
 *   start: number,
 *   turn: number,
 *   closed: boolean,
 *   close_reason: string | null,
 *   deck: number,
 *   supply: Record<string, number>,
 *   rush_supply: number,
 *   discard: CardView[],
 *   set_aside: CardView[],
 *   pending: number[],
 *   players: PlayerView[],
 *   move: MoveView,
 *   hand: Record<string, number>,
 *   served: number,
 *   upgraded: boolean,
 *   result: FinalResult | null,
 *   seat: number | null,
 *   can_undo: boolean,
 *   legal: Action[],
 * }} GameView
 */

// END GENERATED VIEW TYPES

/**
 * A seat of the room: who sits there (a person's name or a bot level) and whether they
 * are connected.
 * @typedef {{name?: string | null, bot?: string | null, [field: string]: any}} SeatInfo
 */

/**
 * What a snapshot or patch frame carries: the room, who you are, and the game.
 * @typedef {{room: {status: string, seats: SeatInfo[], clock?: object | null,
 *   [field: string]: any}, you: {seat: number | null, role: string},
 *   game: GameView | null}} View
 */

/**
 * The local choice between clicks: a hand token picked for pouring, a cup picked for
 * serving.
 * @typedef {{ing: string | null, cup: number | null}} Selection
 */

/**
 * A seat's display name; `seatCount` says how many seats there are.
 * @typedef {((seat: number) => string) & {seatCount: number}} NameOf
 */

/**
 * An RFC 6902 patch operation.
 * @typedef {{op: string, path: string, value?: any, from?: string}} PatchOp
 */

export {};
