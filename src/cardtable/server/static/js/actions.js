// Reading the legal action list of a state message: which actions name a card, which name a
// number (Indecision's manual declaration), and which are plain buttons.

import { label } from "./cards.js";

const CARD_TOKEN = /^(10|[2-9AJQKT])[SHDC]$|^(PJ|W|C1|C2|C3|C4|C7|C12|NM0|NM2|CD0)$/i;
const NUMBER_TOKEN = /^\d+$/;

/** {notation, verb, card, number} for one action's text notation. */
export function parseAction(notation) {
  const words = notation.trim().split(/\s+/);
  const last = words[words.length - 1];
  if (words.length > 1 && CARD_TOKEN.test(last)) {
    return { notation, verb: words.slice(0, -1).join(" "), card: label(last), number: null };
  }
  if (words.length > 1 && NUMBER_TOKEN.test(last)) {
    return { notation, verb: words.slice(0, -1).join(" "), card: null, number: Number(last) };
  }
  return { notation, verb: words.join(" "), card: null, number: null };
}

/** The legal list sorted into card actions (verb -> Map card -> notation), numbers and others. */
export function classify(legal) {
  const byCardVerb = new Map();
  const byNumberVerb = new Map();
  const plain = [];
  for (const notation of legal || []) {
    const action = parseAction(notation);
    if (action.card) {
      if (!byCardVerb.has(action.verb)) byCardVerb.set(action.verb, new Map());
      byCardVerb.get(action.verb).set(action.card, notation);
    } else if (action.number !== null) {
      if (!byNumberVerb.has(action.verb)) byNumberVerb.set(action.verb, []);
      byNumberVerb.get(action.verb).push(action.number);
    } else {
      plain.push(action);
    }
  }
  return { byCardVerb, byNumberVerb, plain, all: legal || [] };
}
