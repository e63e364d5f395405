// Shared JSDoc types for the browser modules: the shapes the server sends (docs/PROTOCOL.md
// is their reference; the game view's and the events' are generated from
// server/rules/shapes.py and server/rooms/events.py) and the local ones passed between
// modules. No code: types only.

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

/**
 * @typedef {{
 *   type: "place",
 *   cell: string,
 * }} Place
 */

/**
 * @typedef {{
 *   type: "starting_cup",
 *   cup: number,
 * }} StartingCup
 */

/**
 * @typedef {{
 *   type: "upgrade",
 *   tile: string,
 * }} Upgrade
 */

/**
 * @typedef {{
 *   type: "skip_upgrade",
 * }} SkipUpgrade
 */

/**
 * @typedef {{
 *   type: "choose_meeple",
 *   meeple: number,
 * }} ChooseMeeple
 */

/**
 * `gain` and `rush`: what the step would take and cost, as listed (echoes: a client may
 * send them back; they are not part of the action).
 * @typedef {{
 *   type: "step",
 *   cell: string,
 *   gain?: Record<string, number>,
 *   rush?: boolean,
 * }} Step
 */

/**
 * @typedef {{
 *   type: "stop",
 * }} Stop
 */

/**
 * @typedef {{
 *   type: "pour",
 *   ingredient: string,
 *   cup: number,
 * }} Pour
 */

/**
 * @typedef {{
 *   type: "return",
 *   ingredient: string,
 * }} Return
 */

/**
 * @typedef {{
 *   type: "empty",
 *   cup: number,
 * }} Empty
 */

/**
 * @typedef {{
 *   type: "done_pouring",
 * }} DonePouring
 */

/**
 * @typedef {{
 *   type: "serve",
 *   cup: number,
 *   card: number,
 * }} Serve
 */

/**
 * @typedef {{
 *   type: "end_turn",
 * }} EndTurn
 */

/**
 * Offered through the view's `can_undo`, never listed.
 * @typedef {{
 *   type: "undo",
 * }} Undo
 */

/**
 * An action (the shapes in server/rules/actions/).
 * @typedef {Place | StartingCup | Upgrade | SkipUpgrade | ChooseMeeple | Step | Stop | Pour | Return | Empty | DonePouring | Serve | EndTurn | Undo} Action
 */

/**
 * R-SETUP-3: a meeple placed on a cell.
 * @typedef {{
 *   type: "placed",
 *   seat: number,
 *   cell: string,
 * }} Placed
 */

/**
 * R-SETUP-4: the token under a meeple goes into a cup (`count` 0: the supply had none).
 * @typedef {{
 *   type: "starting_token",
 *   seat: number,
 *   ingredient: string,
 *   cup: number,
 *   count: number,
 * }} StartingToken
 */

/**
 * @typedef {{
 *   type: "turn_started",
 *   seat: number,
 *   turn: number,
 *   phase: string,
 * }} TurnStarted
 */

/**
 * R-UPG: `discarded` are the completed orders (card numbers) spent on the tile.
 * @typedef {{
 *   type: "upgraded",
 *   seat: number,
 *   tile: string,
 *   discarded: number[],
 * }} Upgraded
 */

/**
 * @typedef {{
 *   type: "upgrade_skipped",
 *   seat: number,
 * }} UpgradeSkipped
 */

/**
 * @typedef {{
 *   type: "meeple_chosen",
 *   seat: number,
 *   meeple: number,
 * }} MeepleChosen
 */

/**
 * R-MOVE: one step, from a cell to the next, and the tokens it gained.
 * @typedef {{
 *   type: "moved",
 *   seat: number,
 *   meeple: number,
 *   from: string,
 *   to: string,
 *   gained: Record<string, number>,
 *   rush_spent: number,
 * }} Moved
 */

/**
 * @typedef {{
 *   type: "stopped",
 *   seat: number,
 *   cell: string,
 *   steps: number,
 * }} Stopped
 */

/**
 * @typedef {{
 *   type: "poured",
 *   seat: number,
 *   ingredient: string,
 *   cup: number,
 * }} Poured
 */

/**
 * @typedef {{
 *   type: "returned",
 *   seat: number,
 *   ingredient: string,
 * }} Returned
 */

/**
 * @typedef {{
 *   type: "emptied",
 *   seat: number,
 *   cup: number,
 *   returned: Record<string, number>,
 * }} Emptied
 */

/**
 * @typedef {{
 *   type: "pouring_done",
 *   seat: number,
 * }} PouringDone
 */

/**
 * @typedef {{
 *   type: "served",
 *   seat: number,
 *   cup: number,
 *   card: CardView,
 *   rush_gained: number,
 * }} Served
 */

/**
 * R-END: new orders on a seat's tab 1 (`from`: whose turn dealt them).
 * @typedef {{
 *   type: "orders_dealt",
 *   seat: number,
 *   from: number,
 *   cards: server.rules.shapes.CardView[],
 *   reason: string,
 * }} OrdersDealt
 */

/**
 * R-END: orders move down a tab; `penalties` are the cards pushed off tab 4.
 * @typedef {{
 *   type: "time_flowed",
 *   seat: number,
 *   penalties: number[],
 *   rush_gained: number,
 * }} TimeFlowed
 */

/**
 * R-END-4: the last round begins (`reason`: deck, penalties or stall).
 * @typedef {{
 *   type: "closed",
 *   reason: string,
 * }} Closed
 */

/**
 * @typedef {{
 *   type: "turn_ended",
 *   seat: number,
 * }} TurnEnded
 */

/**
 * @typedef {{
 *   type: "game_over",
 *   result: Result,
 * }} GameOverEvent
 */

/**
 * R-TURN: the seat's last action this turn taken back.
 * @typedef {{
 *   type: "undone",
 *   seat: number,
 *   action: Action,
 * }} Undone
 */

/**
 * @typedef {{
 *   type: "seat_joined",
 *   seat: number,
 *   name: string,
 * }} SeatJoined
 */

/**
 * @typedef {{
 *   type: "seat_left",
 *   seat: number,
 * }} SeatLeft
 */

/**
 * @typedef {{
 *   type: "seat_kicked",
 *   seat: number,
 * }} SeatKicked
 */

/**
 * @typedef {{
 *   type: "bot_added",
 *   seat: number,
 *   level: string,
 * }} BotAdded
 */

/**
 * @typedef {{
 *   type: "host_changed",
 *   seat: number,
 * }} HostChanged
 */

/**
 * @typedef {{
 *   type: "presence",
 *   seat: number,
 *   connected: boolean,
 * }} Presence
 */

/**
 * @typedef {{
 *   type: "stand_in",
 *   seat: number,
 *   level: string,
 * }} StandIn
 */

/**
 * @typedef {{
 *   type: "spectators",
 *   count: number,
 * }} Spectators
 */

/**
 * @typedef {{
 *   type: "game_started",
 * }} GameStarted
 */

/**
 * @typedef {{
 *   type: "rematch",
 *   code: string,
 * }} Rematch
 */

/**
 * @typedef {{
 *   type: "clock_set",
 *   clock: Record<string, number> | null,
 * }} ClockSet
 */

/**
 * @typedef {{
 *   type: "timeout",
 *   seat: number,
 *   level: string,
 *   away: boolean,
 * }} Timeout
 */

/**
 * @typedef {{
 *   type: "back",
 *   seat: number,
 * }} Back
 */

/**
 * @typedef {{
 *   type: "late",
 *   seat: number,
 * }} Late
 */

/**
 * @typedef {{
 *   type: "abandoned",
 *   seat: number,
 * }} Abandoned
 */

/**
 * @typedef {{
 *   type: "away",
 *   seat: number,
 *   hours: number,
 * }} Away
 */

/**
 * An event of a patch frame (server/rooms/events.py).
 * @typedef {Placed | StartingToken | TurnStarted | Upgraded | UpgradeSkipped | MeepleChosen | Moved | Stopped | Poured | Returned | Emptied | PouringDone | Served | OrdersDealt | TimeFlowed | Closed | TurnEnded | GameOverEvent | Undone | SeatJoined | SeatLeft | SeatKicked | BotAdded | HostChanged | Presence | StandIn | Spectators | GameStarted | Rematch | ClockSet | Timeout | Back | Late | Abandoned | Away} Event
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
