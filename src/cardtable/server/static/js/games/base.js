// @ts-check
// What every game module provides, with defaults that suit a plain draw-and-discard game; each
// game module spreads these and overrides what is its own.

import { plainMove } from "../actions.js";
import { cardElement, cardName, stackElement } from "../cards.js";
import { capitalise, h } from "../dom.js";
import { totalsChart } from "../chart.js";

/** A card pile: the stack of backs (`stock`) as a button when drawing from it is legal. */
export function stockZone({ notation, depth, countText = null, caption = "Stock", key = "S" }) {
  const stack = stackElement({ depth, name: caption, count: null });
  const label = `${caption}${countText ? `, ${countText}` : ""}${notation ? ": draw a card" : ""}`;
  const button = h(
    notation ? "button" : "div",
    {
      class: `zone-button${notation ? " can-act" : ""}`,
      type: notation ? "button" : null,
      "aria-label": label,
      role: notation ? null : "img",
      "aria-keyshortcuts": notation ? key : null,
      dataset: notation ? { action: notation } : {},
    },
    stack,
  );
  stack.removeAttribute("role");
  stack.removeAttribute("aria-label");
  return h(
    "div",
    { class: "zone stock-zone", dataset: { zone: "stock" } },
    button,
    h("span", { class: "zone-caption" }, caption, countText ? h("span", { class: "count" }, ` · ${countText}`) : null),
  );
}

/** The discard pile showing its top card (button when taking it is legal). */
export function pileZone({ top, notation, caption = "Discard pile", depth = 2, lastPlayed = false, blocked = "", key = "D" }) {
  const children = [];
  const layers = Math.max(0, Math.min(depth, 4));
  for (let i = 0; i < layers; i += 1) {
    children.push(h("div", { class: "card under", style: { "--layer": String(i) }, "aria-hidden": "true" }));
  }
  const topEl = top
    ? cardElement(top, { extraClass: `top${lastPlayed ? " last-played" : ""}` })
    : h("div", { class: "card empty top", "aria-hidden": "true" });
  topEl.removeAttribute("role");
  topEl.removeAttribute("aria-label");
  children.push(topEl);
  const label = top
    ? `${caption}: ${cardName(top)} on top${notation ? ", take it" : ""}${blocked ? `, ${blocked}` : ""}`
    : `${caption}: empty`;
  return h(
    "div",
    { class: "zone pile-zone", dataset: { zone: "pile" } },
    h(
      notation ? "button" : "div",
      {
        class: `zone-button pile-stack${notation ? " can-act" : ""}`,
        type: notation ? "button" : null,
        role: notation ? null : "img",
        "aria-label": label,
        "aria-keyshortcuts": notation ? key : null,
        dataset: notation ? { action: notation } : {},
      },
      children,
    ),
    h("span", { class: "zone-caption" }, caption),
  );
}

/** A table of totals per seat with the leader marked by a ★ that the note under it explains
 * (`leaderText`, such as "highest total"). */
export function scoreTable(ctx, { title, columns, rows, note = null, leaderText = "leading" }) {
  const anyLeader = rows.some((row) => row.leader);
  return [
    h("h2", { id: "scores-title" }, title),
    h(
      "table",
      { class: "score-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), columns.map((c) => h("th", { scope: "col", class: "num" }, c)))),
      h(
        "tbody",
        {},
        rows.map((row) =>
          h(
            "tr",
            { class: `${row.seat === ctx.seat ? "me" : ""}${row.leader ? " leader" : ""}`.trim() },
            h("th", { scope: "row" }, ctx.name(row.seat)),
            row.values.map((v, i) => h("td", { class: "num" },
              v === null || v === undefined ? "–" : String(v),
              row.leader && i === row.values.length - 1 ? h("span", { class: "leader-mark", "aria-label": `, ${leaderText}` }, " ★") : null)),
          ),
        ),
      ),
    ),
    note || anyLeader
      ? h("p", { class: "score-note" }, note, anyLeader ? h("span", { class: "leader-legend" }, `${note ? " " : ""}★ ${leaderText}.`) : null)
      : null,
  ];
}

/** Totals after each hand, as an inline SVG chart (from a list of per-hand point lists). */
export function chartFromRounds(ctx, rounds, { title, lowerIsBetter = false, target = null, axis = "hands played" }) {
  if (!rounds || !rounds.length) return null;
  const n = rounds[0].length;
  const series = Array.from({ length: n }, (_, seat) => {
    let total = 0;
    const points = [0];
    for (const round of rounds) {
      total += round[seat] ?? 0;
      points.push(total);
    }
    return { name: ctx.name(seat), points, me: seat === ctx.seat };
  });
  return totalsChart({ title, series, lowerIsBetter, target, axis });
}

/** Replace "seat 2" / "Seat 2" in an engine sentence with the player's name. */
export function nameSeats(ctx, text) {
  if (!text) return "";
  const named = String(text).replace(/\b([Ss])eat (\d+)\b/g, (_, s, n) => ctx.name(Number(n)));
  // "seat 0 wins" becomes "You win", not "You wins".
  const plain = { has: "have", is: "are", was: "were", goes: "go", does: "do" };
  return named.replace(/\bYou (\w+)\b/g, (whole, verb) => {
    if (plain[verb]) return `You ${plain[verb]}`;
    if (/(ches|shes|sses|xes)$/.test(verb)) return `You ${verb.slice(0, -2)}`;
    if (/[^s]s$/.test(verb) && !/(ous|ss|us)$/.test(verb)) return `You ${verb.slice(0, -1)}`;
    return whole;
  });
}

/**
 * What a game module provides (`ctx` is the table's context: the message, the view, the seat,
 * the sorted legal moves, the names).
 * @typedef {object} GameModule
 * @property {string} name
 * @property {string} blurb
 * @property {string} stockButtonText
 * @property {string} pileButtonText
 * @property {{ verb: string, label: string, primary?: boolean, hint?: string, always?: boolean,
 *   lifted?: (card: string) => string }[]} cardVerbs
 * @property {() => Node[]} tileCards
 * @property {(legal: import("../actions.js").Legal) => string | null} drawStock
 * @property {(legal: import("../actions.js").Legal) => string | null} drawPile
 * @property {(view: any) => string[]} hand
 * @property {(view: any) => any} dealKey
 * @property {(view: any) => string | null} pileTop
 * @property {(ctx: any) => Map<string, string>} handMarks
 * @property {(ctx: any, card: string) => string} describeCard
 * @property {(ctx: any, seat: number) => { handSize: number, scoreText: string, badges: any[], out?: boolean }} seatInfo
 * @property {(ctx: any) => Node} renderCentre
 * @property {(ctx: any) => string} turnText
 * @property {(ctx: any) => string} waitingText
 * @property {(ctx: any) => string} resultText
 * @property {(ctx: any, last: import("../actions.js").ServerMove) => string} moveText
 * @property {(ctx: any, action: import("../actions.js").Move) => string | null} buttonText
 * @property {(action: import("../actions.js").Move) => string} buttonClass
 * @property {(ctx: any) => Node[]} extraControls
 * @property {(ctx: any, card: string) => string} cannotPlayText
 * @property {(ctx: any, notation: string) => Promise<boolean>} confirmMove
 * @property {(action: import("../actions.js").Move) => string | null} movement
 * @property {(ctx: any) => Node | Node[]} renderScores
 * @property {boolean} [arrangesGroups]
 * @property {(ctx: any) => string | null} summaryKey
 * @property {(ctx: any) => (string[] | null)[] | null} revealedHands
 * @property {(ctx: any) => string} summaryTitle
 * @property {(ctx: any) => Node | null} renderSummary
 * @property {(ctx: any) => Node[]} summaryButtons
 * @property {(values: any, game: any) => number} [maxPlayers]
 * @property {(game: any) => { label: string, short: string, preset: string, players: number }[]} [quickStarts]
 * @property {(values: any) => string | null} [formatLabel]
 * @property {(values: any, game: any) => void} [onPlayersChange]
 * @property {(name: string, values: any) => boolean} [onRuleChange]
 * @property {(values: any, game: any, rerender: () => void) => Node} [setupExtras]
 * @property {string[]} [setupHandles]
 * @property {(ctx: any) => number[]} [seatsInOrder]
 */

/** @type {GameModule} */
export const baseGame = {
  name: "",
  blurb: "",
  stockButtonText: "Draw from stock",
  pileButtonText: "Take the discard",
  cardVerbs: [{ verb: "discard", label: "Discard", primary: true }],

  tileCards() {
    return ["AS", "KH", "QD", "JC"].map((c) => cardElement(c));
  },

  drawStock(legal) {
    return plainMove(legal, "draw stock", "draw deck");
  },
  drawPile(legal) {
    return plainMove(legal, "draw pile", "take discard");
  },

  hand(view) {
    return view.hand || [];
  },
  /** What changes with each new deal (a new hand number …); null when the game cannot say. */
  dealKey() {
    return null;
  },
  pileTop(view) {
    return view.pile_top ?? null;
  },
  handMarks() {
    return new Map();
  },
  describeCard() {
    return "";
  },
  seatInfo(ctx, seat) {
    return { handSize: ctx.view.hand_sizes?.[seat] ?? 0, scoreText: "", badges: [] };
  },
  renderCentre(ctx) {
    return h("div", { class: "centre-row" },
      stockZone({ notation: this.drawStock(ctx.legal), depth: 3 }),
      pileZone({ top: ctx.view.pile_top, notation: this.drawPile(ctx.legal) }));
  },
  turnText(ctx) {
    if (this.drawStock(ctx.legal) || this.drawPile(ctx.legal)) return "draw from the stock or take the discard.";
    return "choose a card to discard.";
  },
  waitingText() {
    return "Shuffling and dealing…";
  },
  resultText(ctx) {
    // The server's sentence in this seat's words; the engine's own only from an older server.
    return ctx.message.result?.said || nameSeats(ctx, ctx.message.result?.summary) || "The game is over.";
  },
  /** The last move in the server's sentence, in this reader's words ("Ruby discarded 7H."). */
  moveText(ctx, last) {
    return last.said || "";
  },
  buttonText(ctx, action) {
    return capitalise(action.notation);
  },
  buttonClass() {
    return "";
  },
  extraControls() {
    return [];
  },
  cannotPlayText(ctx, card) {
    if (this.drawStock(ctx.legal) || this.drawPile(ctx.legal)) return "Draw a card first: press S for the stock or D for the discard.";
    if (ctx.message.to_move !== ctx.seat) return "It is not your turn yet.";
    return `You cannot discard the ${cardName(card)} now.`;
  },
  async confirmMove() {
    return true;
  },
  movement(action) {
    if (action.verb === "discard") return "to-pile";
    if (action.verb === "draw stock" || action.verb === "draw deck") return "from-stock";
    if (action.verb === "draw pile" || action.verb === "take discard") return "from-pile";
    return null;
  },
  renderScores() {
    return h("h2", { id: "scores-title" }, "Scores");
  },
  summaryKey() {
    return null;
  },
  /** The cards each seat showed when the hand of the view's last summary ended (by seat; null
   * for a hand that stays hidden), or null when there is no such summary. */
  revealedHands() {
    return null;
  },
  summaryTitle() {
    return "Scores";
  },
  renderSummary() {
    return null;
  },
  summaryButtons() {
    return [];
  },
};
