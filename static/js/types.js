// Shared JSDoc types for the browser modules: the shapes the server sends (docs/PROTOCOL.md
// is their reference) and the local ones passed between modules. No code: types only.

/**
 * An action as the server lists it in `game.legal`: a `type` plus its fields.
 * @typedef {{type: string, [field: string]: any}} Action
 */

/**
 * A structured game event (`type` plus data); log.js tells it as a sentence.
 * @typedef {{type: string, seat?: number | null, [field: string]: any}} GameEvent
 */

/**
 * An order card as views show it.
 * @typedef {{id: number, name: string, recipe: Record<string, number>, specialty: boolean}} Card
 */

/**
 * One player in the game view.
 * @typedef {{seat: number, meeples: string[], tabs: Card[][], cups: string[][],
 *   completed: Card[], penalties: Card[], rush: number, [field: string]: any}} PlayerView
 */

/**
 * The engine's view of the game for one viewer (null before the start).
 * @typedef {{phase: string, current: number, start: number, turn: number, closed: boolean,
 *   close_reason: string | null, players: PlayerView[], legal: Action[], can_undo: boolean,
 *   move?: {free_steps_left: number, [field: string]: any}, result?: object | null,
 *   [field: string]: any}} GameView
 */

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
