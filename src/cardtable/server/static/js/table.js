// @ts-check
// The table screen shared by the three games: the controller that keeps the table's state
// (table_state.js), its socket handling (table_connection.js) and its views (table_views.js)
// apart, as lichess's round keeps its ctrl apart from its views. It takes the server's messages
// into the state, sends the moves and redraws; each game's module (games/*.js) draws what is
// its own. A table shared between people composes the room part (shared_table.js), which adds
// to the views at the hook points below instead of overriding them.

import { classify, readMove } from "./actions.js";
import { finishAnimations } from "./animate.js";
import { fitTable, watchFit } from "./fit.js";
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { gameModule } from "./games/index.js";
import { Hand } from "./hand.js";
import { HandGroups } from "./hand_groups.js";
import { options, onOptionsChange } from "./options.js";
import { alertMessage, announce, closePanel, openPanel, panelOpen } from "./panel.js";
import { SharedRoom } from "./shared_table.js";
import { spokenCards } from "./speech.js";
import { TableConnection } from "./table_connection.js";
import { animateLastMove, captureRects, motionAndSound } from "./table_motion.js";
import { TableState } from "./table_state.js";
import * as views from "./table_views.js";
import { handReviewLine } from "./analysis.js";

/** How long a state waits for an animation frame before it is drawn anyway (a page in the
 * background gets none). */
const DRAW_FALLBACK_MS = 250;

export class TableView {
  /**
   * @param {any} app
   * @param {string} tableId
   */
  constructor(app, tableId) {
    this.app = app;
    this.tableId = tableId;
    this.state = new TableState(tableId);
    /** @type {import("./games/base.js").GameModule} */
    this.module = null;
    /** @type {SharedRoom | null} the room around a table shared between people */
    this.people = null;
    /** @type {TableConnection | null} */
    this.connection = null;
    /** @type {any} the table's elements, once built */
    this.el = null;
    /** @type {string | null} the summary whose hands were last turned face up */
    this.flippedKey = null;
    this.hand = new Hand({
      storageKey: `order:${tableId}`,
      onPlay: (card) => this.playCard(card),
      onDrop: (card, zone) => this.dropCard(card, zone),
      onLift: () => this.renderControls(),
      describe: (card) => (this.module && this.message ? this.module.describeCard(this.ctx(), card) : ""),
      onArrange: () => this.groups.request(),
      say: (text) => announce(text),
    });
    this.groups = new HandGroups(this);
    /** @type {HTMLElement} */
    this.root = null;
    this.destroyed = false;
    /** @type {import("./table_state.js").StateMessage | null} the state taken, not drawn yet */
    this.queued = null;
    /** Whether a new version came since the last drawing, and the latest move's words. */
    this.queuedNew = false;
    this.queuedAnnounce = "";
    this.drawFrame = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.drawTimer = undefined;
    /** @type {import("./table_state.js").StateMessage | null} the state on the screen */
    this.drawn = null;
    /** States taken and drawings made (the page's tests compare them). */
    this.states = 0;
    this.draws = 0;
    let coachWasOn = options().coach;
    onOptionsChange((current) => {
      if (this.destroyed || !this.message) return;
      if (current.coach && !coachWasOn && this.message.to_move === this.message.seat) {
        this.socket?.send({ type: "coach" });
      }
      coachWasOn = current.coach;
      this.renderAll();
    });
  }

  // The state's fields under the table's own names: the game modules, the room part and the
  // page's tests read `table.message`, `table.hint`, `table.pending` …
  /** @returns {any} */
  get meta() {
    return this.state.meta;
  }

  set meta(value) {
    this.state.meta = value;
  }

  /** @returns {import("./table_state.js").StateMessage | null} */
  get message() {
    return this.state.message;
  }

  set message(value) {
    this.state.message = value;
  }

  /** @returns {import("./table_state.js").StateMessage | null} */
  get previous() {
    return this.state.previous;
  }

  set previous(value) {
    this.state.previous = value;
  }

  /** @returns {boolean} */
  get pending() {
    return this.state.pending;
  }

  set pending(value) {
    this.state.pending = value;
  }

  /** @returns {any} */
  get hint() {
    return this.state.hint;
  }

  set hint(value) {
    this.state.hint = value;
  }

  /** @returns {number | undefined} */
  get hintAskedAt() {
    return this.state.hintAskedAt;
  }

  set hintAskedAt(value) {
    this.state.hintAskedAt = value;
  }

  /** @returns {any} */
  get coach() {
    return this.state.coach;
  }

  set coach(value) {
    this.state.coach = value;
  }

  /** @returns {any} */
  get coachSeen() {
    return this.state.coachSeen;
  }

  set coachSeen(value) {
    this.state.coachSeen = value;
  }

  /** @returns {string | null} */
  get summaryOpenFor() {
    return this.state.summaryOpenFor;
  }

  set summaryOpenFor(value) {
    this.state.summaryOpenFor = value;
  }

  /** @returns {any} */
  get lastSummary() {
    return this.state.lastSummary;
  }

  set lastSummary(value) {
    this.state.lastSummary = value;
  }

  /** A shared table's room as the server last sent it (null at any other table). */
  get room() {
    return this.people?.room ?? null;
  }

  /** The connection's socket (null before the table is begun). */
  get socket() {
    return this.connection;
  }

  /** @param {HTMLElement} root */
  async mount(root) {
    this.root = root;
    replaceChildren(root, h("p", { class: "loading" }, "Taking a seat…"));
    try {
      this.meta = await api.table(this.tableId);
    } catch (error) {
      this.showUnavailable(error.message);
      return;
    }
    this.begin();
  }

  /** The table's description is in `meta`: draw the table and connect its socket. */
  begin() {
    if (this.meta.shared) {
      this.people = new SharedRoom(this, this.meta.shared);
    } else if (this.meta.your_seat === null || this.meta.your_seat === undefined) {
      this.showUnavailable("You do not sit at this table.");
      return;
    }
    this.module = gameModule(this.meta.game);
    this.app.setTitle(this.app.gameTitle(this.meta.game));
    // A shared table still waiting for its host shows the waiting room instead.
    if (!this.people?.begin()) this.build();
    this.connection = new TableConnection(this.tableId, {
      intercept: this.people ? (message) => this.people.intercept(message) : undefined,
      handlers: {
        state: (message) => this.onStateMessage(message),
        error: (message) => this.onError(message),
        hint: (message) => this.onHint(message),
        coach: (message) => this.onCoach(message),
        groups: (message) => this.groups.onAnswer(message),
      },
      onStatus: (connected) => this.onConnection(connected),
      onRefused: (reason) => this.showUnavailable(reason),
    });
  }

  /**
   * A server message, as the socket would hand it over (the page's tests inject some).
   * @param {any} message
   */
  onMessage(message) {
    if (this.destroyed) return;
    this.connection?.route(message);
  }

  /** The table cannot be played from here (no seat, no such table): say so, once, and stop. */
  showUnavailable(reason) {
    if (this.destroyed) return;
    this.destroy();
    this.message = null;
    this.app.setTitle("");
    const sentence = reason ? `${reason.charAt(0).toUpperCase()}${reason.slice(1).replace(/\.?$/, ".")}` : "";
    replaceChildren(
      this.root,
      h("div", { class: "table-missing felt-card", role: "alert" },
        h("h2", {}, "This table is not available"),
        sentence ? h("p", {}, sentence) : null,
        h("button", { type: "button", class: "btn primary", onclick: () => this.app.showStart() }, "Choose a game")),
    );
  }

  destroy() {
    this.destroyed = true;
    cancelAnimationFrame(this.drawFrame);
    clearTimeout(this.drawTimer);
    this.people?.destroy();
    this.connection?.close();
    this.hand.resizeObserver.disconnect();
    this.stopFit?.();
    this.stopRefocus?.();
    document.body.classList.remove("at-table");
  }

  /** Whether moves can be sent now: connected and not waiting for the last one. */
  canMove() {
    return Boolean(this.connection?.connected);
  }

  build() {
    const game = this.meta.game;
    this.el = {
      opponents: h("div", { class: "opponents", role: "list", "aria-label": "Other players" }),
      centre: h("div", { class: "centre", "aria-label": "Table centre", role: "region" }),
      status: h("p", { class: "turn-line", id: "turn-line" }),
      lastMove: h("p", { class: "last-move", id: "last-move" }),
      hintLine: h("p", { class: "hint-line", id: "hint-line", hidden: true, onclick: (event) => {
        event.currentTarget.classList.toggle("expanded");
        this.fit();
      } }),
      me: h("div", { class: "me-info" }),
      tools: h("div", { class: "hand-tools", role: "toolbar", "aria-label": "Arrange your hand" }),
      actions: h("div", { class: "actions", role: "toolbar", "aria-label": "Your moves" }),
      scores: h("section", { class: "scores side-card", "aria-labelledby": "scores-title" }),
      coach: h("section", { class: "coach side-card", id: "coach-panel", "aria-labelledby": "coach-title", hidden: true }),
      connection: h("p", { class: "connection", role: "status", hidden: true },
        h("strong", {}, "Connection lost."), " Reconnecting… moves are paused until the table is back."),
      banner: h("div", { class: "result-banner", hidden: true }),
      tableTools: h("div", { class: "table-tools" }),
      sideToggle: h("button", {
        type: "button", class: "btn small ghost side-toggle", "aria-expanded": "false", "aria-controls": "table-side",
        onclick: () => this.toggleSide(),
      }, "Scores"),
    };
    const table = h(
      "section",
      { class: `table game-${game}`, "aria-label": `${this.app.gameTitle(game)} table` },
      h("div", { class: "table-main" },
        this.el.opponents,
        this.el.centre,
        // The connection notice is a line of its own above the turn line: over the seats it
        // covered an opponent's name and level.
        h("div", { class: "status-lines" }, this.el.connection, this.el.status, this.el.lastMove, this.el.hintLine),
        this.el.banner,
        h("div", { class: "my-area" },
          h("div", { class: "hand-bar" }, this.el.me, this.el.tools, this.el.tableTools),
          this.hand.element,
          this.hand.labelsElement,
          this.el.actions)),
      h("aside", { class: "table-side", id: "table-side", "aria-label": "Scores and coach" },
        h("button", { type: "button", class: "btn small ghost side-close", onclick: () => this.toggleSide(false) }, "Close"),
        this.el.scores, this.el.coach,
        h("p", { class: "side-notice" }, document.getElementById("notice")?.textContent.trim() ?? "")),
    );
    replaceChildren(this.root, table);
    document.body.classList.add("at-table");
    this.el.table = table;
    this.stopFit = watchFit(table, () => this.hand.layout());
    // A panel closed over the table gives the focus back to what had it; when that is gone
    // (the cards were dealt again, the buttons redrawn), the keyboard goes to the hand rather
    // than to the page, where Enter would do nothing.
    const dialog = document.getElementById("panel");
    const refocus = () => setTimeout(() => {
      if (this.destroyed || /** @type {HTMLDialogElement | null} */ (dialog)?.open) return;
      if (!document.activeElement || document.activeElement === document.body) this.hand.focusCurrent();
    });
    dialog?.addEventListener("close", refocus);
    this.stopRefocus = () => dialog?.removeEventListener("close", refocus);
    this.renderTools();
    this.people?.afterBuild();
  }

  /** Open or close the scores and coach drawer (narrow screens; beside the table otherwise). */
  toggleSide(open = !this.el.table.classList.contains("side-open")) {
    const table = this.el.table;
    if (table.classList.contains("side-open") !== open) {
      table.classList.add("side-moving");
      const side = table.querySelector(".table-side");
      const done = (event) => {
        if (event.target !== side || event.propertyName !== "transform") return;
        table.classList.remove("side-moving");
        side.removeEventListener("transitionend", done);
        side.removeEventListener("transitioncancel", done);
      };
      side.addEventListener("transitionend", done);
      side.addEventListener("transitioncancel", done);
    }
    table.classList.toggle("side-open", open);
    this.el.sideToggle.setAttribute("aria-expanded", String(open));
    if (open) this.coachSeen = this.coach;
    this.renderSideToggle();
    this.fit();
    if (open) this.el.table.querySelector(".table-side .side-close")?.focus({ preventScroll: true });
    else if (document.activeElement?.closest?.(".table-side")) this.el.sideToggle.focus({ preventScroll: true });
  }

  /** The drawer's button names what it holds and shows a dot when the coach has news. */
  renderSideToggle() {
    views.renderSideToggle(this);
  }

  /** Scale the table to the window (after anything that changes its height). */
  fit() {
    if (this.el?.table) fitTable(this.el.table, () => this.hand.layout());
  }

  /** @param {boolean} connected */
  onConnection(connected) {
    if (this.people?.onConnection(connected)) return;
    this.el.connection.hidden = connected;
    // While the server cannot be reached, nothing can be played (and nothing is queued): the
    // table is shown as paused until the server's fresh state arrives after reconnecting.
    this.pending = false;
    this.root.querySelector(".table")?.classList.toggle("offline", !connected);
    if (this.message) this.renderControls();
    if (connected) this.people?.reconnected();
  }

  /** @param {import("./table_state.js").StateMessage} message */
  onStateMessage(message) {
    if (this.destroyed) return;
    this.root.querySelector(".table")?.classList.remove("offline");
    this.onState(message);
  }

  /** @param {any} message */
  onError(message) {
    this.pending = false;
    alertMessage(message.message || "That move is not allowed.");
    this.renderControls();
  }

  /** @param {any} message */
  onCoach(message) {
    // A report about a position already left (someone moved while it was worked out).
    if (this.stale(message)) return;
    this.coach = message;
    this.renderCoach();
    // The drawer's button gains its news dot and may wrap the bar above the hand.
    this.fit();
  }

  /** The context every game module function receives. */
  ctx() {
    const message = this.message;
    const view = message?.view ?? {};
    const seat = this.ownSeat();
    return {
      message,
      view,
      seat,
      legal: classify(message?.moves ?? []),
      summary: this.lastSummary,
      players: this.playerCount(),
      name: (s) => this.seatName(s),
      meta: this.meta,
      table: this,
      hand: this.hand,
    };
  }

  /** The seat this page plays (null for someone watching). */
  ownSeat() {
    const own = this.people?.ownSeat();
    return own !== undefined ? own : this.state.seat();
  }

  playerCount() {
    return this.state.playerCount();
  }

  /** @param {number} seat */
  seatName(seat) {
    const own = this.people?.seatName(seat);
    if (own !== undefined) return own;
    if (seat === this.ownSeat()) return "You";
    const info = this.meta?.seats?.[seat];
    if (info && typeof info === "object") {
      if (info.name && !/^(player|seat \d+)$/i.test(info.name)) return info.name;
      if (info.kind === "human") return `Player ${seat + 1}`;
    }
    // The names the server gives computer players (GET /api/games), so both sides agree.
    const names = this.app.games?.find((g) => g.name === this.meta?.game)?.computer_names;
    return names?.length ? names[seat % names.length] : `Player ${seat + 1}`;
  }

  /** @param {number} seat */
  seatLevel(seat) {
    const own = this.people?.seatLevel(seat);
    if (own !== undefined) return own;
    const info = this.meta?.seats?.[seat];
    if (!info || typeof info !== "object") return "";
    if (info.kind === "bot") return info.level || "computer";
    return info.kind === "human" ? "human" : "";
  }

  /**
   * Take a state message: into the table's state at once (every one, in order, as the socket
   * merged it onto its base), drawn on the next animation frame. States arriving faster than
   * the page can draw them (computer players moving with no delay, a slow or throttled
   * device) are drawn once, the latest, with the latest move announced; a state that ends a
   * deal is always drawn, so that its summary and face-up hands are shown.
   * @param {import("./table_state.js").StateMessage} message
   */
  onState(message) {
    if (this.queued?.summary) this.drawQueued();
    // The hint and the coach's report go with a new version: they were about the position before.
    const newVersion = this.state.accept(message);
    if (newVersion) {
      // A move of yours was made (a discard, a declaration, the end of a deal): whatever card
      // was lifted for it is put down, so that nothing stays lifted into the next deal.
      const last = message.last_action;
      if (last && last.seat === message.seat && this.module) {
        const movement = this.module.movement(readMove(last));
        // Drawing keeps a card lifted before the draw, ready to be discarded after it.
        if (movement !== "from-stock" && movement !== "from-pile") this.hand.liftedUid = null;
      }
      this.queuedNew = true;
      if (message.announce) this.queuedAnnounce = message.announce;
    }
    this.states += 1;
    this.queued = message;
    if (this.drawFrame) return;
    const draw = () => this.drawQueued();
    this.drawFrame = requestAnimationFrame(draw);
    // A page in the background gets no frames: it draws on a timer instead.
    this.drawTimer = setTimeout(draw, DRAW_FALLBACK_MS);
  }

  /** Draw the latest state taken, if it is not drawn yet (a move is about to be sent from it,
   * or a newer state would replace one that must be seen). */
  drawQueued() {
    cancelAnimationFrame(this.drawFrame);
    clearTimeout(this.drawTimer);
    this.drawFrame = 0;
    const message = this.queued;
    if (!message || this.destroyed) return;
    this.queued = null;
    const newVersion = this.queuedNew;
    const spoken = this.queuedAnnounce;
    this.queuedNew = false;
    this.queuedAnnounce = "";
    // What the motions compare with is the state on the screen, not the last one taken.
    this.previous = this.drawn;
    this.drawn = message;
    this.draws += 1;
    finishAnimations(this.root);
    const before = captureRects(this);
    if (newVersion && spoken) announce(spokenCards(spoken));
    this.renderAll();
    if (!this.previous && (document.activeElement === document.body || document.activeElement === this.root)) {
      // Arriving at the table: the keyboard starts in your hand.
      this.hand.focusCurrent();
    }
    if (newVersion && this.previous) animateLastMove(this, before);
    if (newVersion) motionAndSound(this, before);
    if (newVersion && options().coach && message.to_move === message.seat) {
      this.socket.send({ type: "coach" });
    }
    this.maybeShowSummary();
  }

  renderAll() {
    // Redrawing replaces the buttons and cards; the keyboard focus must not fall to the page.
    const focusInside = this.root.contains(document.activeElement) && document.activeElement !== this.root;
    this.renderAllParts();
    if (focusInside && !this.root.contains(document.activeElement)) this.hand.focusCurrent();
  }

  renderAllParts() {
    const ctx = this.ctx();
    // State in data attributes: styling hooks, and what automated browser tests wait on.
    const table = /** @type {HTMLElement} */ (this.root.querySelector(".table"));
    Object.assign(table.dataset, {
      version: String(this.message.version),
      toMove: String(this.message.to_move),
      seat: String(ctx.seat),
      phase: String(ctx.view.phase ?? ""),
      finished: this.message.result ? "true" : "false",
      myTurn: this.message.to_move === ctx.seat ? "true" : "false",
    });
    const dealKey = this.module.dealKey(ctx.view);
    const newDeal = this.dealKey !== undefined && dealKey !== null && dealKey !== this.dealKey;
    this.dealKey = dealKey;
    this.hand.sync(this.module.hand(ctx.view), { newDeal, quiet: !this.previous });
    this.groups.afterSync();
    this.hand.setMarks(this.module.handMarks(ctx));
    this.renderOpponents(ctx);
    replaceChildren(this.el.centre, this.module.renderCentre(ctx));
    this.bindCentre();
    this.renderStatus(ctx);
    this.renderMe(ctx);
    this.hand.render();
    this.renderControls();
    replaceChildren(this.el.scores, this.module.renderScores(ctx));
    this.renderCoach();
    this.renderBanner(ctx);
    this.fit();
  }

  /** The opponents' hands turned face up at the end of a hand: shown with the move that ended
   * it, while that hand's summary is open, and once the game is over (by seat, or null). Once
   * the summary has been read and closed, the table moves on, even when the message that ended
   * the hand also dealt the next one (Indecision): the new hand is not shown under old cards. */
  revealedHands(ctx) {
    const key = this.module.summaryKey(ctx);
    if (!key) return null;
    const justEnded = Boolean(this.message.summary) && !this.state.shownSummaries.has(key);
    const ended = justEnded || Boolean(this.message.result) || this.summaryOpenFor === key;
    return ended ? this.module.revealedHands(ctx) : null;
  }

  renderOpponents(ctx) {
    views.renderOpponents(this, ctx);
    this.people?.afterOpponents();
  }

  renderMe(ctx) {
    if (this.people?.replacesMe()) return;
    views.renderMe(this, ctx);
    this.people?.afterMe(ctx);
  }

  renderStatus(ctx) {
    views.renderStatus(this, ctx);
    this.people?.afterStatus(ctx);
  }

  renderHintLine() {
    views.renderHintLine(this);
  }

  /** The hint in one sentence: the coach's reason already starts with the move ("Discard
   * 10H: it is a loose card worth 10"), so the move is named only when there is no reason. */
  hintText() {
    return views.hintText(this);
  }

  renderBanner(ctx) {
    views.renderBanner(this, ctx);
    this.people?.afterBanner(ctx);
  }

  renderTools() {
    views.renderTools(this);
    this.people?.afterTools();
  }

  groupHand() {
    this.groups.arrange();
  }

  renderControls() {
    if (this.people?.replacesControls()) return;
    views.renderControls(this);
  }

  /** A button sending `notation` (disabled when it is null/not legal). */
  actionButton(notation, text, options = {}) {
    return views.actionButton(this, notation, text, options);
  }

  bindCentre() {
    // Where a card from the hand may be let go: the pile (discard) and the STOP area (stop).
    for (const el of this.el.centre.querySelectorAll("[data-zone=pile]")) el.dataset.dropZone = "pile";
    for (const el of this.el.centre.querySelectorAll(".stop-area")) el.dataset.dropZone = "stop";
    for (const el of this.el.centre.querySelectorAll("[data-action]")) {
      el.addEventListener("click", () => {
        const notation = el.dataset.action;
        if (notation && !el.disabled) this.send(notation);
      });
    }
  }

  /** Send an action with the version we saw (after the game's confirmation, if it asks). */
  async send(notation) {
    // A move is made from the state on the screen: one taken but not drawn yet is drawn first.
    this.drawQueued();
    if (this.pending || !this.message) return;
    if (!this.canMove()) {
      alertMessage("Not connected to the table: that move was not sent. Moves are paused until the connection is back.");
      return;
    }
    const version = this.message.version;
    if (!(await this.module.confirmMove(this.ctx(), notation))) return;
    if (this.pending || !this.message || this.message.version !== version || !this.canMove()) return;
    this.lastSent = { notation, rects: captureRects(this) };
    const action = this.ctx().legal.byNotation.get(notation);
    if (action?.card) {
      const el = this.hand.element.querySelector(`.hand-card[data-card="${CSS.escape(action.card)}"]`);
      if (el) this.lastSent.cardRect = el.getBoundingClientRect();
    }
    const hadFocus = this.root.contains(document.activeElement);
    this.pending = true;
    for (const b of this.el.actions.querySelectorAll("button[data-action]")) b.disabled = true;
    // A disabled button loses the focus: keep the keyboard on the table (in the hand).
    const focused = document.activeElement;
    if (hadFocus && (!this.root.contains(focused) || /** @type {HTMLButtonElement} */ (focused).disabled)) this.hand.focusCurrent();
    if (!this.socket.send(this.actionMessage(notation))) {
      this.pending = false;
      this.renderControls();
    }
  }

  /** The websocket message that makes the move `notation` from the state last seen. */
  actionMessage(notation) {
    const message = { type: "action", version: this.message.version, action: notation };
    return this.people ? this.people.decorateAction(message) : message;
  }

  /** "Play again" after the game: a new table with the same game, rules and seats. */
  playAgain() {
    if (this.people) this.people.playAgain();
    else this.app.startSameAgain(this.meta);
  }

  /** The hint's action when it names `card` with a verb other than the main one (stop, declare). */
  hintedOtherVerb(card) {
    if (!this.hint?.action) return null;
    const action = this.hintMove();
    if (action.card !== card) return null;
    const primary = this.module.cardVerbs.some((v) => v.primary && v.verb === action.verb);
    return primary ? null : this.hint.action;
  }

  /** The hinted move: the legal move it names (a hint is about the position shown), else the
   * hint's own description of it. */
  hintMove() {
    return this.ctx().legal.byNotation.get(this.hint?.action) ?? readMove(this.hint?.move);
  }

  /** A card dragged from the hand onto the pile (discard) or another drop zone (its verb). */
  dropCard(card, zone) {
    const ctx = this.ctx();
    const verbs = this.module.cardVerbs.filter((v) => (zone === "pile" ? v.primary : v.verb === zone));
    for (const verb of verbs) {
      const notation = ctx.legal.byCardVerb.get(verb.verb)?.get(card);
      if (notation) {
        this.send(notation);
        return;
      }
    }
    alertMessage(this.module.cannotPlayText(ctx, card), "info");
  }

  /** The lifted card was tapped again (or Enter): play it with the game's main card verb, or
   * with the hinted verb when the hint shown says to stop or declare with this very card. */
  playCard(card) {
    const ctx = this.ctx();
    const hinted = this.hintedOtherVerb(card);
    if (hinted && ctx.legal.all.includes(hinted)) {
      this.send(hinted);
      return;
    }
    for (const verb of this.module.cardVerbs.filter((v) => v.primary)) {
      const notation = ctx.legal.byCardVerb.get(verb.verb)?.get(card);
      if (notation) {
        this.send(notation);
        return;
      }
    }
    const reason = this.module.cannotPlayText(ctx, card);
    alertMessage(reason, "info");
  }

  drawFrom(which) {
    const legal = this.ctx().legal;
    const notation = which === "stock" ? this.module.drawStock(legal) : this.module.drawPile(legal);
    if (notation) this.send(notation);
    else alertMessage(which === "stock" ? "You cannot draw from the stock now." : "You cannot take the discard now.", "info");
  }

  askHint() {
    if (!this.socket || !this.message) return;
    if (this.message.result) {
      // Nothing is left to advise once the game is over.
      announce("The game is over: there is no move to hint.");
      return;
    }
    this.hintAskedAt = this.message.version;
    this.socket.send({ type: "hint" });
  }

  /** @param {any} message */
  stale(message) {
    return this.state.stale(message);
  }

  onHint(message) {
    if (this.stale(message)) return;
    this.hint = message;
    this.renderHintLine();
    const marks = new Map(this.module.handMarks(this.ctx()));
    let lift = null;
    if (message.action) {
      const action = this.hintMove();
      if (action.card) {
        marks.set(action.card, `${marks.get(action.card) || ""} hinted`);
        const entry = this.hand.entries.find((e) => e.card === action.card);
        if (entry) {
          this.hand.focusUid = entry.uid;
          // A stop or a declaration with this card: lift it, so that its button (Stop,
          // Declare) is live and highlighted next to the card.
          if (this.hintedOtherVerb(action.card)) lift = entry.uid;
        }
      }
    }
    this.hand.setMarks(marks);
    if (lift !== null && this.hand.liftedUid !== lift) {
      this.hand.lift(lift);
    } else {
      this.hand.render();
      this.markHintedControls();
    }
    announce(spokenCards(`Hint: ${this.hintText()}`));
  }

  /** Highlight the controls that make the hinted move: a pile, a button, a Stop or Declare. */
  markHintedControls() {
    views.markHintedControls(this);
  }

  renderCoach() {
    views.renderCoach(this);
  }

  maybeShowSummary() {
    const ctx = this.ctx();
    const key = this.module.summaryKey(ctx);
    if (!key || !this.state.markSummarySeen(key)) return;
    this.showSummary(false);
  }

  showSummary(fromButton) {
    const ctx = this.ctx();
    const content = this.module.renderSummary(ctx);
    if (!content) return;
    const finished = Boolean(this.message.result);
    const buttons = [];
    for (const button of this.module.summaryButtons(ctx)) buttons.push(button);
    if (finished) buttons.push(...this.gameOverButtons());
    buttons.push(h("button", { type: "button", class: `btn${finished ? "" : " primary"}`, "data-close": true, autofocus: !finished || null }, finished ? "Close" : "Continue"));
    const review = this.reviewLine();
    this.summaryOpenFor = this.module.summaryKey(ctx);
    openPanel(this.module.summaryTitle(ctx), [content, review, h("div", { class: "btn-row summary-buttons" }, buttons)], {
      wide: true,
      name: "summary",
      closed: () => {
        // The hand's cards stay face up while its summary is read, then the table moves on.
        if (this.summaryOpenFor !== null) {
          this.summaryOpenFor = null;
          if (!this.destroyed && this.message) this.renderOpponents(this.ctx());
        }
        this.hand.focusCurrent();
      },
    });
    if (fromButton) announce("Scores shown.");
  }

  /** The summary's buttons once the game is over. */
  gameOverButtons() {
    const buttons = [
      h("button", { type: "button", class: "btn primary", onclick: () => { closePanel(); this.playAgain(); } }, "Play again"),
      h("button", { type: "button", class: "btn", onclick: () => { closePanel(); this.app.openReplay(this.tableId); } }, "Replay and analysis"),
      h("button", { type: "button", class: "btn", onclick: () => { closePanel(); this.app.showStart(); } }, "New game"),
    ];
    return this.people ? this.people.gameOverButtons(buttons) : buttons;
  }

  /** The summary's line on the finished hand's analysis (for the person who played it). */
  reviewLine() {
    return this.people?.hidesReview() ? null : handReviewLine(this.app, this.tableId);
  }

  /** Keyboard shortcuts that work anywhere on the table (S, D, H, Escape, arrows). */
  keydown(event) {
    if (panelOpen()) return false;
    if (this.people?.blocksKey(event)) return false;
    const target = event.target;
    const typing = target.closest?.("input, select, textarea, [contenteditable]");
    if (typing) return false;
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const key = event.key;
    if (key === "s" || key === "S") {
      this.drawFrom("stock");
      return true;
    }
    if (key === "d" || key === "D") {
      this.drawFrom("pile");
      return true;
    }
    if (key === "h" || key === "H") {
      this.askHint();
      return true;
    }
    if ((key === "a" || key === "A") && this.module?.arrangesGroups) {
      this.groupHand();
      return true;
    }
    if (key === "Escape") {
      if (this.el.table.classList.contains("side-open")) {
        this.toggleSide(false);
        return true;
      }
      if (this.hint) {
        this.hint = null;
        this.renderHintLine();
        return true;
      }
      if (options().coach && !this.el.coach.hidden && this.el.coach.contains(document.activeElement)) {
        this.hand.focusCurrent();
        return true;
      }
      return this.hand.lower();
    }
    if ((key === "ArrowLeft" || key === "ArrowRight") && !target.closest(".hand")) {
      this.hand.focusCurrent();
      return true;
    }
    return false;
  }
}
