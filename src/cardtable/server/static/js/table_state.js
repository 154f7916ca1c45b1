// @ts-check
// What the table page knows, apart from how it is drawn or reached: the table's description, the
// last two state messages, the move waiting for its answer, the hint and the coach's report for
// the position shown, and the deal summaries already seen (kept per tab). It holds no DOM and
// sends nothing; the table's controller (table.js) feeds it the server's messages.

/** @typedef {import("./actions.js").ServerMove} ServerMove */

/**
 * The protocol's state message, as far as the page reads it (docs/protocol.md).
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {number} version
 * @property {number | null} seat
 * @property {any} view
 * @property {string[]} legal
 * @property {ServerMove[]} moves
 * @property {number} to_move
 * @property {any} result
 * @property {(ServerMove & { seat: number, auto?: string | null }) | null} last_action
 * @property {any} summary
 * @property {string} announce
 * @property {Record<string, any>} own
 * @property {any} [room]
 */

/**
 * @param {string} key
 * @param {any} fallback
 */
function stored(key, fallback) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || "null") ?? fallback;
  } catch {
    return fallback;
  }
}

export class TableState {
  /** @param {string} tableId */
  constructor(tableId) {
    this.tableId = tableId;
    /** @type {any} GET /api/tables/{id} */
    this.meta = null;
    /** @type {StateMessage | null} */
    this.message = null;
    /** @type {StateMessage | null} */
    this.previous = null;
    /** A move was sent and its answer (a state or an error) has not come yet. */
    this.pending = false;
    /** The connection is down: nothing can be played until the server's fresh state. */
    this.offline = false;
    /** @type {any} the hint shown (for `message`'s version) */
    this.hint = null;
    /** @type {number | undefined} the version a hint was asked at */
    this.hintAskedAt = undefined;
    /** @type {any} the coach's report on the position shown */
    this.coach = null;
    /** @type {any} */
    this.coachSeen = null;
    /** @type {string | null} the summary whose panel is open */
    this.summaryOpenFor = null;
    /** @type {Set<string>} */
    this.shownSummaries = new Set(stored(`summaries:${tableId}`, []));
    /** @type {any} the last finished deal's explanation (the server sends it once) */
    this.lastSummary = stored(`summary:${tableId}`, null);
  }

  /**
   * Take a new state message; returns whether it is a new version of the table (a move was
   * made), after which the hint and the coach's report are about a position left behind.
   * @param {StateMessage} message
   */
  accept(message) {
    this.previous = this.message;
    this.message = message;
    this.pending = false;
    this.offline = false;
    if (message.summary) {
      this.lastSummary = message.summary;
      try {
        sessionStorage.setItem(`summary:${this.tableId}`, JSON.stringify(message.summary));
      } catch {
        // Not kept across reloads then; the view still has the bare hands and points.
      }
    }
    const newVersion = !this.previous || this.previous.version !== message.version;
    if (newVersion) {
      this.hint = null;
      this.coach = null;
    }
    return newVersion;
  }

  /**
   * Mark the summary `key` as seen; false when it was seen already.
   * @param {string} key
   */
  markSummarySeen(key) {
    if (this.shownSummaries.has(key)) return false;
    this.shownSummaries.add(key);
    sessionStorage.setItem(`summaries:${this.tableId}`, JSON.stringify([...this.shownSummaries].slice(-20)));
    return true;
  }

  /** The seat this page plays, as the server and the table's description say. */
  seat() {
    return this.message?.seat ?? this.meta?.your_seat ?? 0;
  }

  /** How many sit at the table. */
  playerCount() {
    const view = this.message?.view;
    return view?.hand_sizes?.length ?? view?.players ?? this.meta?.seats?.length ?? this.meta?.rules?.players ?? 0;
  }

  /**
   * Whether an answer (hint, coach) is about another table version than the one shown, or
   * comes after the game ended: the turn has passed, and the advice with it.
   * @param {{ type: string, version?: number }} answer
   */
  stale(answer) {
    if (!this.message || this.message.result) return true;
    const version = answer.version ?? (answer.type === "hint" ? this.hintAskedAt : undefined);
    return version !== undefined && version !== this.message.version;
  }
}
