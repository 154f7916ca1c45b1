// @ts-check
// Declaration Rummy on the table: stock and discard pile as visual stacks only (no counts), the
// spread-out pile when that variation is on, the optional cards, declaring, going out, tie
// proposals and votes, dropping, matches, and each game's counts explained with its tie-break.

import { hasMove, plainMove } from "../actions.js";
import { cardElement, cardName, cardRow, label } from "../cards.js";
import { h } from "../dom.js";
import { closePanel, confirmPanel } from "../panel.js";
import { baseGame, nameSeats, pileZone, scoreTable, stockZone } from "./base.js";
import { totalsChart } from "../chart.js";

/** The catalogue's schema field `name` of `game` (GET /api/games). */
function schemaField(game, name) {
  return (game?.rules_schema || []).find((field) => field.name === name) ?? null;
}

/** The cards each may be dealt with `players` players: the bounds the server's rules schema
 * gives the field (`bounds_by` the player count). */
export function dealRange(game, players) {
  const field = schemaField(game, "cards_dealt");
  const bound = field?.bounds_by?.bounds?.find((b) => b.when === players);
  return bound ? [bound.min, bound.max] : [field?.min ?? 2, field?.max ?? 2];
}

/** Seats in table order starting after `seat`, clockwise. */
function clockwiseFrom(view, seat) {
  const order = view.order?.length ? view.order : Array.from({ length: view.hand_sizes.length }, (_, i) => i);
  const at = order.indexOf(seat);
  return Array.from({ length: order.length - 1 }, (_, k) => order[(at + 1 + k) % order.length]);
}

export default {
  ...baseGame,
  name: "declaration-rummy",
  blurb: "2–10 cards, lowest count wins",
  pileButtonText: "Take the discard",
  cardVerbs: [{ verb: "discard", label: "Discard", primary: true }],
  // The hand is read as melds and loose cards: the server labels and arranges them.
  arrangesGroups: true,
  setupHandles: ["cards_dealt", "optional_cards", "match", "match_wins"],

  tileCards() {
    return ["7S", "7D", "W", "C12"].map((c) => cardElement(c));
  },

  onPlayersChange(values, game) {
    const [low, high] = dealRange(game, values.players);
    if (values.cards_dealt !== null && values.cards_dealt !== undefined && (values.cards_dealt < low || values.cards_dealt > high)) {
      values.cards_dealt = null;
    }
  },

  /** Cards dealt, the optional cards (drawn as cards) and single game or match. */
  setupExtras(values, game, rerender) {
    const [low, high] = dealRange(game, values.players);
    const dealt = h(
      "select",
      { id: "cards-dealt", name: "cards_dealt" },
      h("option", { value: "", selected: values.cards_dealt === null || values.cards_dealt === undefined }, `The most allowed (${high})`),
      Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) =>
        h("option", { value: String(n), selected: values.cards_dealt === n }, `${n} cards`)),
    );
    dealt.addEventListener("change", () => {
      values.cards_dealt = dealt.value === "" ? null : Number(dealt.value);
    });

    const chosen = values.optional_cards || [];
    // The optional cards and how many WILDCARDs may be in play: the rules schema's choices.
    const optionalField = schemaField(game, "optional_cards");
    const optional = (optionalField?.choices || []).filter((card) => !optionalField?.max_repeats?.[card]);
    const optionalCards = optional.map((card) => {
      const id = `optional-${card}`;
      const box = h("input", { id, type: "checkbox", checked: chosen.includes(card) });
      box.addEventListener("change", () => {
        const next = (values.optional_cards || []).filter((c) => c !== card);
        if (box.checked) next.push(card);
        values.optional_cards = next;
      });
      return h("label", { class: "optional-card", for: id }, cardElement(card), box, h("span", { class: "visually-hidden" }, cardName(card)));
    });
    const wildId = "optional-W";
    const wilds = chosen.filter((c) => c === "W").length;
    const wildSelect = h(
      "select",
      { id: wildId, "aria-label": "Number of WILDCARDs" },
      Array.from({ length: (optionalField?.max_repeats?.W ?? 0) + 1 }, (_, n) => h("option", { value: String(n), selected: n === wilds }, `${n} ×`)),
    );
    wildSelect.addEventListener("change", () => {
      const next = (values.optional_cards || []).filter((c) => c !== "W");
      for (let i = 0; i < Number(wildSelect.value); i += 1) next.push("W");
      values.optional_cards = next;
    });
    optionalCards.push(h("label", { class: "optional-card", for: wildId }, cardElement("W"), wildSelect));

    const single = h("input", { type: "radio", name: "match-mode", id: "mode-single", value: "single", checked: !values.match });
    const match = h("input", { type: "radio", name: "match-mode", id: "mode-match", value: "match", checked: Boolean(values.match) });
    // The bounds are the rule's own (the game's schema), declared once with the rule.
    const winsRule = game?.rules_schema?.find((entry) => entry.name === "match_wins") ?? {};
    const winsLow = winsRule.min ?? 1;
    const winsHigh = winsRule.max ?? null;
    const wins = h("input", { id: "match-wins", type: "number", "aria-label": "Games to win the match", min: winsLow, max: winsHigh, value: String(values.match_wins ?? winsRule.default ?? winsLow), disabled: !values.match, class: "small-number" });
    single.addEventListener("change", () => {
      values.match = false;
      wins.disabled = true;
    });
    match.addEventListener("change", () => {
      values.match = true;
      wins.disabled = false;
    });
    wins.addEventListener("change", () => {
      const n = Number.parseInt(wins.value, 10);
      if (Number.isFinite(n) && n >= winsLow && (winsHigh === null || n <= winsHigh)) values.match_wins = n;
      else wins.value = String(values.match_wins ?? winsRule.default ?? winsLow);
    });
    return h(
      "div",
      { class: "dr-setup" },
      h("div", { class: "field" },
        h("label", { for: "cards-dealt" }, "Cards dealt to each"),
        dealt,
        h("span", { class: "field-help" }, `With ${values.players} players: ${low} to ${high} cards. `, h("span", { class: "field-default" }, `Default: the most allowed (${high}).`))),
      h("fieldset", { class: "field" },
        h("legend", {}, "Optional cards"),
        h("div", { class: "optional-cards" }, optionalCards),
        h("span", { class: "field-help" }, "Use none, some or all twelve. ", h("span", { class: "field-default" }, "Default: none."))),
      h("fieldset", { class: "field match-mode" },
        h("legend", {}, "Single game or match"),
        h("label", { class: "check", for: "mode-single" }, single, "Single game"),
        h("label", { class: "check", for: "mode-match" }, match, "Match, first to ", wins, h("span", { class: "visually-hidden" }, "game wins"), " wins"),
        h("span", { class: "field-help" }, h("span", { class: "field-default" }, "Default: single game; a match is first to 2."))),
    );
  },

  drawStock(legal) {
    return plainMove(legal, "draw stock");
  },
  dealKey(view) {
    return view.game_number ?? null;
  },
  pileTop(view) {
    return view.discard_pile?.top ?? null;
  },
  drawPile(legal) {
    return plainMove(legal, "take discard");
  },

  handMarks(ctx) {
    const marks = new Map();
    for (const card of ctx.view.drawn || []) marks.set(label(card), "taken");
    return marks;
  },

  describeCard(ctx, card) {
    const words = [];
    if ((ctx.view.drawn || []).includes(card)) words.push("just drawn");
    if (card === "NM2") words.push("can never be discarded");
    if (card === "CD0") words.push("you cannot declare while holding it");
    return words.join(", ");
  },

  seatInfo(ctx, seat) {
    const view = ctx.view;
    const badges = [];
    // Each badge has a short form for the crowded seats of a phone (up to nine opponents).
    if (view.dealer === seat) badges.push({ text: "dealer", short: "D" });
    if (view.first_player === seat) badges.push({ text: "first player", short: "1st" });
    if (view.dropped?.[seat]) badges.push({ text: "dropped", short: "out" });
    // The proposer counts among those accepting: one badge says both.
    if (view.vote && view.vote.proposer === seat) badges.push({ text: "proposed a tie", short: "tie?" });
    else if (view.vote && view.vote.accepted?.includes(seat)) badges.push({ text: "accepts tie", short: "tie ✓" });
    const wins = view.match_wins?.[seat];
    return {
      handSize: view.hand_sizes?.[seat] ?? 0,
      scoreText: view.rules?.match ? `${wins ?? 0} win${wins === 1 ? "" : "s"}` : "",
      badges,
      out: Boolean(view.dropped?.[seat]),
    };
  },

  renderCentre(ctx) {
    const view = ctx.view;
    const pile = view.discard_pile || {};
    const stock = view.stock || {};
    const last = ctx.message.last_action;
    const lastDiscard = last?.kind === "discard" && pile.top === last.cards?.[0];
    let pileEl;
    if (Array.isArray(pile.cards)) {
      // Spread-Out Discard-Pile: every card visible; taking one takes all above it.
      const numbers = new Set(ctx.legal.byNumberVerb.get("take discard") || []);
      const canTop = Boolean(this.drawPile(ctx.legal));
      const n = pile.cards.length;
      const fan = pile.cards.map((card, index) => {
        const fromTop = n - index;
        const allowed = fromTop === 1 ? canTop : numbers.has(fromTop);
        const notation = fromTop === 1 ? "take discard" : `take discard ${fromTop}`;
        const el = cardElement(card, {
          tag: allowed ? "button" : "div",
          extraClass: `${fromTop === 1 ? "top" : ""}${fromTop === 1 && lastDiscard ? " last-played" : ""}${allowed ? " can-act" : ""}`,
          name: allowed ? `Take the ${cardName(card)}${fromTop > 1 ? ` and the ${fromTop - 1} card${fromTop > 2 ? "s" : ""} above it` : ""}` : cardName(card),
          attrs: allowed ? { dataset: { card: label(card), action: notation } } : {},
        });
        return el;
      });
      pileEl = h(
        "div",
        { class: "zone pile-zone spread", dataset: { zone: "pile" } },
        h("div", { class: "spread-pile", role: "group", "aria-label": `Discard pile, spread out: ${n ? pile.cards.map(cardName).join(", ") : "empty"}` },
          n ? fan : h("div", { class: "card empty top", "aria-hidden": "true" })),
        h("span", { class: "zone-caption" }, "Discard pile, spread out"),
      );
    } else {
      pileEl = pileZone({ top: pile.top, notation: this.drawPile(ctx.legal), depth: Math.max(0, (pile.level ?? 1) - 1), lastPlayed: Boolean(lastDiscard) });
      pileEl.querySelector(".zone-caption")?.append(h("span", { class: "count" }, ` · ${pile.label ?? ""}`));
    }
    const extra = [];
    // The prompt for whoever is to draw; nobody is once the game is over.
    if (view.exhaustion && !ctx.message.result && ctx.message.to_move >= 0) {
      const who = ctx.message.to_move === ctx.seat ? "take the top discard or decline it" : `${ctx.name(ctx.message.to_move)} takes the top discard or declines it`;
      extra.push(h("p", { class: "table-note" }, `The stock is exhausted: ${who}.`));
    }
    if (view.removed_unseen) extra.push(h("p", { class: "table-note" }, `${view.removed_unseen} cards removed unseen.`));
    if (view.vote) {
      const pending = view.vote.pending || [];
      extra.push(h("p", { class: "table-note vote" },
        `${ctx.name(view.vote.proposer)} proposed a tie game.`,
        pending.length ? ` Waiting for ${pending.map((s) => ctx.name(s)).join(", ")}.` : ""));
    }
    return h(
      "div",
      { class: "centre-wrap" },
      h("div", { class: "centre-row" },
        stockZone({ notation: this.drawStock(ctx.legal), depth: stock.level ?? 0, countText: stock.label ?? "" }),
        pileEl),
      extra,
    );
  },

  turnText(ctx) {
    const view = ctx.view;
    // The vote line above says who proposed it and who is still to answer.
    if (view.phase === "tie-vote") return "accept or reject the tie.";
    if (view.phase === "between-games") return "start the next game of the match.";
    if (view.phase === "draw") {
      if (view.exhaustion) return "the stock is exhausted: take the top discard (D) or decline it.";
      return this.drawPile(ctx.legal) ? "draw from the stock (S) or take the discard (D)." : "draw from the stock (S).";
    }
    if (view.phase === "play") {
      const extras = [];
      if (hasMove(ctx.legal, "declare")) extras.push("declare");
      if (hasMove(ctx.legal, "go out")) extras.push("go out");
      return `discard a card (tap it twice)${extras.length ? `, or ${extras.join(" or ")}` : ""}.`;
    }
    return "wait.";
  },

  waitingText(ctx) {
    const phase = ctx.view.phase;
    if (phase === "preliminary" || phase === "preliminary-cut") return "Dealing a card to each player to choose the first dealer…";
    if (phase === "reshuffle" || phase === "reshuffle-cut") return "Shuffling the discard pile into a new stock…";
    return "Shuffling and dealing…";
  },

  buttonText(ctx, action) {
    if (action.verb === "take discard" && action.number !== null) return null;
    const texts = {
      "take extra": "Take two more",
      decline: "Decline the pile",
      declare: "Declare",
      "go out": "Go out",
      "four sevens": "Four 7s!",
      "propose tie": "Propose a tie",
      "accept tie": "Accept tie",
      "reject tie": "Reject tie",
      drop: "Drop out",
    };
    if (action.verb === "next game") return "Next game";
    return texts[action.verb] ?? baseGame.buttonText.call(this, ctx, action);
  },
  buttonClass(action) {
    if (["declare", "go out", "four sevens", "accept tie", "next game"].includes(action.verb)) return "primary";
    if (action.verb === "drop") return "danger";
    return "";
  },

  async confirmMove(ctx, notation) {
    const action = ctx.legal.byNotation.get(notation);
    if (action?.verb === "declare") {
      const gin = ctx.view.rules?.gin_rummy;
      const count = ctx.message.own?.count;
      const known = count !== null && count !== undefined;
      return confirmPanel(
        known ? `Declare with a count of ${count}?` : "Declare?",
        `Everyone lays their hand face up: the game ends and the lowest count wins${known ? ` (yours is ${count})` : ""}${gin ? `. Gin variation: you may declare with ${ctx.view.rules.gin_threshold} or less` : ""}.`,
        known ? `Declare with ${count}` : "Declare",
        "Keep playing",
      );
    }
    if (action?.verb === "drop") {
      return confirmPanel("Drop out of this game?", "Your cards go face down, out of play, and you cannot win this game; the others play on.", "Drop out", "Keep playing");
    }
    if (action?.verb === "decline") {
      return confirmPanel("Decline the discard pile?", "The game ends now and the counts are compared.", "Decline");
    }
    return true;
  },

  cannotPlayText(ctx, card) {
    if (card === "NM2") return "NO MELD 2 can never be discarded.";
    return baseGame.cannotPlayText.call(this, ctx, card);
  },

  movement(action) {
    if (action.verb === "discard") return "to-pile";
    if (action.verb === "draw stock") return "from-stock";
    if (action.verb === "take discard") return "from-pile";
    return null;
  },

  renderScores(ctx) {
    const view = ctx.view;
    const n = ctx.players;
    const history = view.history || [];
    const lastOutcome = view.outcome || history[history.length - 1] || null;
    const rows = Array.from({ length: n }, (_, seat) => ({
      seat,
      values: view.rules?.match ? [lastOutcome?.counts?.[seat], view.match_wins?.[seat] ?? 0] : [lastOutcome?.counts?.[seat]],
      leader: lastOutcome?.winner === seat,
    }));
    const columns = view.rules?.match ? ["Last count", "Game wins"] : ["Count"];
    const note = view.rules?.match
      ? `Game ${view.game_number} of a match, first to ${view.rules.match_wins} wins.`
      : `${view.rules?.cards_dealt ?? ""} ${view.rules?.cards_dealt ? "cards each. " : ""}Lowest count wins; counts are shown when the game ends.`;
    return scoreTable(ctx, { title: view.rules?.match ? "Match" : "Game", columns, rows, note, leaderText: "won the last game" });
  },

  revealedHands(ctx) {
    // Dropped players' hands stay hidden.
    return ctx.view.outcome?.hands ?? null;
  },

  summaryKey(ctx) {
    const outcome = ctx.view.outcome;
    return outcome ? `game-${outcome.game}` : null;
  },

  summaryTitle(ctx) {
    const outcome = ctx.view.outcome;
    if (ctx.message.result && ctx.view.rules?.match) return "Match over";
    if (ctx.message.result) return "Game over";
    return outcome ? `Game ${outcome.game}: counts` : "Counts";
  },

  renderSummary(ctx) {
    const outcome = ctx.view.outcome;
    if (!outcome) return null;
    const n = outcome.hands.length;
    const winner = outcome.winner;
    // The engine's sentence says how the game ended and who won ("Ruby declared with 9; You
    // win with the lowest count, 5."), and how a tie on the lowest count was broken: said
    // once, not again in a line of its own.
    const lead = h(
      "p",
      { class: "summary-lead summary-winner" },
      (ctx.summary?.lead && (ctx.summary.details_by_kind?.game ?? ctx.summary.details)?.game === outcome.game ? ctx.summary.lead : null)
        || nameSeats(ctx, outcome.summary) || (winner === null || winner === undefined ? "Nobody wins this game." : `${ctx.name(winner)} ${winner === ctx.seat ? "win" : "wins"} the game.`),
    );
    const matchWinners = ctx.message.result && ctx.view.rules?.match ? ctx.message.result.winners || [] : [];
    const matchLine = matchWinners.length
      ? h("p", { class: "summary-winner" },
          `${matchWinners.map((s) => ctx.name(s)).join(" and ")} ${matchWinners.length === 1 && matchWinners[0] !== ctx.seat ? "wins" : "win"} the match `,
          `(${(ctx.view.match_wins || []).map((w, s) => `${ctx.name(s)} ${w}`).join(", ")}).`)
      : null;
    const seats = [];
    for (let seat = 0; seat < n; seat += 1) {
      const hand = outcome.hands[seat];
      const melds = outcome.melds?.[seat] || [];
      const count = outcome.counts?.[seat];
      const compared = outcome.compared?.[seat];
      let body;
      let why;
      if (!hand) {
        body = h("p", { class: "muted" }, "Dropped: cards not shown.");
        why = "Dropped players cannot win.";
      } else {
        // The server's count of each card left outside the melds, in hand order.
        const loose = (outcome.unmelded_points?.[seat] || []).map(([card]) => card);
        const values = (outcome.unmelded_points?.[seat] || []).map(([, points]) => points);
        body = h(
          "div",
          { class: "meld-line" },
          melds.map((meld) => h("figure", { class: "meld" },
            cardRow(meld, { extraClass: "mini overlap", label: `meld: ${meld.map(cardName).join(", ")}` }),
            h("figcaption", {}, "meld, 0"))),
          loose.length
            ? h("figure", { class: "meld loose" },
                cardRow(loose, { extraClass: "mini overlap", label: `unmelded: ${loose.map(cardName).join(", ")}` }),
                h("figcaption", {}, `unmelded ${values.join(" + ")}`))
            : null,
        );
        why = `Count ${count}${compared !== null && compared !== undefined && compared !== count ? `, compared as ${compared} (declare bonus)` : ""}.`;
        if (seat === outcome.declarer) why = `Declared with ${hand.length} cards. ${why}`;
      }
      seats.push(
        h(
          "section",
          { class: `seat-summary${seat === ctx.seat ? " me" : ""}${seat === winner ? " winner" : ""}`, "aria-label": `${ctx.name(seat)}: ${hand ? `count ${count}` : "dropped"}${seat === winner ? ", winner" : ""}` },
          h("h3", {}, ctx.name(seat), seat === winner ? h("span", { class: "badge win" }, "winner") : null, hand ? h("span", { class: "points" }, String(count)) : null),
          body,
          h("p", { class: "why" }, why),
        ),
      );
    }
    let chart = null;
    const history = ctx.view.history || [];
    if (ctx.view.rules?.match && history.length) {
      const series = Array.from({ length: n }, (_, seat) => {
        let wins = 0;
        return { name: ctx.name(seat), me: seat === ctx.seat, points: [0, ...history.map((o) => (wins += o.winner === seat ? 1 : 0))] };
      });
      chart = totalsChart({ title: "Game wins in the match", series, target: ctx.view.rules.match_wins, axis: "games played" });
    }
    return h("div", { class: "summary game-declaration-rummy" }, lead, matchLine, h("div", { class: "summary-seats" }, seats), chart);
  },

  summaryButtons(ctx) {
    const next = plainMove(ctx.legal, "next game");
    if (!next) return [];
    const button = h("button", { type: "button", class: "btn primary", autofocus: true }, "Next game");
    button.addEventListener("click", () => {
      closePanel();
      ctx.table.send(next);
    });
    return [button];
  },

  seatsInOrder(ctx) {
    return clockwiseFrom(ctx.view, ctx.seat);
  },
};
