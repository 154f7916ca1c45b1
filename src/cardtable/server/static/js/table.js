// The table screen shared by the three games: opponents, centre (stock, pile …), status and
// last-move lines, your hand, the action buttons built from the state message's `legal` list,
// the scoreboard and the coach. Each game's module (games/*.js) draws what is its own.

import { classify, parseAction } from "./actions.js";
import { finishAnimations, flipUp } from "./animate.js";
import { renderCoachPanel } from "./coach_panel.js";
import { fitTable, watchFit } from "./fit.js";
import { api } from "./api.js";
import { cardBack, cardElement, cardName, prettyCards, shortText } from "./cards.js";
import { h, replaceChildren } from "./dom.js";
import { nameSeats } from "./games/base.js";
import { gameModule } from "./games/index.js";
import { Hand } from "./hand.js";
import { HandGroups } from "./hand_groups.js";
import { options, onOptionsChange } from "./options.js";
import { alertMessage, announce, closePanel, openPanel, panelOpen } from "./panel.js";
import { TableSocket } from "./socket.js";
import { spokenCards } from "./speech.js";
import { animateLastMove, captureRects, motionAndSound } from "./table_motion.js";
import { handReviewLine } from "./analysis.js";

const BOT_NAMES = ["Ruby", "Max", "Ivy", "Otto", "Nell", "Finn", "Rosa", "Theo", "Lena", "Hugo"];

/** A seat's badge is a word, or `{ text, short }` with a short form for crowded phone seats. */
function badgeText(badge) {
  return typeof badge === "string" ? badge : badge.text;
}

function badgeElement(badge) {
  if (typeof badge === "string") return h("span", { class: "badge" }, badge);
  // The seat's aria-label already names the badge in full; the short form is for the eye only.
  return h("span", { class: "badge", title: badge.text },
    h("span", { class: "badge-long" }, badge.text),
    h("span", { class: "badge-short", "aria-hidden": "true" }, badge.short));
}

/** A prompt whose key letters ("draw from the stock (S)") show only while a keyboard is in use:
 * on a touch screen there is no S to press. */
function withKeyHints(text) {
  return text.split(/( \([A-Z]\))/).filter(Boolean)
    .map((part) => (/^ \([A-Z]\)$/.test(part) ? h("span", { class: "key-hint" }, part) : part));
}

export class TableView {
  constructor(app, tableId) {
    this.app = app;
    this.tableId = tableId;
    this.meta = null;
    this.message = null;
    this.previous = null;
    this.module = null;
    this.pending = false;
    this.coach = null;
    this.hint = null;
    this.summaryOpenFor = null;
    this.shownSummaries = new Set(JSON.parse(sessionStorage.getItem(`summaries:${tableId}`) || "[]"));
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
    this.socket = null;
    this.root = null;
    try {
      this.lastSummary = JSON.parse(sessionStorage.getItem(`summary:${tableId}`) || "null");
    } catch {
      this.lastSummary = null;
    }
    this.destroyed = false;
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
    if (this.meta.your_seat === null || this.meta.your_seat === undefined) {
      this.showUnavailable("You do not sit at this table.");
      return;
    }
    this.module = gameModule(this.meta.game);
    this.app.setTitle(this.app.gameTitle(this.meta.game));
    this.build();
    this.socket = new TableSocket(
      this.tableId,
      (message) => this.onMessage(message),
      (connected) => this.onConnection(connected),
      (reason) => this.showUnavailable(reason),
    );
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
    if (this.socket) this.socket.close();
    this.hand.resizeObserver.disconnect();
    this.stopFit?.();
    this.stopRefocus?.();
    document.body.classList.remove("at-table");
  }

  /** Whether moves can be sent now: connected and not waiting for the last one. */
  canMove() {
    return Boolean(this.socket?.connected) && !this.offline;
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
      if (this.destroyed || dialog?.open) return;
      if (!document.activeElement || document.activeElement === document.body) this.hand.focusCurrent();
    });
    dialog?.addEventListener("close", refocus);
    this.stopRefocus = () => dialog?.removeEventListener("close", refocus);
    this.renderTools();
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
    const coachOn = options().coach;
    const open = this.el.table.classList.contains("side-open");
    const news = coachOn && this.coach && !open && this.coachSeen !== this.coach;
    replaceChildren(this.el.sideToggle, "Scores", coachOn ? h("span", { class: "long" }, " & coach") : null,
      news ? h("span", { class: "dot", "aria-hidden": "true" }) : null);
    this.el.sideToggle.setAttribute("aria-label", `${coachOn ? "Scores and coach" : "Scores"}${news ? ", new tips" : ""}`);
  }

  /** Scale the table to the window (after anything that changes its height). */
  fit() {
    if (this.el?.table) fitTable(this.el.table, () => this.hand.layout());
  }

  onConnection(connected) {
    this.el.connection.hidden = connected;
    // While the server cannot be reached, nothing can be played (and nothing is queued): the
    // table is shown as paused until the server's fresh state arrives after reconnecting.
    this.offline = !connected;
    this.pending = false;
    this.root.querySelector(".table")?.classList.toggle("offline", !connected);
    if (this.message) this.renderControls();
  }

  onMessage(message) {
    if (this.destroyed) return;
    switch (message.type) {
      case "state":
        this.offline = false;
        this.root.querySelector(".table")?.classList.remove("offline");
        this.onState(message);
        break;
      case "error":
        this.pending = false;
        alertMessage(message.message || "That move is not allowed.");
        this.renderControls();
        break;
      case "hint":
        this.onHint(message);
        break;
      case "groups":
        this.groups.onAnswer(message);
        break;
      case "coach":
        // A report about a position already left (someone moved while it was worked out).
        if (this.stale(message)) break;
        this.coach = message;
        this.renderCoach();
        // The drawer's button gains its news dot and may wrap the bar above the hand.
        this.fit();
        break;
      default:
        break;
    }
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
      legal: classify(message?.legal ?? []),
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
    return this.message?.seat ?? this.meta?.your_seat ?? 0;
  }

  playerCount() {
    const view = this.message?.view;
    return view?.hand_sizes?.length ?? view?.players ?? this.meta?.seats?.length ?? this.meta?.rules?.players ?? 2;
  }

  seatName(seat) {
    if (seat === this.ownSeat()) return "You";
    const info = this.meta?.seats?.[seat];
    if (info && typeof info === "object") {
      if (info.name && !/^(player|seat \d+)$/i.test(info.name)) return info.name;
      if (info.kind === "human") return `Player ${seat + 1}`;
    }
    // The names the server gives computer players (GET /api/games), so both sides agree.
    const names = this.app.games?.find((g) => g.name === this.meta?.game)?.computer_names;
    const list = names?.length ? names : BOT_NAMES;
    return list[seat % list.length];
  }

  seatLevel(seat) {
    const info = this.meta?.seats?.[seat];
    if (!info || typeof info !== "object") return "";
    if (info.kind === "bot") return info.level || "computer";
    return info.kind === "human" ? "human" : "";
  }

  onState(message) {
    finishAnimations(this.root);
    const before = captureRects(this);
    this.previous = this.message;
    this.message = message;
    // The server sends a finished deal's explanation once, with the move that finished it.
    if (message.summary) {
      this.lastSummary = message.summary;
      try {
        sessionStorage.setItem(`summary:${this.tableId}`, JSON.stringify(message.summary));
      } catch {
        // Not kept across reloads then; the view still has the bare hands and points.
      }
    }
    this.pending = false;
    const newVersion = !this.previous || this.previous.version !== message.version;
    if (newVersion) {
      this.hint = null;
      // The coach's last report was about the position before this move.
      this.coach = null;
      // A move of yours was made (a discard, a declaration, the end of a deal): whatever card
      // was lifted for it is put down, so that nothing stays lifted into the next deal.
      const last = message.last_action;
      if (last && last.seat === message.seat && this.module) {
        const movement = this.module.movement(parseAction(last.action || ""));
        // Drawing keeps a card lifted before the draw, ready to be discarded after it.
        if (movement !== "from-stock" && movement !== "from-pile") this.hand.liftedUid = null;
      }
      if (message.announce) announce(spokenCards(message.announce));
    }
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
    const table = this.root.querySelector(".table");
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
    const justEnded = Boolean(this.message.summary) && !this.shownSummaries.has(key);
    const ended = justEnded || Boolean(this.message.result) || this.summaryOpenFor === key;
    return ended ? this.module.revealedHands(ctx) : null;
  }

  renderOpponents(ctx) {
    const n = ctx.players;
    const items = [];
    const revealed = this.revealedHands(ctx);
    const revealKey = revealed ? this.module.summaryKey(ctx) : null;
    const flip = revealKey !== null && revealKey !== this.flippedKey;
    this.flippedKey = revealKey;
    // Someone watching has no seat of their own: every seat is shown, in seat order.
    const seats = ctx.seat === null ? Array.from({ length: n }, (_, k) => k) : this.module.seatsInOrder
      ? this.module.seatsInOrder(ctx)
      : Array.from({ length: n - 1 }, (_, k) => (ctx.seat + k + 1) % n);
    for (const seat of seats) {
      const info = this.module.seatInfo(ctx, seat);
      const toMove = this.message.to_move === seat;
      const showing = revealed?.[seat] ?? null;
      const backs = h("div", { class: `opp-cards${showing ? " face-up" : ""}`, "aria-hidden": "true" });
      if (showing) {
        backs.style.setProperty("--cards", String(Math.max(2, showing.length)));
        for (const card of showing) backs.append(cardElement(card, { extraClass: "tiny" }));
      } else {
        const shown = Math.min(info.handSize ?? 0, 14);
        for (let i = 0; i < shown; i += 1) backs.append(cardBack({ extraClass: "tiny" }));
      }
      if (showing && flip) flipUp(backs.children);
      const shownText = showing ? `, showed ${showing.map(cardName).join(", ")}` : "";
      const level = this.seatLevel(seat);
      const name = this.seatName(seat);
      items.push(
        h(
          "article",
          {
            class: `seat opponent${toMove ? " to-move" : ""}${info.out ? " out" : ""}`,
            role: "listitem",
            dataset: { seat: String(seat) },
            "aria-label": `${name}${level ? `, ${level}` : ""}, ${info.handSize ?? 0} cards${info.scoreText ? `, ${info.scoreText}` : ""}${info.badges?.length ? `, ${info.badges.map(badgeText).join(", ")}` : ""}${shownText}${toMove ? ", to play" : ""}`,
          },
          h("div", { class: "seat-head" },
            h("span", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1)),
            h("span", { class: "seat-name" }, name),
            level ? h("span", { class: "seat-level" }, level) : null,
            toMove ? h("span", { class: "thinking", "aria-hidden": "true" }, h("i"), h("i"), h("i")) : null),
          backs,
          h("div", { class: "seat-meta" },
            h("span", { class: `hand-size${showing ? " showed" : ""}` }, showing ? "showed" : [String(info.handSize ?? 0),
              h("span", { class: "cards-word" }, ` card${info.handSize === 1 ? "" : "s"}`)]),
            info.scoreText ? h("span", { class: "seat-score" }, info.scoreText) : null,
            (info.badges || []).map(badgeElement)),
        ),
      );
    }
    replaceChildren(this.el.opponents, items);
    this.el.opponents.style.setProperty("--opponents", String(Math.max(1, n - 1)));
    // Many opponents get compact seats, so that ten players still leave room for the hand.
    this.el.opponents.classList.toggle("many", items.length >= 4);
    this.el.opponents.classList.toggle("crowded", items.length >= 6);
  }

  renderMe(ctx) {
    const info = this.module.seatInfo(ctx, ctx.seat);
    const toMove = this.message.to_move === ctx.seat;
    replaceChildren(
      this.el.me,
      h("span", { class: `me-name${toMove ? " to-move" : ""}` }, "You"),
      info.scoreText ? h("span", { class: "seat-score" }, info.scoreText) : null,
      (info.badges || []).map(badgeElement),
    );
    this.el.me.closest(".my-area")?.classList.toggle("to-move", toMove);
  }

  renderStatus(ctx) {
    const message = this.message;
    let text;
    if (message.result) {
      text = "Game over.";
    } else if (message.to_move === ctx.seat) {
      text = `Your turn: ${this.module.turnText(ctx)}`;
    } else if (message.to_move >= 0) {
      text = `${this.seatName(message.to_move)} is playing…`;
    } else {
      text = this.module.waitingText(ctx);
    }
    replaceChildren(this.el.status, withKeyHints(text));
    this.el.status.classList.toggle("yours", message.to_move === ctx.seat);
    const last = message.last_action;
    if (last && last.action) {
      const who = this.seatName(last.seat);
      this.el.lastMove.textContent = `Last move: ${this.module.moveText(ctx, who, last.seat, last.action)}`;
      this.el.lastMove.hidden = false;
    } else {
      this.el.lastMove.hidden = true;
    }
    this.renderHintLine();
  }

  renderHintLine() {
    const line = this.el.hintLine;
    const wasHidden = line.hidden;
    if (!this.hint) {
      line.hidden = true;
      if (!wasHidden) this.fit();
      return;
    }
    line.hidden = false;
    replaceChildren(line, h("strong", {}, "Hint: "), prettyCards(this.hintText()));
    this.fit();
  }

  /** The hint in one sentence: the coach's reason already starts with the move ("Discard
   * 10H: it is a loose card worth 10"), so the move is named only when there is no reason. */
  hintText() {
    const ctx = this.ctx();
    if (this.hint.reason) return nameSeats(ctx, this.hint.reason);
    return this.hint.action ? `${this.module.actionText(ctx, this.hint.action)}.` : "Nothing to do now.";
  }

  renderBanner(ctx) {
    const banner = this.el.banner;
    if (!this.message.result) {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
    replaceChildren(
      banner,
      h("p", {}, this.module.resultText(ctx)),
      h("div", { class: "btn-row" },
        h("button", { type: "button", class: "btn primary", onclick: () => this.showSummary(true) }, "See the scores"),
        h("button", { type: "button", class: "btn", onclick: () => this.playAgain() }, "Play again"),
        h("button", { type: "button", class: "btn", onclick: () => this.app.openReplay(this.tableId) }, "Replay and analysis"),
        h("button", { type: "button", class: "btn", onclick: () => this.app.showStart() }, "New game")),
    );
  }

  renderTools() {
    // On a phone the buttons drop their first words ("Suit"); the accessible name stays whole.
    const long = (text) => h("span", { class: "long" }, text);
    const short = (text) => h("span", { class: "short" }, text);
    const sortSuit = h("button", { type: "button", class: "btn small ghost", "aria-label": "Sort by suit", onclick: () => this.hand.sortBy("suit") }, long("Sort by suit"), short("Suit"));
    const sortRank = h("button", { type: "button", class: "btn small ghost", "aria-label": "Sort by rank", onclick: () => this.hand.sortBy("rank") }, long("Sort by rank"), short("Rank"));
    // "Arrange for me" lays out the solver's own groups (games whose hands are read as groups).
    const group = this.module?.arrangesGroups
      ? h("button", { type: "button", class: "btn small ghost arrange", "aria-label": "Arrange for me", "aria-keyshortcuts": "A", onclick: () => this.groupHand() }, "Arrange", long(" for me"))
      : null;
    const hint = h("button", { type: "button", class: "btn small ghost", "aria-keyshortcuts": "H", onclick: () => this.askHint() },
      "Hint", h("kbd", { "aria-hidden": "true" }, "H"));
    // Leaving keeps the game: it waits under "Games in progress" on the start page.
    const leave = h("button", { type: "button", class: "btn small ghost leave", onclick: () => this.app.leaveTable() }, "Leave");
    replaceChildren(this.el.tools, ...[sortSuit, sortRank, group, hint].filter(Boolean));
    replaceChildren(this.el.tableTools, leave, this.el.sideToggle);
  }

  groupHand() {
    this.groups.arrange();
  }

  renderControls() {
    if (!this.message) return;
    const ctx = this.ctx();
    const { legal } = ctx;
    const lifted = this.hand.lifted();
    const buttons = [];
    const disabled = this.pending || !this.canMove();
    const drawStock = this.module.drawStock(legal);
    const drawPile = this.module.drawPile(legal);
    // Only the moves possible now are shown: no rows of greyed-out buttons.
    if (drawStock) buttons.push(this.actionButton(drawStock, this.module.stockButtonText, { key: "S", extraClass: "draw" }));
    if (drawPile) buttons.push(this.actionButton(drawPile, this.module.pileButtonText, { key: "D", extraClass: "draw" }));
    for (const verb of this.module.cardVerbs) {
      const cards = legal.byCardVerb.get(verb.verb);
      if (!cards && !verb.always) continue;
      const notation = lifted && cards ? cards.get(lifted) : null;
      // A card's move appears once a card it applies to is lifted.
      if (!notation) continue;
      let text = `${verb.label}${verb.hint ? ` (${verb.hint})` : ""}`;
      if (lifted) text = verb.lifted ? verb.lifted(shortText(lifted)) : `${verb.label} ${shortText(lifted)}`;
      buttons.push(this.actionButton(notation, text, { extraClass: verb.primary ? "primary card-verb" : "card-verb", dataVerb: verb.verb }));
    }
    for (const extra of this.module.extraControls(ctx)) buttons.push(extra);
    for (const action of legal.plain) {
      if (action.notation === drawStock || action.notation === drawPile) continue;
      const text = this.module.buttonText(ctx, action);
      if (!text) continue;
      buttons.push(this.actionButton(action.notation, text, { extraClass: this.module.buttonClass(action) }));
    }
    const focusedKey = document.activeElement?.closest?.(".actions") ? document.activeElement.dataset.key : null;
    replaceChildren(this.el.actions, buttons.filter(Boolean));
    if (disabled) for (const b of this.el.actions.querySelectorAll("button[data-action]")) b.disabled = true;
    this.markHintedControls();
    if (focusedKey) {
      const again = this.el.actions.querySelector(`[data-key="${CSS.escape(focusedKey)}"]:not(:disabled)`);
      if (again) again.focus({ preventScroll: true });
      else this.hand.focusCurrent();
    }
    this.hand.setEnabled(!disabled);
  }

  /** A button sending `notation` (disabled when it is null/not legal). */
  actionButton(notation, text, { key = null, extraClass = "", dataVerb = null } = {}) {
    const button = h(
      "button",
      {
        type: "button",
        class: `btn action ${extraClass}`.trim(),
        disabled: !notation,
        "aria-keyshortcuts": key,
        dataset: { action: notation || "", key: dataVerb || text, verb: dataVerb || "" },
      },
      text,
      key ? h("kbd", { "aria-hidden": "true" }, key) : null,
    );
    button.addEventListener("click", () => {
      if (notation) this.send(notation);
    });
    return button;
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
    if (this.pending || !this.message) return;
    if (!this.canMove()) {
      alertMessage("Not connected to the table: that move was not sent. Moves are paused until the connection is back.");
      return;
    }
    const version = this.message.version;
    if (!(await this.module.confirmMove(this.ctx(), notation))) return;
    if (this.pending || !this.message || this.message.version !== version || !this.canMove()) return;
    this.lastSent = { notation, rects: captureRects(this) };
    const action = parseAction(notation);
    if (action.card) {
      const el = this.hand.element.querySelector(`.hand-card[data-card="${CSS.escape(action.card)}"]`);
      if (el) this.lastSent.cardRect = el.getBoundingClientRect();
    }
    const hadFocus = this.root.contains(document.activeElement);
    this.pending = true;
    for (const b of this.el.actions.querySelectorAll("button[data-action]")) b.disabled = true;
    // A disabled button loses the focus: keep the keyboard on the table (in the hand).
    const focused = document.activeElement;
    if (hadFocus && (!this.root.contains(focused) || focused.disabled)) this.hand.focusCurrent();
    if (!this.socket.send(this.actionMessage(notation))) {
      this.pending = false;
      this.renderControls();
    }
  }

  /** The websocket message that makes the move `notation` from the state last seen. */
  actionMessage(notation) {
    return { type: "action", version: this.message.version, action: notation };
  }

  /** "Play again" after the game: a new table with the same game, rules and seats. */
  playAgain() {
    this.app.startSameAgain(this.meta);
  }

  /** The hint's action when it names `card` with a verb other than the main one (stop, declare). */
  hintedOtherVerb(card) {
    if (!this.hint?.action) return null;
    const action = parseAction(this.hint.action);
    if (action.card !== card) return null;
    const primary = this.module.cardVerbs.some((v) => v.primary && v.verb === action.verb);
    return primary ? null : this.hint.action;
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

  /** Whether an answer (hint, coach) is about another table version than the one shown, or
   * comes after the game ended: the turn has passed, and the advice with it. */
  stale(message) {
    if (!this.message || this.message.result) return true;
    const version = message.version ?? (message.type === "hint" ? this.hintAskedAt : undefined);
    return version !== undefined && version !== this.message.version;
  }

  onHint(message) {
    if (this.stale(message)) return;
    this.hint = message;
    this.renderHintLine();
    const marks = new Map(this.module.handMarks(this.ctx()));
    let lift = null;
    if (message.action) {
      const action = parseAction(message.action);
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
    const action = this.hint?.action || null;
    for (const el of this.el.centre.querySelectorAll("[data-action]")) {
      el.classList.toggle("hinted", Boolean(action) && el.dataset.action === action);
    }
    for (const el of this.el.actions.querySelectorAll("[data-action]")) {
      el.classList.toggle("hinted", Boolean(action) && el.dataset.action === action);
    }
    // A number to enter (Indecision's announcement): the hinted number fills its box, and the
    // box and its button are marked, as a hinted card or pile is.
    const hinted = action ? parseAction(action) : null;
    for (const form of this.el.actions.querySelectorAll("form[data-number-verb]")) {
      const match = Boolean(hinted) && hinted.number !== null && hinted.verb === form.dataset.numberVerb;
      const input = form.querySelector("input");
      if (match && input) input.value = String(hinted.number);
      input?.classList.toggle("hinted", match);
      form.querySelector("button")?.classList.toggle("hinted", match);
    }
  }

  renderCoach() {
    const panel = this.el.coach;
    const on = options().coach;
    panel.hidden = !on;
    if (this.el.table.classList.contains("side-open")) this.coachSeen = this.coach;
    this.renderSideToggle();
    if (!on) return;
    renderCoachPanel(panel, this.coach, {
      finished: Boolean(this.message?.result),
      say: (text) => nameSeats(this.ctx(), text),
    });
  }

  maybeShowSummary() {
    const ctx = this.ctx();
    const key = this.module.summaryKey(ctx);
    if (!key || this.shownSummaries.has(key)) return;
    this.shownSummaries.add(key);
    sessionStorage.setItem(`summaries:${this.tableId}`, JSON.stringify([...this.shownSummaries].slice(-20)));
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
    return [
      h("button", { type: "button", class: "btn primary", onclick: () => { closePanel(); this.playAgain(); } }, "Play again"),
      h("button", { type: "button", class: "btn", onclick: () => { closePanel(); this.app.openReplay(this.tableId); } }, "Replay and analysis"),
      h("button", { type: "button", class: "btn", onclick: () => { closePanel(); this.app.showStart(); } }, "New game"),
    ];
  }

  /** The summary's line on the finished hand's analysis (for the person who played it). */
  reviewLine() {
    return handReviewLine(this.app, this.tableId);
  }

  /** Keyboard shortcuts that work anywhere on the table (S, D, H, Escape, arrows). */
  keydown(event) {
    if (panelOpen()) return false;
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
