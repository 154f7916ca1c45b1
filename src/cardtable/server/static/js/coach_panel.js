// @ts-check
// The coach's side panel: its warnings, tips, near melds and what each discard leaves, drawn from
// the server's "coach" message. The table decides when it shows; this module only draws it.

import { cardElement, label, parse, prettyCards, RANKS, shortText } from "./cards.js";
import { h, replaceChildren } from "./dom.js";

/** The coach's heading and report in `panel`; `say` turns the coach's text into the page's words
 * (seat names, suit symbols). A finished game and a missing report each get one muted line. */
export function renderCoachPanel(panel, coach, { finished, say }) {
  const body = [h("h2", { id: "coach-title" }, "Coach")];
  if (finished) {
    // Nothing to advise on a finished game (a report from its last turn would be stale).
    body.push(h("p", { class: "muted" }, "The game is over."));
  } else if (!coach) {
    body.push(h("p", { class: "muted" }, "Tips appear here on your turn."));
  } else {
    const sayCards = (text) => prettyCards(say(text));
    for (const warning of coach.warnings || []) body.push(h("p", { class: "coach-warning", role: "note" }, "⚠ ", sayCards(warning)));
    if (coach.tips?.length) body.push(h("ul", { class: "coach-tips" }, coach.tips.map((tip) => h("li", {}, sayCards(tip)))));
    if (coach.near_melds?.length) body.push(...nearMelds(coach.near_melds));
    if (coach.discards?.length) body.push(...discardTables(coach.discards, sayCards));
  }
  replaceChildren(panel, body);
}

/** Each near meld as its cards in miniature, with the cards that would complete it. */
function nearMelds(melds) {
  return [
    h("h3", { class: "coach-heading" }, "Near melds"),
    h("ul", { class: "near-melds" }, melds.map((meld) => {
      const needs = needsText(meld.completing || []);
      const text = `${meld.kind ? `${meld.kind}: ` : ""}${(meld.cards || []).map(shortText).join(" ")}`
        + `${needs ? `, needs ${needs}` : ""} (${meld.unseen} unseen)`;
      return h("li", { "aria-label": text },
        h("span", { class: "card-row micro-row", "aria-hidden": "true" }, (meld.cards || []).map((c) => cardElement(c, { extraClass: "micro" }))),
        h("span", {}, needs ? `needs ${needs}` : "", h("span", { class: "muted" }, ` · ${meld.unseen} unseen`)));
    })),
  ];
}

/** Every card that completes a meld, named: a rank wanted in all four suits reads "any 5", the
 * rest one by one ("any 5, any 8 or 9♥"), so that no card hides behind "or 4 more". */
export function needsText(completing) {
  const cards = [...new Set(completing.map(label))];
  const suitsOf = new Map();
  for (const card of cards) {
    const parsed = parse(card);
    if (!parsed) continue;
    if (!suitsOf.has(parsed.rank)) suitsOf.set(parsed.rank, new Set());
    suitsOf.get(parsed.rank).add(parsed.suit);
  }
  const items = [];
  const said = new Set();
  for (const card of cards) {
    const parsed = parse(card);
    if (parsed && suitsOf.get(parsed.rank).size === 4) {
      if (!said.has(parsed.rank)) items.push(`any ${RANKS[parsed.rank]}`);
      said.add(parsed.rank);
    } else {
      items.push(shortText(card));
    }
  }
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** What each discard leaves: the coach lists them best first; the best three show, the rest on demand. */
function discardTables(discards, sayCards) {
  const row = (entry) =>
    h("tr", {},
      h("td", {}, cardElement(entry.card, { extraClass: "micro" })),
      h("td", { class: "num" }, Array.isArray(entry.leaves) ? entry.leaves.map(shortText).join(" ") : sayCards(entry.leaves ?? "")),
      h("td", {}, sayCards(entry.note || "")));
  const head = () => h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Discard"), h("th", { scope: "col" }, "Leaves"), h("th", { scope: "col" }, "Note")));
  const best = discards.slice(0, 3);
  const rest = discards.slice(3);
  const parts = [
    h("table", { class: "coach-discards" },
      h("caption", {}, rest.length ? "Best discards" : "What each discard leaves"),
      head(),
      h("tbody", {}, best.map(row))),
  ];
  if (rest.length) {
    parts.push(h("details", { class: "coach-more" },
      h("summary", {}, `The other ${rest.length} discard${rest.length === 1 ? "" : "s"}`),
      h("table", { class: "coach-discards" }, head(), h("tbody", {}, rest.map(row)))));
  }
  return parts;
}
