// @ts-check
// @ts-check
// A table shared between people (invite links, issue "Play with friends"): the part the table
// (table.js) composes to put the room around it. Before the deal it shows the waiting room; then each person's
// name with whether they are connected (or "reconnecting…" with its countdown), the turn timer
// and time bank, quick messages beside their sender, "you were away" after a reclaim, "Leave
// table" with a confirmation, spectator mode (no hand; the same animations and announcements)
// and the rematch. The table calls the part at its hook points (the room's messages first, then
// after each view it draws); a table that is not shared has no such part.

import { h, listText, replaceChildren } from "./dom.js";
import { newContribution } from "./fairness.js";
import { alertMessage, announce, closePanel, confirmPanel } from "./panel.js";
import { Mutes, phraseWords, presenceOf, QuickMessages, quickMenu, startTicker, turnClock } from "./presence.js";
import { WaitingRoom } from "./waiting_room.js";

/** Errors of the room's own messages (sit, start …): shown, and the table is not touched. */
const ROOM_ERRORS = new Set(["spectator", "not-host", "phase", "seat-taken", "not-ready", "bad-seat", "bad-phrase"]);
const AUTO_WORDS = { timeout: "time ran out", away: "they were away", left: "they left the table" };
const AUTO_WORDS_YOU = { timeout: "time ran out", away: "you were away", left: "you left the table" };

let clientCounter = 0;

/** A client id for an action: unique on this page, so a resent action is recognised. */
function newClientId() {
  clientCounter += 1;
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `c${random[0].toString(36)}${random[1].toString(36)}-${clientCounter}`;
}

/** @typedef {import("./table.js").TableView} TableView */

export class SharedRoom {
  /**
   * @param {TableView} table
   * @param {any} shared the table description's room (`meta.shared`)
   */
  constructor(table, shared) {
    this.table = table;
    /** @type {any} */
    this.room = null;
    this.roomAt = 0;
    this.waiting = null;
    this.quick = new QuickMessages();
    this.mutes = new Mutes(table.tableId);
    this.awayNote = null;
    this.unconfirmed = null;
    this.stopTicker = null;
    this.warnedVersion = null;
    this.invite = shared.invite ?? null;
    /** @type {any} the move sent and not yet acknowledged, sent again after a reconnection */
    this.unconfirmed = null;
    /** @type {string | null} */
    this.awayNote = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.quickTimer = undefined;
    this.setRoom(shared);
  }

  get app() {
    return this.table.app;
  }

  get el() {
    return this.table.el;
  }

  get spectator() {
    return this.room?.you?.role === "spectator";
  }

  /** The table begins: before the deal, the waiting room stands in for it (true then). */
  begin() {
    const waiting = this.room.phase === "waiting";
    if (waiting) this.showWaitingRoom();
    this.stopTicker = startTicker(this.table.root, (_now, reshaped) => this.tick(reshaped));
    return waiting;
  }

  destroy() {
    this.stopTicker?.();
    this.stopTicker = null;
    clearTimeout(this.quickTimer);
  }

  setRoom(room) {
    const before = this.room;
    this.room = room;
    this.roomAt = performance.now();
    if (before && this.el) this.announcePresence(before, room);
  }

  /** Say when a person drops, comes back, is taken over by a computer player or leaves. */
  announcePresence(before, room) {
    const said = [];
    room.seats.forEach((seat, i) => {
      const old = before.seats[i];
      if (!old || seat.kind !== "person" || i === room.you?.seat) return;
      if (seat.left && !old.left) said.push(`${seat.name} left the table: a computer player plays for them.`);
      else if (seat.away && !old.away) said.push(`${seat.name} is away: a computer player moves for them.`);
      else if (!seat.connected && old.connected && !seat.left) said.push(`${seat.name} lost the connection: their seat is kept.`);
      else if (seat.connected && !old.connected) said.push(`${seat.name} is back.`);
    });
    if (said.length) announce(said.join(" "));
  }

  showWaitingRoom() {
    this.waiting = new WaitingRoom({
      app: this.app,
      invite: this.invite,
      send: (message) => this.sendRoom(message),
      leave: () => this.confirmLeave(),
    });
    this.waiting.mount(this.table.root);
    this.waiting.update(this.room);
  }

  /** Send a room message; says so when the connection is down. */
  sendRoom(message) {
    if (this.table.socket?.send(message)) return true;
    alertMessage("Not connected to the table: nothing was sent. Try again once the connection is back.");
    return false;
  }

  /**
   * The connection opened or dropped; true when the waiting room took it (no table yet).
   * @param {boolean} connected
   */
  onConnection(connected) {
    if (this.el) return false;
    this.waiting?.setConnected(connected);
    return true;
  }

  /** Back online at the table: a move sent just before the connection dropped may or may not
   * have arrived. It is sent again with the same client id, and the server applies it at most
   * once. */
  reconnected() {
    if (this.unconfirmed) this.table.socket.send(this.unconfirmed);
  }

  /**
   * Every server message comes here first: the room's own are dealt with (true), the table's
   * go on to it (false) once the room has taken what it needs of them.
   * @param {any} message
   */
  intercept(message) {
    const table = this.table;
    switch (message.type) {
      case "room":
        this.onRoom(message.room);
        return true;
      case "state":
        if (message.room) this.setRoom(message.room);
        // The move's own state acknowledges it (its client id in `last_action`, to the mover's
        // seat only); a later state settles it too: a move for an older version is stale now.
        if (this.unconfirmed && (message.version > this.unconfirmed.version
          || message.last_action?.client_id === this.unconfirmed.client_id)) this.unconfirmed = null;
        if (!this.el) {
          // The host started the game: the waiting room becomes the table.
          this.waiting = null;
          closePanel();
          table.build();
          announce("The game has started.");
        }
        return false;
      case "ack":
        // Sent apart only for a resend the table had applied already (a duplicate).
        if (this.unconfirmed?.client_id === message.client_id) this.unconfirmed = null;
        return true;
      case "away":
        this.awayNote = message.message || `You were away: ${message.moves} moves were played for you.`;
        announce(this.awayNote);
        if (this.el) this.renderAwayNote();
        return true;
      case "quick":
        this.onQuick(message);
        return true;
      case "rematch":
        announce("The rematch is ready.");
        this.app.openTable(message.table_id);
        return true;
      case "left":
        table.socket?.close();
        this.app.showStart();
        announce("You left the table.");
        return true;
      case "error":
        if (message.client_id && this.unconfirmed?.client_id === message.client_id) this.unconfirmed = null;
        if (!this.el || ROOM_ERRORS.has(message.code)) {
          table.pending = false;
          alertMessage(message.message || "That is not possible now.");
          if (this.el) table.renderControls();
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  onRoom(room) {
    this.setRoom(room);
    if (this.waiting) {
      this.waiting.update(room);
      return;
    }
    const table = this.table;
    if (!this.el || !table.message) return;
    const ctx = table.ctx();
    table.renderOpponents(ctx);
    table.renderMe(ctx);
    table.renderBanner(ctx);
    // A seat's presence or clock can change its height: the table is fitted again.
    table.fit();
  }

  /** @param {any} message */
  onQuick(message) {
    const table = this.table;
    const mine = message.seat === this.room?.you?.seat && !this.spectator;
    const name = mine ? "You" : (message.name || table.seatName(message.seat));
    // Someone this page muted is neither shown nor read out.
    if (!mine && this.mutes.has(Mutes.keyOf(message.seat, message.name || table.seatName(message.seat)))) return;
    this.quick.add(message.seat, message.text);
    announce(`${name} ${mine ? "say" : "says"}: ${phraseWords(message.text)}`);
    if (this.el && table.message) {
      const ctx = table.ctx();
      table.renderOpponents(ctx);
      table.renderMe(ctx);
    }
    clearTimeout(this.quickTimer);
    const next = this.quick.nextExpiry();
    if (next !== null) {
      this.quickTimer = setTimeout(() => {
        if (!table.destroyed && this.el && table.message) {
          const ctx = table.ctx();
          table.renderOpponents(ctx);
          table.renderMe(ctx);
        }
      }, next + 50);
    }
  }

  /** Every half second: fit the table again when a clock changed shape, and warn once when
   * one's own turn is about to run out of time. */
  tick(reshaped = false) {
    if (reshaped) this.table.fit();
    const turn = this.room?.turn;
    const message = this.table.message;
    if (!turn || !message || this.spectator || turn.seat !== this.room.you?.seat) return;
    const left = this.roomAt + turn.remaining_ms + (turn.bank_ms ?? 0) - performance.now();
    if (left < 10000 && left > 0 && this.warnedVersion !== message.version) {
      this.warnedVersion = message.version;
      announce("Ten seconds left to move, then a computer player moves for you.");
    }
  }

  // --- the table's hook points: what the room adds to what the table draws ---------------

  /** The seat this page plays (null for someone watching); undefined before the room came. */
  ownSeat() {
    return this.room ? this.room.you?.seat ?? null : undefined;
  }

  /**
   * The name of `seat` at this table, as the room says it; undefined before the room came.
   * @param {number} seat
   * @returns {string | undefined}
   */
  seatName(seat) {
    if (!this.room) return undefined;
    if (seat !== null && seat === this.ownSeat()) return "You";
    const entry = this.room.seats?.[seat];
    return entry?.name || `Seat ${seat + 1}`;
  }

  /**
   * @param {number} seat
   * @returns {string | undefined}
   */
  seatLevel(seat) {
    if (!this.room) return undefined;
    const entry = this.room.seats?.[seat];
    return entry?.kind === "bot" ? entry.level || "computer" : "";
  }

  /**
   * Someone watching has no moves: only Escape (closing the drawer) does anything.
   * @param {KeyboardEvent} event
   */
  blocksKey(event) {
    return this.spectator && event.key !== "Escape";
  }

  /**
   * A move gets a client id, so that one resent after a drop is applied at most once.
   * @param {any} message
   */
  decorateAction(message) {
    message.client_id = newClientId();
    this.unconfirmed = message;
    return message;
  }

  afterBuild() {
    this.el.table.classList.add("shared");
    this.el.table.classList.toggle("spectating", this.spectator);
    this.el.away = h("div", { class: "away-note", role: "status", hidden: true });
    this.el.table.querySelector(".status-lines")?.before(this.el.away);
    this.renderAwayNote();
  }

  renderAwayNote() {
    const note = this.el?.away;
    if (!note) return;
    note.hidden = !this.awayNote;
    if (!this.awayNote) {
      note.replaceChildren();
      return;
    }
    replaceChildren(note, h("span", {}, this.awayNote),
      h("button", { type: "button", class: "btn small", onclick: () => {
        this.awayNote = null;
        this.renderAwayNote();
        this.table.hand.focusCurrent();
        this.table.fit();
      } }, "OK"));
    this.table.fit();
  }

  /** Each seat's presence, clock and quick message. */
  afterOpponents() {
    if (!this.room) return;
    for (const seatEl of this.el.opponents.querySelectorAll(".seat[data-seat]")) {
      const seat = Number(seatEl.dataset.seat);
      const entry = this.room.seats?.[seat];
      const presence = presenceOf(entry, this.roomAt);
      const clock = turnClock(this.room, seat, this.roomAt);
      const bubble = this.quick.bubble(seat);
      const extra = h("div", { class: "seat-presence" }, presence?.el, clock);
      if (presence || clock) seatEl.querySelector(".seat-head")?.after(extra);
      if (bubble) seatEl.append(bubble);
      const words = [presence?.words, clock ? "on a turn timer" : null, bubble ? `says ${bubble.textContent}` : null].filter(Boolean);
      if (words.length) seatEl.setAttribute("aria-label", `${seatEl.getAttribute("aria-label")}, ${words.join(", ")}`);
      seatEl.classList.toggle("disconnected", Boolean(entry && entry.kind === "person" && !entry.connected));
    }
  }

  /** Someone watching is named as such, in place of the seat's line (true then). */
  replacesMe() {
    if (!this.room || !this.spectator) return false;
    replaceChildren(this.el.me, h("span", { class: "me-name watching" }, "Watching"),
      h("span", { class: "muted" }, this.room.spectators > 1 ? ` with ${this.room.spectators - 1} other${this.room.spectators === 2 ? "" : "s"}` : ""));
    return true;
  }

  /** @param {any} ctx */
  afterMe(ctx) {
    if (!this.room) return;
    const clock = turnClock(this.room, ctx.seat, this.roomAt);
    const bubble = this.quick.bubble(ctx.seat);
    if (clock) this.el.me.append(h("span", { class: "my-clock", role: "timer", "aria-label": "Time left for your move" }, clock));
    if (bubble) this.el.me.append(bubble);
  }

  /** @param {any} ctx */
  afterStatus(ctx) {
    const message = this.table.message;
    const last = message?.last_action;
    if (last?.auto && !this.el.lastMove.hidden) {
      const mine = last.seat === ctx.seat;
      const why = (mine ? AUTO_WORDS_YOU : AUTO_WORDS)[last.auto] ?? last.auto;
      this.el.lastMove.append(h("span", { class: "auto-note" }, ` A computer player moved for ${mine ? "you" : "them"}: ${why}.`));
    }
    if (this.spectator && !message.result && message.to_move >= 0) {
      this.el.status.textContent = `${this.table.seatName(message.to_move)} is playing…`;
    }
  }

  /** Someone watching has no moves and no hand to play (true then). */
  replacesControls() {
    if (!this.spectator) return false;
    this.el.actions.replaceChildren();
    this.table.hand.setEnabled(false);
    return true;
  }

  afterTools() {
    const leave = h("button", { type: "button", class: "btn small ghost leave", onclick: () => this.confirmLeave() },
      this.spectator ? "Stop watching" : "Leave table");
    const tools = [leave];
    // The other people at the table, each of whom this page can mute (spectators too).
    const people = (this.room?.seats || [])
      .map((entry, seat) => ({ entry, seat }))
      .filter(({ entry, seat }) => entry?.kind === "person" && (this.spectator || seat !== this.room.you?.seat))
      .map(({ entry, seat }) => {
        const key = Mutes.keyOf(seat, entry.name);
        return { key, name: entry.name, muted: this.mutes.has(key) };
      });
    const menu = quickMenu({
      send: this.spectator ? null : (phrase) => this.sendRoom({ type: "quick", phrase }),
      people,
      onMute: (key, muted) => {
        this.mutes.toggle(key, muted);
        announce(muted ? "Their quick messages are hidden on this page." : "Their quick messages are shown again.");
      },
    });
    if (!this.spectator || people.length) tools.unshift(menu);
    replaceChildren(this.el.tableTools, tools, this.el.sideToggle);
    if (this.spectator) this.el.tools.replaceChildren();
  }

  /** @param {any} ctx */
  afterBanner(ctx) {
    const table = this.table;
    if (!table.message?.result) return;
    const rematch = this.room?.rematch;
    const seat = this.room?.you?.seat;
    /** @param {number} s */
    const name = (s) => table.seatName(s);
    const row = [h("button", { type: "button", class: "btn", onclick: () => table.showSummary(true) }, "See the scores")];
    let status = null;
    if (this.spectator) {
      status = "The players may ask for a rematch.";
    } else if (rematch?.accepted?.includes(seat)) {
      const waiting = (rematch.waiting || []).filter((s) => s !== seat);
      status = waiting.length ? `You want a rematch. Waiting for ${listText(waiting.map(name))}.` : "Everyone answered: the rematch is being set up.";
    } else if (rematch?.declined?.includes(seat)) {
      status = "You said no to a rematch.";
    } else {
      const asked = (rematch?.accepted || []).filter((s) => s !== seat);
      if (asked.length) status = `${listText(asked.map(name))} ${asked.length === 1 ? "wants" : "want"} a rematch.`;
      row.push(
        h("button", { type: "button", class: "btn primary", id: "rematch-yes", onclick: () => this.answerRematch(true) }, "Rematch"),
        h("button", { type: "button", class: "btn", id: "rematch-no", onclick: () => this.answerRematch(false) }, "No rematch"),
      );
    }
    // Leaving is the "Leave table" button beside the hand, as during the game.
    if (!this.spectator) {
      row.push(h("button", { type: "button", class: "btn", onclick: () => this.app.openReplay(table.tableId) }, "Replay and analysis"));
    }
    const banner = this.el.banner;
    replaceChildren(banner,
      h("p", {}, table.module.resultText(ctx)),
      status ? h("p", { class: "rematch-status", role: "status" }, status) : null,
      h("div", { class: "btn-row" }, row));
  }

  /** Someone watching played no hand: there is no analysis or replay of theirs to show. */
  hidesReview() {
    return this.spectator;
  }

  /**
   * The summary's buttons once the game is over: a rematch in place of "Play again".
   * @param {Node[]} buttons the table's own
   */
  gameOverButtons(buttons) {
    if (this.spectator) {
      return [h("button", { type: "button", class: "btn primary", onclick: () => { closePanel(); this.app.showStart(); } }, "Choose a game")];
    }
    return [
      h("button", { type: "button", class: "btn primary", onclick: () => { closePanel(); this.answerRematch(true); } }, "Rematch"),
      ...buttons.slice(1),
    ];
  }

  /** The summary's "Play again" at a shared table asks the others for a rematch. */
  playAgain() {
    if (this.spectator) {
      this.app.showStart();
      return;
    }
    this.answerRematch(true);
  }

  /** @param {boolean} accept */
  answerRematch(accept) {
    const message = accept ? { type: "rematch", accept, contribution: newContribution() } : { type: "rematch", accept };
    if (this.sendRoom(message)) {
      announce(accept ? "You asked for a rematch." : "You said no to a rematch.");
    }
  }

  leaveFinished() {
    this.sendRoom({ type: "leave" });
  }

  /** "Leave table": asked first while the game is on (a computer player takes the seat). */
  async confirmLeave() {
    const phase = this.room?.phase;
    if (this.spectator) {
      if (!this.sendRoom({ type: "leave" })) this.app.showStart();
      return;
    }
    if (phase === "finished" || phase === "abandoned") {
      this.leaveFinished();
      return;
    }
    const waiting = phase === "waiting";
    const ok = await confirmPanel(
      waiting ? "Leave the waiting room?" : "Leave this table?",
      waiting
        ? "Your seat opens for someone else. You can come back with the invite link while the seat is free."
        : "A computer player (Normal) takes your seat for the rest of this game, and you cannot take it back.",
      "Leave the table",
      "Stay",
    );
    if (ok) this.sendRoom({ type: "leave" });
  }
}
