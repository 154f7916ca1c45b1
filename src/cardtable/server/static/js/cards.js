// @ts-check
// The card component: card labels ("10H", "PJ", "C12") to names, colours and inline-SVG faces,
// card backs and visual stacks. Every card carries an accessible name such as "seven of hearts".

import { h, svg } from "./dom.js";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const RANK_NAMES = [
  "ace", "two", "three", "four", "five", "six", "seven",
  "eight", "nine", "ten", "jack", "queen", "king",
];
// Written out: "sixes", not "sixs" (the same words as the engine's texts).
export const RANK_PLURALS = [
  "aces", "twos", "threes", "fours", "fives", "sixes", "sevens",
  "eights", "nines", "tens", "jacks", "queens", "kings",
];
export const SUITS = ["S", "H", "D", "C"];
export const SUIT_NAMES = ["spades", "hearts", "diamonds", "clubs"];
export const SUIT_SYMBOLS = ["♠", "♥", "♦", "♣"];

const SPECIALS = {
  PJ: { name: "printed joker", title: "JOKER", kind: "joker" },
  W: { name: "WILDCARD", title: "WILD", kind: "wild" },
  C1: { name: "COUNT 1", title: "COUNT", value: "1", kind: "count" },
  C2: { name: "COUNT 2", title: "COUNT", value: "2", kind: "count" },
  C3: { name: "COUNT 3", title: "COUNT", value: "3", kind: "count" },
  C4: { name: "COUNT 4", title: "COUNT", value: "4", kind: "count" },
  C7: { name: "COUNT 7", title: "COUNT", value: "7", kind: "count" },
  C12: { name: "COUNT 12", title: "COUNT", value: "12", kind: "count" },
  NM0: { name: "NO MELD 0", title: "NO MELD", value: "0", kind: "nomeld" },
  NM2: { name: "NO MELD 2", title: "NO MELD", value: "2", kind: "nomeld" },
  CD0: { name: "CAN'T DECLARE 0", title: "CAN'T DECLARE", value: "0", kind: "cantdeclare" },
};
const SPECIAL_BY_ID = { 52: "PJ", 53: "W", 54: "C1", 55: "C2", 56: "C3", 57: "C4", 58: "C7",
  59: "C12", 60: "NM0", 61: "NM2", 62: "CD0" };
const SPECIAL_ORDER = ["PJ", "W", "C1", "C2", "C3", "C4", "C7", "C12", "NM0", "NM2", "CD0"];
const LABEL_PATTERN = /^(10|[2-9AJQKT])([SHDC])$/;

/** A card as a label: accepts labels in any case and the engine's integer ids. */
export function label(card) {
  if (typeof card === "number") {
    if (card >= 0 && card < 52) return RANKS[card % 13] + SUITS[Math.floor(card / 13)];
    return SPECIAL_BY_ID[card] ?? String(card);
  }
  const text = String(card).trim().toUpperCase().replace(/^T/, "10");
  return text;
}

/** {rank, suit} indexes of a regular card label, or null for a special card. */
export function parse(card) {
  const text = label(card);
  const match = LABEL_PATTERN.exec(text);
  if (!match) return null;
  return { rank: RANKS.indexOf(match[1]), suit: SUITS.indexOf(match[2]) };
}

export function isRegular(card) {
  return parse(card) !== null;
}

/** The spoken name of a card: "seven of hearts", "printed joker", "COUNT 12". */
export function cardName(card) {
  const parsed = parse(card);
  if (parsed) return `${RANK_NAMES[parsed.rank]} of ${SUIT_NAMES[parsed.suit]}`;
  return SPECIALS[label(card)]?.name ?? label(card);
}

/** Short text with a suit symbol: "7♥", "JOKER", "C12". */
export function shortText(card) {
  const parsed = parse(card);
  if (parsed) return RANKS[parsed.rank] + SUIT_SYMBOLS[parsed.suit];
  return label(card);
}

/** A card as its face reads: "7♥", "JOKER" for the printed joker, "COUNT 12", "WILD". */
export function faceText(card) {
  const parsed = parse(card);
  if (parsed) return RANKS[parsed.rank] + SUIT_SYMBOLS[parsed.suit];
  const info = SPECIALS[label(card)];
  if (!info) return label(card);
  return info.value !== undefined ? `${info.title} ${info.value}` : info.title;
}

/** Text with every card label as its face reads ("discard PJ" as "discard JOKER", "10C" as
 * "10♣"): for pages that write a game's moves in words, such as the replay. */
export function faceCards(text) {
  return prettyCards(text).replace(/\b(PJ|C(?:1|2|3|4|7|12)|NM[02]|CD0)\b/g, (code) => faceText(code));
}

/** Text with card labels ("10C", "QH") written with suit symbols ("10♣", "Q♥"). */
export function prettyCards(text) {
  return String(text ?? "").replace(/\b(10|[2-9AJQK])([SHDC])\b/g, (_, rank, suit) => rank + SUIT_SYMBOLS[SUITS.indexOf(suit)]);
}

/** Sort key by suit (S H D C), then rank; specials last. */
export function suitKey(card) {
  const parsed = parse(card);
  if (parsed) return parsed.suit * 13 + parsed.rank;
  return 100 + SPECIAL_ORDER.indexOf(label(card));
}

/** Sort key by rank (A low), then suit; specials last. */
export function rankKey(card) {
  const parsed = parse(card);
  if (parsed) return parsed.rank * 4 + parsed.suit;
  return 100 + SPECIAL_ORDER.indexOf(label(card));
}

// Suit shapes on a 100x100 grid, drawn here so that no font is needed for them.
const SUIT_SHAPES = {
  S: [["path", { d: "M50 4C61 24 95 39 95 62C95 76 85 85 72 85C63 85 57 81 53 75C54 85 58 92 "
    + "67 97H33C42 92 46 85 47 75C43 81 37 85 28 85C15 85 5 76 5 62C5 39 39 24 50 4Z" }]],
  H: [["path", { d: "M50 92C22 70 4 52 4 31C4 16 16 5 30 5C40 5 47 11 50 20C53 11 60 5 70 5"
    + "C84 5 96 16 96 31C96 52 78 70 50 92Z" }]],
  D: [["path", { d: "M50 3L87 50L50 97L13 50Z" }]],
  C: [
    ["circle", { cx: 50, cy: 27, r: 21 }],
    ["circle", { cx: 27, cy: 60, r: 21 }],
    ["circle", { cx: 73, cy: 60, r: 21 }],
    ["path", { d: "M45 50H55C55 74 59 88 68 97H32C41 88 45 74 45 50Z" }],
  ],
};

/** An inline SVG suit symbol for suit letter `suit` (S H D C). */
export function suitIcon(suit, className = "suit-icon") {
  return svg(
    "svg",
    { class: `${className} suit-${suit}`, viewBox: "0 0 100 100", "aria-hidden": "true",
      focusable: "false" },
    SUIT_SHAPES[suit].map(([tag, attrs]) => svg(tag, attrs)),
  );
}

const STAR_PATH = "M50 4L62 38H97L69 59L79 94L50 73L21 94L31 59L3 38H38Z";

function starIcon(className) {
  return svg(
    "svg",
    { class: className, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: STAR_PATH }),
  );
}

function corner(rankText, suit, position) {
  return h(
    "span",
    { class: `corner corner-${position}`, "aria-hidden": "true" },
    rankText ? h("span", { class: "corner-rank" }, rankText) : starIcon("corner-star"),
    suit ? suitIcon(suit, "corner-suit") : null,
  );
}

const GOLD = "#e7b934";
const SKIN = "#f6d9b4";
const LINE = "#3d2a14";

// Each court card's headwear and hair, drawn on the upper half of a 60x92 panel.
const COURT_PARTS = {
  // Jack: a soft cap with a feather, short hair.
  J: () => [
    svg("path", { d: "M22 19c1-5 4-7 8-7s7 2 8 7z", fill: "#6b3b16" }),
    svg("path", { d: "M19 14c3-8 19-9 22 0l-2 3H21z", fill: "currentColor", stroke: LINE, "stroke-width": 0.8 }),
    svg("path", { d: "M39 11c5-6 9-5 11-4-4 1-7 3-9 6z", fill: GOLD, stroke: LINE, "stroke-width": 0.6 }),
  ],
  // Queen: long hair and a small tiara.
  Q: () => [
    svg("path", { d: "M21 22c-2-9 3-13 9-13s11 4 9 13l2 9h-5l-1-7h-10l-1 7h-5z", fill: "#7a4a1c" }),
    svg("path", { d: "M23 12l3-5 4 3 4-3 3 5z", fill: GOLD, stroke: LINE, "stroke-width": 0.7 }),
    svg("circle", { cx: 30, cy: 8.5, r: 1.4, fill: "currentColor" }),
  ],
  // King: a crown and a beard.
  K: () => [
    svg("path", { d: "M24 24c1 6 3 8 6 8s5-2 6-8c-2 2-4 3-6 3s-4-1-6-3z", fill: "#8a8a8a", stroke: LINE, "stroke-width": 0.6 }),
    svg("path", { d: "M21 14l1-9 4 5 4-7 4 7 4-5 1 9z", fill: GOLD, stroke: LINE, "stroke-width": 0.7 }),
    svg("circle", { cx: 30, cy: 10, r: 1.3, fill: "currentColor" }),
  ],
};

/** Half a court card: shoulders in the suit's colour with a gold trim, head and headwear. */
function courtHalf(rankText, suit) {
  return [
    svg("path", { d: "M6 46c1-10 9-15 24-15s23 5 24 15z", fill: "currentColor", stroke: LINE, "stroke-width": 0.8 }),
    svg("path", { d: "M17 46c2-7 6-11 13-11s11 4 13 11", fill: "none", stroke: GOLD, "stroke-width": 2.2 }),
    svg("circle", { cx: 30, cy: 20, r: 8, fill: SKIN, stroke: LINE, "stroke-width": 0.8 }),
    svg("circle", { cx: 27.2, cy: 19.5, r: 0.9, fill: LINE }),
    svg("circle", { cx: 32.8, cy: 19.5, r: 0.9, fill: LINE }),
    svg("path", { d: "M27.5 24c1.5 1 3.5 1 5 0", fill: "none", stroke: "#a0472f", "stroke-width": 0.8 }),
    ...COURT_PARTS[rankText](),
    svg("svg", { x: 25, y: 34, width: 10, height: 10, viewBox: "0 0 100 100" },
      svg("path", { d: "M0 0h100v100H0z", fill: "#fffdf6" }),
      SUIT_SHAPES[suit].map(([tag, attrs]) => svg(tag, { ...attrs, fill: "currentColor" }))),
  ];
}

/**
 * A court card's picture: a framed, double-ended figure (jack, queen or king) drawn here in
 * SVG, in the suit's colour, so that the page needs no image files for it.
 */
function courtPicture(rankText, suit) {
  return svg(
    "svg",
    { class: "court-picture", viewBox: "0 0 60 92", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 1, y: 1, width: 58, height: 90, rx: 3, fill: "#fff6de", stroke: "currentColor", "stroke-width": 1.4 }),
    svg("g", {}, courtHalf(rankText, suit)),
    svg("g", { transform: "rotate(180 30 46)" }, courtHalf(rankText, suit)),
    svg("path", { d: "M4 46h52", stroke: "currentColor", "stroke-width": 0.8 }),
  );
}

function regularFace(parsed) {
  const rankText = RANKS[parsed.rank];
  const suit = SUITS[parsed.suit];
  const isCourt = parsed.rank >= 10;
  const centre = isCourt
    ? h("span", { class: "face-court", "aria-hidden": "true" }, courtPicture(rankText, suit))
    : h("span", { class: "face-pip", "aria-hidden": "true" }, suitIcon(suit, "pip-suit"));
  return [corner(rankText, suit, "top"), centre, corner(rankText, suit, "bottom")];
}

function specialFace(text) {
  const info = SPECIALS[text] ?? { title: text, kind: "unknown" };
  const star = starIcon("special-star");
  // The printed joker's corner is a star, so that it is never read as a jack.
  const shortCorner = info.value ?? (text === "PJ" ? "" : "W");
  return [
    corner(shortCorner, null, "top"),
    h(
      "span",
      { class: "face-special", "aria-hidden": "true" },
      info.kind === "joker" || info.kind === "wild" ? star : null,
      h("span", { class: "special-title" }, info.title),
      info.value !== undefined ? h("span", { class: "special-value" }, info.value) : null,
    ),
    corner(shortCorner, null, "bottom"),
  ];
}

/** Class names describing a card's colour family, for CSS (suit-H, special-count …). */
function cardClasses(text) {
  const parsed = parse(text);
  if (parsed) return `card face suit-${SUITS[parsed.suit]}`;
  return `card face special special-${SPECIALS[text]?.kind ?? "unknown"}`;
}

/**
 * A face-up card element. `tag` is "button" for cards a player acts on, "div" otherwise
 * (then it gets role=img so that its name is read).
 */
export function cardElement(card, { tag = "div", extraClass = "", name = null, attrs = {} } = {}) {
  const text = label(card);
  const accessibleName = name ?? cardName(text);
  const el = h(
    tag,
    {
      class: `${cardClasses(text)} ${extraClass}`.trim(),
      "aria-label": accessibleName,
      role: tag === "button" ? null : "img",
      type: tag === "button" ? "button" : null,
      dataset: { card: text },
      ...attrs,
    },
    ...(parse(text) ? regularFace(parse(text)) : specialFace(text)),
  );
  return el;
}

/** A face-down card. */
export function cardBack({ extraClass = "", name = "face-down card" } = {}) {
  return h("div", { class: `card back ${extraClass}`.trim(), role: "img", "aria-label": name });
}

/**
 * A visual stack of face-down cards: `depth` layers (no exact count is shown unless `count`
 * is given, as Declaration Rummy forbids counting the stock).
 */
export function stackElement({ depth = 3, name = "stock", count = null, extraClass = "" } = {}) {
  const layers = Math.max(0, Math.min(depth, 6));
  const el = h("div", { class: `stack ${extraClass}`.trim(), style: { "--depth": layers } });
  for (let i = 0; i < layers; i += 1) {
    el.append(h("div", { class: "card back layer", style: { "--layer": i }, "aria-hidden": "true" }));
  }
  if (layers === 0) el.append(h("div", { class: "card empty", "aria-hidden": "true" }));
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", count === null ? name : `${name}, ${count} cards`);
  return el;
}

/** A row of small face-up cards (melds, examples, shown hands). */
export function cardRow(cards, { extraClass = "mini", label: rowLabel = null } = {}) {
  const row = h("div", { class: `card-row ${extraClass}`.trim(), role: "group" });
  if (rowLabel) row.setAttribute("aria-label", rowLabel);
  for (const card of cards) row.append(cardElement(card));
  return row;
}
