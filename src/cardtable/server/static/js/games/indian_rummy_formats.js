// @ts-check
// Indian Rummy's Pool and Deals formats at the table (RULES.md 2.13): the standings panel, who
// is out, and the rejoin offer and agreed-finish vote asked between deals. Everything shown is
// what the server's `view.standing` says; nothing here works the rules out again.

import { h } from "../dom.js";
import { scoreTable } from "./base.js";

/** "Pool 101", "Deals (best of 3)" or null in free play. */
export function formatName(view) {
  const standing = view.standing;
  if (!standing) return null;
  if (standing.format === "pool") return `Pool ${standing.limit}`;
  return `Deals (best of ${standing.deals})`;
}

/** Whether the seat is out of the game (not merely dropped from this deal). */
export function isOut(view, seat) {
  return Boolean(view.standing?.out?.[seat]);
}

/** The seat's line in the scores panel's last column. */
function standingValue(standing, seat) {
  if (standing.format === "pool") return standing.out[seat] ? "out" : standing.to_limit?.[seat];
  return standing.chips?.[seat];
}

/** The standings panel: each seat's last deal, total, and distance to the limit (Pool) or chips
 * (Deals); a seat out of the game reads "out". */
export function renderStandings(ctx) {
  const view = ctx.view;
  const standing = view.standing;
  const totals = view.totals || [];
  const deals = view.deal_points || [];
  const pool = standing.format === "pool";
  const winners = new Set(standing.winners || []);
  const rows = Array.from({ length: ctx.players }, (_, seat) => ({
    seat,
    values: [deals.length ? deals[deals.length - 1][seat] : null, totals[seat], standingValue(standing, seat)],
    leader: winners.has(seat),
  }));
  const dealText = pool
    ? `Deal ${view.deal_number}`
    : `Deal ${view.deal_number} of ${standing.deals}${standing.tie_break ? " (tie-break)" : ""}`;
  const rule = pool
    ? `A total of ${standing.limit} or more is out of the game.`
    : `The most chips after the last deal win; everyone started with ${standing.starting_chips}.`;
  const out = Array.from({ length: ctx.players }, (_, seat) => seat).filter((seat) => standing.out[seat]);
  const outText = pool && out.length ? ` Out: ${out.map((seat) => ctx.name(seat)).join(", ")}.` : "";
  return [
    ...scoreTable(ctx, {
      title: `Standings · ${formatName(view)}`,
      columns: ["Last deal", "Total", pool ? "To limit" : "Chips"],
      rows,
      note: `${dealText}. ${rule}${outText}`,
      leaderText: "winner",
    }),
  ];
}

/** The question asked between deals of this seat (a rejoin offer or the finish vote), or of
 * another seat, shown at the table in place of the stock and pile. */
export function renderDecision(ctx) {
  const view = ctx.view;
  const standing = view.standing;
  if (!standing) return null;
  const asked = ctx.message.to_move;
  const mine = asked === ctx.seat;
  const has = (notation) => ctx.legal.all.includes(notation);
  const button = (notation, text, primary) =>
    h("button", { type: "button", class: `btn action${primary ? " primary" : ""}`, dataset: { action: notation } }, text);
  if (view.phase === "rejoin") {
    const total = view.totals?.[asked];
    const title = mine ? "You are out of the game" : `${ctx.name(asked)} is out of the game`;
    const text = mine
      ? `Your total reached ${total}, and ${standing.limit} is out. You may rejoin with ${standing.rejoin_total} points, or stay out.`
      : `${ctx.name(asked)} reached ${total} and is deciding whether to rejoin with ${standing.rejoin_total} points.`;
    return decisionBox("rejoin", title, text, mine && has("rejoin")
      ? [button("rejoin", `Rejoin with ${standing.rejoin_total}`, true), button("stay out", "Stay out", false)]
      : []);
  }
  if (view.phase === "agreed-finish") {
    const title = "Finish the game here?";
    const left = Array.from({ length: ctx.players }, (_, seat) => seat).filter((seat) => !standing.out[seat]);
    const text = mine
      ? `${left.map((seat) => ctx.name(seat)).join(" and ")} are left. If everyone agrees to finish, you all share the win; one "play on" deals the next hand.`
      : `${ctx.name(asked)} is deciding whether to finish the game with a shared win.`;
    return decisionBox("finish", title, text, mine && has("finish")
      ? [button("finish", "Finish and share the win", true), button("play on", "Play on", false)]
      : []);
  }
  return null;
}

function decisionBox(kind, title, text, buttons) {
  return h(
    "section",
    { class: "format-decision", role: "group", "aria-labelledby": `decision-${kind}-title`, dataset: { decision: kind } },
    h("h2", { id: `decision-${kind}-title` }, title),
    h("p", {}, text),
    buttons.length ? h("div", { class: "decision-buttons" }, buttons) : null,
  );
}

/** The words for the between-deals moves on their buttons (the move log says the server's). */
export const DECISION_TEXT = {
  rejoin: { button: "Rejoin" },
  "stay out": { button: "Stay out" },
  finish: { button: "Finish" },
  "play on": { button: "Play on" },
};

/** The final standing in the end-of-game summary: the winners and how the game ended. */
export function finalStanding(ctx) {
  const standing = ctx.view.standing;
  if (!standing || !standing.end) return null;
  const pool = standing.format === "pool";
  const scores = pool ? ctx.view.totals || [] : standing.chips || [];
  const END_TEXT = {
    "last-player": "the last player left",
    "all-eliminated": "everyone else out in the same deal",
    "agreed-finish": "an agreed finish",
    "most-chips": "the most chips after the last deal",
    "deal-cap": "the deal limit",
  };
  const seats = Array.from({ length: ctx.players }, (_, seat) => seat);
  return h(
    "div",
    { class: "final-standing" },
    h("h3", {}, `Final standing · ${formatName(ctx.view)}`),
    h("p", {}, `Decided by ${END_TEXT[standing.end] || standing.end}.`),
    h("ol", {},
      seats
        .slice()
        .sort((a, b) => (pool ? scores[a] - scores[b] : scores[b] - scores[a]))
        .map((seat) =>
          h("li", { class: standing.winners.includes(seat) ? "winner" : "" },
            `${ctx.name(seat)}: ${scores[seat]} ${pool ? "points" : "chips"}${standing.out[seat] && pool ? " (out)" : ""}${standing.winners.includes(seat) ? " · winner" : ""}`))),
  );
}
