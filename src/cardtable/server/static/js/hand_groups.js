// The hand's groups as the server reads them: asks the server (the `groups` websocket message)
// to label the player's own groups and place a card just drawn, lays out the solver's best
// arrangement for "Arrange for me", and previews the groups a declaration would show. The page
// knows no meld rule: every label, point and placement here is the server's.
//
// The arrangement itself is kept in this browser (localStorage, per table and seat; see Hand):
// it is the player's own view of their cards, which the server needs for nothing (a
// declaration is checked by the solver), so keeping it here puts no write on the server per
// drag and nothing in the state frames.

import { arrangementKey } from "./hand.js";
import { announce } from "./panel.js";

const PREVIEW_MS = 4000;

export class HandGroups {
  /** @param {object} table the TableView (its socket, hand, module and state) */
  constructor(table) {
    this.table = table;
    this.seq = 0;
    this.labelSeq = -1;
    this.sentKey = null;
    this.lastAsked = null;
    this.waiting = new Map();
    this.arrangeOnAnswer = false;
  }

  /** True when this table's game arranges hands in groups and this page plays a seat. */
  supported() {
    const { table } = this;
    // Spectators (a state with no seat) have no hand to arrange; nor has a seat out of the deal.
    const message = table.message;
    return Boolean(table.module?.arrangesGroups) && typeof message?.seat === "number" && (message.view?.hand?.length ?? 0) > 0;
  }

  /** After each state: keep the arrangement under this table and seat, and ask for labels when
   * the cards or the groups changed since the last answer. */
  afterSync() {
    const { table } = this;
    const seat = table.ownSeat();
    if (seat !== null && seat !== undefined) table.hand.useStorage(`order:${table.tableId}:${seat}`);
    if (!this.supported()) return;
    const key = arrangementKey(table.hand.fullPartition());
    if (key !== this.lastAsked) this.request();
  }

  /** Ask for the labels of the groups as they are now (the latest question wins). */
  request() {
    if (!this.supported()) return;
    const hand = this.table.hand;
    const groups = hand.partition();
    this.sentKey = arrangementKey(groups);
    this.lastAsked = arrangementKey(hand.fullPartition());
    this.seq += 1;
    this.labelSeq = this.seq;
    // Not connected: asked again once the fresh state arrives after reconnecting.
    if (!this.table.socket?.send({ type: "groups", groups, seq: this.seq })) this.lastAsked = null;
  }

  onAnswer(message) {
    const waiter = this.waiting.get(message.seq);
    if (waiter) {
      this.waiting.delete(message.seq);
      waiter(message);
      return;
    }
    if (message.seq !== this.labelSeq) return; // a newer question is on its way
    const hand = this.table.hand;
    if (this.arrangeOnAnswer && message.best?.partition) {
      this.arrangeOnAnswer = false;
      this.layBest(message.best);
      return;
    }
    if (hand.applyAnswer(message, { sentKey: this.sentKey })) {
      this.lastAsked = arrangementKey(hand.fullPartition());
    }
  }

  /** "Arrange for me": the solver's own arrangement, the one the count and a declaration use. */
  arrange() {
    const best = this.table.hand.evaluation?.best;
    const cards = [...this.table.hand.cards()].sort();
    if (best?.partition && JSON.stringify(best.partition.flat().sort()) === JSON.stringify(cards)) {
      this.layBest(best);
    } else {
      this.arrangeOnAnswer = true;
      this.request();
    }
  }

  layBest(best) {
    this.table.hand.arrange(best.partition);
    const sequences = best.groups.filter((g) => g.kind === "pure sequence" || g.kind === "sequence").length;
    const groups = best.groups.length;
    announce(
      groups
        ? `Hand arranged as the count reads it: ${groups} group${groups === 1 ? "" : "s"}${sequences ? `, ${sequences} of them sequences` : ""}; ${best.points} points.`
        : `No group counts yet: ${best.points} points.`,
    );
  }

  /** The groups a declaration putting down `card` would show, as the server reads them, with
   * the solver's best arrangement of the same cards; null when no answer came in time. */
  preview(card) {
    if (!this.supported() || !this.table.socket) return Promise.resolve(null);
    this.seq += 1;
    const seq = this.seq;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(seq);
        resolve(null);
      }, PREVIEW_MS);
      this.waiting.set(seq, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      if (!this.table.socket.send({ type: "groups", groups: this.table.hand.partition(), put_down: card, seq })) {
        clearTimeout(timer);
        this.waiting.delete(seq);
        resolve(null);
      }
    });
  }
}
