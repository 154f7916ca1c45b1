// @ts-check
// Indian Rummy on the table: the stock with its count, the discard pile (a joker on it cannot be
// taken), the wild joker beside the stock, drops, declaring, and each deal's points explained:
// groups, loose cards and the 80 cap.

import { plainMove } from "../actions.js";
import { cardElement, cardName, cardRow, label, RANK_NAMES, RANK_PLURALS, shortText } from "../cards.js";
import { h, listText } from "../dom.js";
import { confirmPanel, openPanel } from "../panel.js";
import { baseGame, chartFromRounds, pileZone, scoreTable, stockZone } from "./base.js";
import { DECISION_TEXT, finalStanding, isOut, renderDecision, renderStandings } from "./indian_rummy_formats.js";

const OUTCOME_TEXT = {
  "valid-show": "a valid show",
  "wrong-show": "a wrong show",
  "all-dropped": "everyone else dropping",
  "turn-limit": "the turn limit (drops stand, nobody else scores)",
  abandoned: "the turn limit (nobody scores)",
};

const GROUP_NAMES = {
  "pure sequence": "pure sequence",
  sequence: "sequence with joker",
  set: "set",
  loose: "loose",
};

/** "You dropped, so Ruby won the deal.": who dropped by name, from the reader's side (at two
 * players a drop is one seat's, perhaps the reader's own, not "everyone else"). */
function droppedText(ctx, deal) {
  const droppers = (deal.drops || []).map((drop, seat) => (drop === null || drop === undefined ? null : seat)).filter((seat) => seat !== null);
  const named = droppers.map((seat, i) => (i > 0 && seat === ctx.seat ? "you" : ctx.name(seat)));
  const winner = deal.winner === ctx.seat ? "you" : ctx.name(deal.winner);
  return `${listText(named)} dropped, so ${winner} won the deal.`;
}

/**
 * The open deck: every card that reached the discard pile this deal, oldest first, with who put
 * it there and what became of it (taken back, shuffled into a new stock). All of it was seen face
 * up by everyone (RULES.md 2.3; the view sends this deal's public events), unlike Declaration
 * Rummy, whose squared pile shows only its top card.
 */
export function openDeck(events = []) {
  const entries = [];
  for (const event of events) {
    const card = event.cards?.[0];
    if (event.verb === "open-pile" || event.verb === "discard") {
      entries.push({ card, seat: event.seat, opening: event.verb === "open-pile", fate: "pile", by: null });
    } else if (event.verb === "take-discard") {
      const taken = [...entries].reverse().find((e) => e.fate === "pile" && label(e.card) === label(card));
      if (taken) Object.assign(taken, { fate: "taken", by: event.seat });
    } else if (event.verb === "reshuffle") {
      // All of the pile but its top card became the new stock.
      const onPile = entries.filter((e) => e.fate === "pile");
      for (const e of onPile.slice(0, -1)) e.fate = "stock";
    }
  }
  return entries;
}

/** The panel listing the open deck, newest first. */
function showOpenDeck(ctx) {
  const entries = openDeck(ctx.view.events).reverse();
  const rows = entries.map((e) => {
    const who = e.opening ? "Turned up to start the pile" : `${ctx.name(e.seat)} discarded it`;
    const fate = e.fate === "taken" ? `, taken by ${ctx.name(e.by)}` : e.fate === "stock" ? ", shuffled into the new stock" : "";
    return h("li", { class: "open-deck-row" }, cardElement(e.card, { extraClass: "mini" }), h("span", {}, `${who}${fate}.`));
  });
  openPanel("Discards this deal", [
    h("p", { class: "muted" }, "Every card put on the discard pile this deal, the newest first."),
    rows.length ? h("ol", { class: "open-deck" }, rows) : h("p", {}, "Nothing has been discarded yet."),
  ], { name: "open-deck" });
}

/** The finished deal's details (with each hand's arrangement) if the summary is this deal's. */
function dealDetails(ctx, deal) {
  const summary = ctx.summary;
  if (!summary) return null;
  const details = summary.details_by_kind?.deal ?? (summary.kind === "deal" ? summary.details : null);
  return details && details.number === deal.number ? details : null;
}

/** A group of an arrangement as small cards; jokers standing in are marked and named. */
function groupFigure(group) {
  const cards = group.cards || [];
  const represents = group.represents || cards;
  const name = GROUP_NAMES[group.kind] || group.kind;
  const row = h("div", { class: "card-row mini overlap", role: "group",
    "aria-label": `${name}: ${cards.map((c, i) => (c === represents[i] ? cardName(c) : `${cardName(c)} as ${cardName(represents[i])}`)).join(", ")}` });
  cards.forEach((card, i) => {
    row.append(cardElement(card, { extraClass: card === represents[i] ? "" : "joker-mark" }));
  });
  return h("figure", { class: "meld" }, row, h("figcaption", {}, name));
}

/** How a hand's points were counted, in the game's terms. */
function countText(arrangement, cap, short = false) {
  const loose = arrangement.loose || [];
  const raw = arrangement.raw_points ?? arrangement.points;
  const capped = arrangement.points !== raw ? `, capped at ${arrangement.points}` : "";
  const capNote = !capped && cap && raw > cap ? `, capped at ${cap}` : "";
  if (arrangement.category === "no pure sequence") {
    return `No pure sequence, so all ${loose.length} cards count: ${raw}${capped}${capNote}.`;
  }
  if (arrangement.category === "pure sequence only") {
    return `A pure sequence but no second sequence, so every other card counts: ${raw}${capped}${capNote}.`;
  }
  if (short) return loose.length ? `${loose.length} cards would be loose.` : "";
  if (!loose.length) return "Every card in a group: 0 points.";
  return `Two sequences, one pure: only the loose cards count, ${raw}${capped}.`;
}

function wildRank(view) {
  if (view.wild_rank === null || view.wild_rank === undefined) return null;
  return view.wild_rank;
}

/** The seat's own cards that are jokers this deal, as the server counts them (`own.jokers`). */
function ownJokers(ctx) {
  return new Set((ctx.message?.own?.jokers || []).map(label));
}

export default {
  ...baseGame,
  name: "indian-rummy",
  blurb: "13 cards, two sequences, one pure",
  pileButtonText: "Take the discard",
  // The hand is read as labelled groups: the server labels them and arranges them (hand_groups.js).
  arrangesGroups: true,
  cardVerbs: [
    { verb: "discard", label: "Discard", primary: true },
    { verb: "declare", label: "Declare", hint: "lift the card to put down", lifted: (card) => `Declare, putting down ${card}` },
  ],

  quickStarts() {
    return [{ label: "Pool 101 · 4 players", short: "Pool 101", preset: "pool-101", players: 4 }];
  },

  /** "Pool 101 · 4 players" for the chosen settings of a format; null in free play. */
  formatLabel(values) {
    const seats = `${values.players} players`;
    if (values.format === "pool") return `Pool ${values.pool_limit} · ${seats}`;
    if (values.format === "deals") return `Deals (best of ${values.deals}) · ${seats}`;
    return null;
  },

  tileCards() {
    return ["5H", "6H", "7H", "PJ"].map((c) => cardElement(c));
  },

  maxPlayers(values, game) {
    return values.allow_six_players ? game.max_players : Math.min(4, game.max_players);
  },
  onRuleChange(name, values) {
    if (name === "allow_six_players") {
      if (!values.allow_six_players && values.players > 4) values.players = 4;
      return true;
    }
    return false;
  },

  drawStock(legal) {
    return plainMove(legal, "draw stock");
  },
  drawPile(legal) {
    return plainMove(legal, "draw pile");
  },

  handMarks(ctx) {
    const marks = new Map();
    for (const joker of ownJokers(ctx)) marks.set(joker, "joker-mark");
    if (ctx.view.taken && ctx.message.to_move === ctx.seat) {
      const taken = label(ctx.view.taken);
      marks.set(taken, `${marks.get(taken) || ""} taken`);
    }
    return marks;
  },

  describeCard(ctx, card) {
    const words = [];
    if (ownJokers(ctx).has(label(card)) && label(card) !== "PJ") words.push("joker");
    if (ctx.view.taken && label(ctx.view.taken) === label(card) && ctx.message.to_move === ctx.seat) {
      words.push("just taken from the pile, cannot be discarded");
    }
    return words.join(", ");
  },

  seatInfo(ctx, seat) {
    const view = ctx.view;
    const badges = [];
    if (view.dealer === seat) badges.push("dealer");
    const drop = view.drops?.[seat];
    // A seat out of a Pool game (or of a Deals tie-break) sits the deal out: it reads "out",
    // not as a drop (its `drops` entry is 0).
    const gone = isOut(view, seat);
    if (gone) badges.push({ text: "out of the game", short: "out" });
    else if (drop !== null && drop !== undefined) badges.push({ text: `dropped (${drop})`, short: `out ${drop}` });
    const total = view.totals?.[seat];
    const chips = view.standing?.chips?.[seat];
    // The running total over the deals, named so ("total 0"), apart from the hand's count.
    const points = total === undefined ? "" : `total ${total}`;
    return {
      handSize: view.hand_sizes?.[seat] ?? 0,
      scoreText: view.standing?.format === "deals" && chips !== undefined ? `${chips} chips · ${points}` : points,
      badges,
      out: gone || (drop !== null && drop !== undefined),
    };
  },

  renderCentre(ctx) {
    const view = ctx.view;
    const decision = renderDecision(ctx);
    if (decision) return decision;
    const rank = wildRank(view);
    const top = view.pile_top;
    const topIsJoker = Boolean(ctx.message.own?.pile_top_joker);
    const last = ctx.message.last_action;
    const lastDiscard = last?.kind === "discard" && top && label(last.cards?.[0] ?? "") === label(top);
    const wild = view.wild_card
      ? h(
          "div",
          { class: "zone wild-zone" },
          h("div", { class: "wild-card", role: "img", "aria-label": `Wild joker: ${cardName(view.wild_card)}. Every ${RANK_NAMES[rank]} is a joker${view.rules?.printed_jokers === 0 ? "" : ", and so are the printed jokers"}.` },
            (() => {
              const el = cardElement(view.wild_card, { extraClass: "wild" });
              el.removeAttribute("role");
              el.removeAttribute("aria-label");
              return el;
            })()),
          h("span", { class: "zone-caption" }, "Wild joker", h("span", { class: "count" }, ` · ${RANK_PLURALS[rank]} wild`)),
        )
      : h("div", { class: "zone wild-zone" }, h("span", { class: "zone-caption" }, "Printed jokers only"));
    return h(
      "div",
      { class: "centre-row" },
      stockZone({ notation: this.drawStock(ctx.legal), depth: Math.ceil((view.stock_size ?? 0) / 12), countText: `${view.stock_size ?? 0} cards` }),
      wild,
      (() => {
        const pile = pileZone({
          top,
          notation: this.drawPile(ctx.legal),
          depth: Math.min(3, (view.pile?.length ?? 1) - 1),
          lastPlayed: Boolean(lastDiscard),
          blocked: topIsJoker ? "a joker on the pile cannot be taken" : "",
        });
        const seen = openDeck(view.events).length;
        pile.append(h("button", {
          type: "button",
          class: "btn small ghost open-deck-button",
          "aria-label": `Discards this deal: ${seen} card${seen === 1 ? "" : "s"}`,
          onclick: () => showOpenDeck(ctx),
        }, `Discards (${seen})`));
        return pile;
      })(),
    );
  },

  turnText(ctx) {
    const view = ctx.view;
    if (view.phase === "draw") {
      const drop = ctx.legal.all.includes("drop") ? ", or drop" : "";
      const pile = this.drawPile(ctx.legal) ? " or the discard pile (D)" : "";
      return `draw from the stock (S)${pile}${drop}.`;
    }
    if (view.phase === "discard") return "discard a card (tap it twice), or declare with all 13 in groups.";
    if (view.phase === "rejoin") return `rejoin with ${view.standing?.rejoin_total} points, or stay out.`;
    if (view.phase === "agreed-finish") return "finish the game and share the win, or play on.";
    return "wait.";
  },

  waitingText(ctx) {
    if (ctx.view.phase === "deal" || ctx.view.phase === "choose-dealer") return "Dealing the next hand…";
    if (ctx.view.phase === "reshuffle") return "The stock ran out: shuffling the discard pile into a new stock…";
    return "Waiting…";
  },

  buttonText(ctx, action) {
    // The between-deals questions have their own buttons at the table (renderDecision).
    if (DECISION_TEXT[action.notation]) return null;
    // What a drop costs now is the server's (the move's `cost`, from the table's rules).
    if (action.verb === "drop" && action.cost !== null) return `Drop for ${action.cost}`;
    return baseGame.buttonText.call(this, ctx, action);
  },
  buttonClass(action) {
    return action.verb === "drop" ? "danger" : "";
  },

  cannotPlayText(ctx, card) {
    if (ctx.view.taken && label(ctx.view.taken) === label(card) && ctx.message.to_move === ctx.seat) {
      return `The ${cardName(card)} was just taken from the pile: it cannot be discarded this turn.`;
    }
    return baseGame.cannotPlayText.call(this, ctx, card);
  },

  movement(action) {
    if (action.verb === "discard" || action.verb === "declare") return "to-pile";
    if (action.verb === "draw stock") return "from-stock";
    if (action.verb === "draw pile") return "from-pile";
    return null;
  },

  dealKey(view) {
    return view.deal_number ?? null;
  },

  renderScores(ctx) {
    const view = ctx.view;
    if (view.standing) return renderStandings(ctx);
    const n = ctx.players;
    const totals = view.totals || [];
    const best = Math.min(...totals);
    const deals = view.deal_points || [];
    const rows = Array.from({ length: n }, (_, seat) => ({
      seat,
      values: [deals.length ? deals[deals.length - 1][seat] : null, totals[seat]],
      leader: deals.length > 0 && totals[seat] === best,
    }));
    const dealText = view.rules?.deals ? `Deal ${view.deal_number} of ${view.rules.deals}` : `Deal ${view.deal_number} · free play`;
    return scoreTable(ctx, {
      title: "Points",
      columns: ["Last deal", "Total"],
      rows,
      note: `${dealText}. Points are bad.`,
      leaderText: "lowest total, leading",
    });
  },

  summaryKey(ctx) {
    const deal = ctx.view.last_deal;
    return deal ? `deal-${deal.number}` : null;
  },

  revealedHands(ctx) {
    // Dropped players' cards, and every hand of a deal that ended without a show, stay hidden.
    return ctx.view.last_deal?.hands ?? null;
  },

  summaryTitle(ctx) {
    const deal = ctx.view.last_deal;
    if (ctx.message.result) return "Game over";
    return deal ? `Deal ${deal.number}: results` : "Results";
  },

  renderSummary(ctx) {
    const deal = ctx.view.last_deal;
    if (!deal) return null;
    const details = dealDetails(ctx, deal);
    const n = deal.hands.length;
    const rank = deal.wild_rank ?? null;
    const cap = ctx.view.rules?.max_points ?? null;
    const opening = h(
      "p",
      { class: "summary-lead" },
      deal.declarer !== null && deal.declarer !== undefined
        ? `${ctx.name(deal.declarer)} declared${deal.put_down ? `, putting down ${shortText(deal.put_down)}` : ""}: ${OUTCOME_TEXT[deal.outcome] || deal.outcome}.`
        : deal.outcome === "all-dropped" ? droppedText(ctx, deal)
          : `The deal ended by ${OUTCOME_TEXT[deal.outcome] || deal.outcome}.`,
      deal.wild_card ? ` Wild joker ${shortText(deal.wild_card)}${rank !== null ? ` (${RANK_PLURALS[rank]} wild)` : ""}.` : "",
    );
    const winners = ctx.message.result?.winners || [];
    const winnerLine = winners.length
      ? h("p", { class: "summary-winner" },
          `${winners.map((s) => ctx.name(s)).join(" and ")} ${winners.length > 1 || winners[0] === ctx.seat ? "win" : "wins"} the game.`)
      : null;
    const rows = [];
    for (let seat = 0; seat < n; seat += 1) {
      rows.push(this.seatSummary(ctx, deal, seat, details?.arrangements?.[seat] ?? null, rank, cap));
    }
    const chart = chartFromRounds(ctx, ctx.view.deal_points, { title: "Total points after each deal", lowerIsBetter: true, axis: "deals played" });
    return h(
      "div",
      { class: "summary game-indian-rummy" },
      opening,
      winnerLine,
      ctx.message.result ? finalStanding(ctx) : null,
      h("div", { class: "summary-seats" }, rows),
      h("p", { class: "summary-totals" }, "Totals: ", (ctx.view.totals || []).map((t, seat) => `${ctx.name(seat)} ${t}`).join(" · ")),
      chart,
    );
  },

  seatSummary(ctx, deal, seat, arrangement, rank, cap) {
    const points = deal.points?.[seat] ?? 0;
    const hand = deal.hands?.[seat];
    const drop = deal.drops?.[seat];
    const parts = [];
    let why = "";
    if (arrangement && hand) {
      parts.push(
        h("div", { class: "meld-line" },
          (arrangement.groups || []).map((group) => groupFigure(group)),
          arrangement.loose?.length
            ? h("figure", { class: "meld loose" },
                cardRow(arrangement.loose, { extraClass: "mini overlap", label: `loose cards: ${arrangement.loose.map(cardName).join(", ")}` }),
                h("figcaption", {}, `loose ${(arrangement.loose_points || []).join(" + ")}`))
            : null),
      );
      why = countText(arrangement, cap);
    } else if (hand) {
      parts.push(cardRow(hand, { extraClass: "mini overlap", label: `${ctx.name(seat)}'s hand` }));
    } else {
      parts.push(h("p", { class: "muted" }, "Cards not shown."));
    }
    if (!hand && isOut(ctx.view, seat) && !drop) {
      // Out of a Pool game before this deal: the seat had no cards and no drop of its own.
      why = "Out of the game: sat this deal out.";
    } else if (drop !== null && drop !== undefined) {
      why = `Dropped: ${drop} points.`;
    } else if (deal.outcome === "wrong-show" && seat === deal.declarer) {
      why = `Wrong show: ${points} points.${arrangement ? ` ${countText(arrangement, null, true)}` : ""}`;
    } else if (seat === deal.declarer && deal.outcome === "valid-show") {
      why = "Valid show: 0 points.";
    } else if (deal.outcome === "all-dropped" && seat === deal.winner) {
      why = "Everyone else dropped: 0 points.";
    } else if (deal.outcome === "wrong-show" && points === 0) {
      why = "No points: the declarer pays for the wrong show.";
    } else if (deal.outcome === "turn-limit") {
      why = "The deal reached its turn limit with no show: 0 points.";
    } else if (deal.outcome === "abandoned") {
      why = "The deal was abandoned: 0 points.";
    }
    if (!why) why = `${points} points.`;
    return h(
      "section",
      { class: `seat-summary${seat === ctx.seat ? " me" : ""}`, "aria-label": `${ctx.name(seat)}: ${points} points` },
      h("h3", {}, ctx.name(seat), h("span", { class: "points" }, `${points}`)),
      parts,
      h("p", { class: "why" }, why),
    );
  },

  extraControls() {
    return [];
  },

  confirmMove(ctx, notation) {
    return confirmIndianRummyMove(ctx, notation);
  },
};

/** Ask before a move that ends the deal for you. */
export async function confirmIndianRummyMove(ctx, notation) {
  const action = ctx.legal.byNotation.get(notation);
  if (action?.verb === "declare") {
    const preview = await ctx.table.groups?.preview(action.card);
    // The penalty is the table's rule (the view's rules), never a number of the page's own.
    const penalty = ctx.view.rules?.wrong_show_penalty ?? null;
    return confirmPanel(
      "Declare?",
      `Put down the ${cardName(action.card)} and show your other 13 cards. ${declareVerdict(preview, penalty)}`,
      "Declare",
      "Cancel",
      { more: preview ? declaredGroups(preview) : null },
    );
  }
  if (action?.verb === "drop" && action.cost !== null) {
    return confirmPanel(
      `Drop out for ${action.cost} points?`,
      action.costWords ?? "",
      `Drop for ${action.cost} points`,
      "Keep playing",
    );
  }
  return true;
}

/** What the declaration will be, from the server's reading of the groups being declared: the
 * solver checks every show, so a valid hand is a valid show however it is grouped. */
export function declareVerdict(preview, penalty) {
  if (!preview) {
    return `If they are not all in groups with two sequences, one of them pure, it is a wrong show${penalty === null ? "" : `: ${penalty} points`}.`;
  }
  const best = preview.best || {};
  const differs = !preview.same_as_best;
  if (preview.valid_show) {
    return `Your groups make a valid show.${differs ? " They differ from the best arrangement, which is a valid show too." : ""}`;
  }
  if (best.valid_show) {
    return "Your groups differ from the best arrangement: as you grouped them they are not a valid show, but these cards are. The declaration is checked with the best arrangement (below), so it is a valid show.";
  }
  return `These cards are not a valid show however they are grouped${differs ? " (your groups differ from the best arrangement, which is not a show either)" : ""}: a wrong show${penalty === null ? " has its penalty" : ` costs ${penalty} points`}.`;
}

/** The groups being declared, each labelled as the server reads it; the best arrangement too
 * when the player's groups differ from it. */
function declaredGroups(preview) {
  const figures = (groups) => h("div", { class: "meld-line" }, groups.map((group) => groupFigure({
    kind: group.label ?? group.kind,
    cards: group.cards,
    represents: group.represents,
  })));
  const parts = [h("p", { class: "declare-caption" }, "Your groups:"), figures(preview.groups || [])];
  const best = preview.best;
  if (best && !preview.same_as_best) {
    const loose = best.loose?.length ? [{ label: "loose", cards: best.loose }] : [];
    parts.push(h("p", { class: "declare-caption" }, "The best arrangement:"), figures([...(best.groups || []), ...loose]));
  }
  return h("div", { class: "declare-groups" }, parts);
}
