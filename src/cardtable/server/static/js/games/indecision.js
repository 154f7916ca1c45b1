// @ts-check
// Indecision on the table: the deck with its count, the pile, the STOP area, stopping (with a
// warning before a stop that would forfeit), the manual declaration mode (announce, correct,
// confirm, challenges), and each hand's melds and points, racing to the target.

import { plainMove } from "../actions.js";
import { cardBack, cardElement, cardRow, shortText } from "../cards.js";
import { h } from "../dom.js";
import { confirmPanel } from "../panel.js";
import { baseGame, pileZone, scoreTable, stockZone } from "./base.js";
import { totalsChart } from "../chart.js";

function handNumber(view) {
  return view.hand_number ?? 0;
}

/** Totals after each finished hand, remembered in this browser for the chart. */
function rememberTotals(ctx) {
  const key = `indecision-totals:${ctx.table.tableId}`;
  let history = {};
  try {
    history = JSON.parse(localStorage.getItem(key) || "{}");
  } catch {
    history = {};
  }
  const last = ctx.view.last_hand;
  if (last && last.results?.length) {
    const totals = new Array(ctx.players).fill(null);
    for (const r of last.results) totals[r.seat] = r.total;
    for (let s = 0; s < totals.length; s += 1) if (totals[s] === null) totals[s] = ctx.view.totals?.[s] ?? 0;
    history[last.hand_number] = totals;
    try {
      localStorage.setItem(key, JSON.stringify(history));
    } catch {
      // Without storage the chart shows only this session's hands.
    }
  }
  return history;
}

/** A challenged announcement and its penalty: twice the points over, at most the total. */
function challengeText(r) {
  const over = r.declared - r.score;
  const lead = `Challenged: the true score is ${r.score}, ${over} below the ${r.declared} announced, so the hand scores 0 and`;
  if (r.penalty < 2 * over) return `${lead} ${r.penalty} is taken off the total (twice the ${over} is ${2 * over}, capped at the total).`;
  return `${lead} ${r.penalty} (twice the ${over}) is taken off the total.`;
}

export default {
  ...baseGame,
  name: "indecision",
  blurb: "5 cards, melds score, race to 121",
  stockButtonText: "Draw from the deck",
  pileButtonText: "Take from the pile",
  cardVerbs: [
    { verb: "discard", label: "Discard", primary: true },
    { verb: "stop", label: "Stop", hint: "lift your spare card", lifted: (card) => `Stop, ${card} face down` },
  ],

  tileCards() {
    return ["5H", "6H", "7H", "7C"].map((c) => cardElement(c));
  },

  drawStock(legal) {
    return plainMove(legal, "draw deck");
  },
  dealKey(view) {
    return view.hand_number ?? null;
  },
  drawPile(legal) {
    return plainMove(legal, "draw pile");
  },

  handMarks(ctx) {
    const marks = new Map();
    if (ctx.view.drawn && ctx.message.to_move === ctx.seat) marks.set(ctx.view.drawn, "taken");
    return marks;
  },

  describeCard(ctx, card) {
    if (ctx.view.drawn && ctx.view.drawn === card && ctx.message.to_move === ctx.seat) {
      return `just drawn from the ${ctx.view.drawn_from || "deck"}`;
    }
    return "";
  },

  seatInfo(ctx, seat) {
    const view = ctx.view;
    const badges = [];
    if (view.dealer === seat) badges.push("dealer");
    if (view.starter === seat) badges.push("starter");
    if (view.stopper === seat) badges.push("stopped");
    return {
      handSize: view.hand_sizes?.[seat] ?? 0,
      scoreText: `${view.totals?.[seat] ?? 0} / ${view.target_score ?? 121}`,
      badges,
    };
  },

  renderCentre(ctx) {
    const view = ctx.view;
    const last = ctx.message.last_action;
    const lastDiscard = last?.kind === "discard" && view.pile_top === last.cards?.[0];
    const stop = h(
      "div",
      { class: "zone stop-zone" },
      h("div", { class: "stop-area", role: "img", "aria-label": view.stopper !== null && view.stopper !== undefined ? `STOP area: ${ctx.name(view.stopper)} stopped with a card face down` : "STOP area, empty" },
        view.stopper !== null && view.stopper !== undefined
          ? (view.stop_card ? cardElement(view.stop_card, { extraClass: "stop-card" }) : cardBack({ extraClass: "stop-card" }))
          : h("span", { class: "stop-word", "aria-hidden": "true" }, "STOP")),
      h("span", { class: "zone-caption" }, "Stop area"),
    );
    return h(
      "div",
      { class: "centre-row" },
      stockZone({ notation: this.drawStock(ctx.legal), depth: Math.ceil((view.deck_size ?? 0) / 8), countText: `${view.deck_size ?? 0} cards`, caption: "Deck" }),
      pileZone({ top: view.pile_top, notation: this.drawPile(ctx.legal), caption: "Pile", depth: Math.min(3, (view.pile?.length ?? 1) - 1), lastPlayed: Boolean(lastDiscard) }),
      stop,
    );
  },

  turnText(ctx) {
    switch (ctx.view.phase) {
      case "opening":
        return "you are the starter: discard one of your six cards to start the pile.";
      case "draw":
        return "draw from the deck (S) or the pile (D).";
      case "discard":
        return "discard a card (tap it twice), or stop the hand with it face down.";
      case "declare":
        return "announce your hand's score.";
      case "confirm":
        return `you announced ${ctx.view.pending_declaration}: confirm it or correct it.`;
      default:
        return "wait.";
    }
  },

  waitingText(ctx) {
    if (ctx.view.phase === "cut") return "Cutting for the first deal…";
    if (ctx.view.phase === "reshuffle") return "The deck ran out: shuffling the pile into a new deck…";
    return "Dealing the next hand…";
  },

  buttonText(ctx, action) {
    if (action.verb === "confirm") return `Confirm ${ctx.view.pending_declaration ?? ""}`.trim();
    return baseGame.buttonText.call(this, ctx, action);
  },
  buttonClass(action) {
    return action.verb === "confirm" ? "primary" : "";
  },

  /** Number entry for the manual declaration mode (announce, then correct). */
  extraControls(ctx) {
    const controls = [];
    for (const verb of ["declare", "correct"]) {
      const numbers = ctx.legal.byNumberVerb.get(verb);
      if (!numbers || !numbers.length) continue;
      const low = Math.min(...numbers);
      const high = Math.max(...numbers);
      const id = `number-${verb}`;
      const input = h("input", {
        id,
        type: "number",
        inputmode: "numeric",
        min: low,
        max: high,
        step: 1,
        class: "number-input",
        value: verb === "correct" ? String(ctx.view.pending_declaration ?? "") : "",
        required: true,
      });
      const text = verb === "declare" ? "Announce" : "Correct";
      const submit = h("button", { type: "submit", class: `btn action${verb === "declare" ? " primary" : ""}`, dataset: { key: `number-${verb}`, action: "" } }, text);
      const form = h(
        "form",
        { class: "number-form", dataset: { numberVerb: verb }, "aria-label": verb === "declare" ? "Announce your score" : "Correct your announcement" },
        h("label", { for: id }, verb === "declare" ? "Your hand scores" : "Correct to"),
        input,
        submit,
      );
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const n = Number.parseInt(input.value, 10);
        if (!Number.isFinite(n) || !numbers.includes(n)) {
          input.setCustomValidity(`Enter a number from ${low} to ${high}.`);
          input.reportValidity();
          return;
        }
        input.setCustomValidity("");
        ctx.table.send(`${verb} ${n}`);
      });
      controls.push(form);
    }
    return controls;
  },

  /** A stop that would score 0 is confirmed first: the server's move says so and why (it
   * knows the table's rules, meld values and Bike included). */
  async confirmMove(ctx, notation) {
    const warning = ctx.legal.byNotation.get(notation)?.warning;
    if (!warning) return true;
    return confirmPanel("Stop anyway?", warning, "Stop anyway", "Keep playing");
  },

  movement(action) {
    if (action.verb === "discard") return "to-pile";
    if (action.verb === "draw deck") return "from-stock";
    if (action.verb === "draw pile") return "from-pile";
    return null;
  },

  cannotPlayText(ctx, card) {
    if (ctx.view.phase === "declare" || ctx.view.phase === "confirm") return "Announce your score first.";
    return baseGame.cannotPlayText.call(this, ctx, card);
  },

  renderScores(ctx) {
    const view = ctx.view;
    const totals = view.totals || [];
    const top = Math.max(...totals);
    const rows = Array.from({ length: ctx.players }, (_, seat) => {
      const lastResult = view.last_hand?.results?.find((r) => r.seat === seat);
      return { seat, values: [lastResult ? lastResult.points : null, totals[seat]], leader: top > 0 && totals[seat] === top };
    });
    return scoreTable(ctx, {
      title: "Scores",
      columns: ["Last hand", "Total"],
      rows,
      note: `Hand ${handNumber(view)}. First to ${view.target_score ?? 121} wins.`,
      leaderText: "highest total",
    });
  },

  summaryKey(ctx) {
    const last = ctx.view.last_hand;
    if (!last) return null;
    rememberTotals(ctx);
    return `hand-${last.hand_number}`;
  },

  revealedHands(ctx) {
    const last = ctx.view.last_hand;
    if (!last) return null;
    // Only counted hands are shown (none when computer-only play was cut off at the cap).
    const hands = Array.from({ length: ctx.players }, () => null);
    for (const result of last.results || []) if (result.cards?.length) hands[result.seat] = result.cards;
    return hands;
  },

  summaryTitle(ctx) {
    if (ctx.message.result) return "Game over";
    const last = ctx.view.last_hand;
    return last ? `Hand ${last.hand_number}: scores` : "Scores";
  },

  renderSummary(ctx) {
    const last = ctx.view.last_hand;
    if (!last) return null;
    const lead = [];
    if (last.ending === "stop" && last.stopper !== null) {
      lead.push(last.stop_valid
        ? `${ctx.name(last.stopper)} stopped the hand.`
        : `${ctx.name(last.stopper)} stopped the hand, but ${last.stop_problems.join(" and ")}.`);
    } else if (last.ending === "deck-exhausted") {
      lead.push("The deck ran out: everyone is scored.");
    } else if (last.ending === "turn-limit") {
      lead.push("The hand reached its turn limit with nobody stopping: everyone is scored, as when the deck runs out.");
    } else if (last.ending === "turn-cap") {
      lead.push("The hand went on too long and was abandoned: nobody scores.");
    }
    const seats = (last.results || []).map((r) => this.seatSummary(ctx, last, r));
    const history = rememberTotals(ctx);
    const hands = Object.keys(history).map(Number).sort((a, b) => a - b);
    let chart = null;
    if (hands.length) {
      const series = Array.from({ length: ctx.players }, (_, seat) => ({
        name: ctx.name(seat),
        me: seat === ctx.seat,
        points: [0, ...hands.map((n) => history[n][seat] ?? 0)],
      }));
      chart = totalsChart({ title: "Totals after each hand", series, target: ctx.view.target_score ?? 121 });
    }
    const winners = ctx.view.winners?.length ? ctx.view.winners : last.winners || [];
    return h(
      "div",
      { class: "summary game-indecision" },
      h("p", { class: "summary-lead" }, lead.join("")),
      winners.length ? h("p", { class: "summary-winner" }, `${winners.map((s) => ctx.name(s)).join(" and ")} ${winners.length > 1 ? "win" : winners[0] === ctx.seat ? "win" : "wins"} the game!`) : null,
      h("div", { class: "summary-seats" }, seats),
      h("p", { class: "summary-totals" }, "Totals: ", (ctx.view.totals || []).map((t, seat) => `${ctx.name(seat)} ${t}`).join(" · ")),
      chart,
    );
  },

  seatSummary(ctx, last, r) {
    const melds = r.melds || [];
    const notes = [];
    if (!r.counted) notes.push("Not counted: the game was already won.");
    if (r.forfeited) notes.push(`The stop was not valid: the hand's ${r.score} are forfeited.`);
    if (r.declared !== null && r.declared !== undefined) {
      if (r.announced !== null && r.announced !== undefined && r.announced !== r.declared) {
        notes.push(`Announced ${r.announced}, corrected to ${r.declared}.`);
      } else {
        notes.push(`Declared ${r.declared}.`);
      }
      if (r.challenged) {
        notes.push(challengeText(r));
      } else if (r.declared < r.score) {
        notes.push(`Under-declared: ${r.score - r.declared} point${r.score - r.declared === 1 ? "" : "s"} lost.`);
      }
    }
    // Using every card matters only to the stopper (a stop needs it).
    if (r.counted && !r.forfeited && r.seat === last.stopper) notes.push(r.all_cards_used ? "All cards used." : "Not all cards used.");
    return h(
      "section",
      { class: `seat-summary${r.seat === ctx.seat ? " me" : ""}`, "aria-label": `${ctx.name(r.seat)}: ${r.points} points` },
      h("h3", {}, ctx.name(r.seat), h("span", { class: "points" }, `+${r.points}`), h("span", { class: "total" }, `total ${r.total}`)),
      cardRow(r.cards, { extraClass: "mini", label: `${ctx.name(r.seat)}'s hand` }),
      melds.length
        ? h(
            "table",
            { class: "meld-table" },
            h("tbody", {}, melds.map((m) =>
              h("tr", {},
                h("th", { scope: "row" }, m.name),
                h("td", {}, m.cards.map(shortText).join(" ")),
                h("td", { class: "num" }, String(m.points))))),
            h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Hand score"), h("td"), h("td", { class: "num" }, String(r.score)))),
          )
        : h("p", { class: "muted" }, "No melds: 0."),
      h("p", { class: "why" }, notes.join(" ")),
    );
  },
};
