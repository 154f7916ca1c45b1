// @ts-check
// The moves as the server describes them: the state message's `moves` (one per legal action,
// beside the notation strings of `legal`), its `last_action` and a hint's `move` each carry the
// move's kind, its cards, its number and the words to show. Nothing here reads a notation: the
// page renders what the server sends (docs/protocol.md, "Moves").

/**
 * A structured move as the server sends it.
 * @typedef {object} ServerMove
 * @property {string} [notation] the move's notation, as it is sent back to make it
 * @property {string} [action] the notation under its `last_action` name
 * @property {string} kind the move's verb: "discard", "draw stock", "next game"
 * @property {string[]} [cards] the cards it names, as labels
 * @property {number | null} [number] the number it carries (an announcement, discards taken)
 * @property {string} [words] the words to show for it ("Discard the seven of hearts")
 * @property {string} [warning] what to say before it is made (a stop that would score 0)
 * @property {number} [cost] the points it scores for its mover (Indian Rummy's drop)
 * @property {string} [cost_words] the sentence saying what it costs
 * @property {string} [said] a move made: its sentence in the reader's words
 */

/**
 * A move as the page reads it.
 * @typedef {object} Move
 * @property {string} notation
 * @property {string} verb
 * @property {string | null} card the first card it names
 * @property {string[]} cards
 * @property {number | null} number
 * @property {string} words
 * @property {string | null} warning
 * @property {number | null} cost
 * @property {string | null} costWords
 */

/**
 * The legal moves sorted for the controls.
 * @typedef {object} Legal
 * @property {Map<string, Map<string, string>>} byCardVerb verb -> card -> notation
 * @property {Map<string, number[]>} byNumberVerb verb -> the numbers it may take
 * @property {Move[]} plain the moves naming neither a card nor a number
 * @property {string[]} all every legal notation
 * @property {Map<string, Move>} byNotation
 */

/** @type {Move} */
const NO_MOVE = { notation: "", verb: "", card: null, cards: [], number: null, words: "", warning: null, cost: null, costWords: null };

/**
 * The page's form of a server move (a missing or empty one reads as no move).
 * @param {ServerMove | null | undefined} move
 * @returns {Move}
 */
export function readMove(move) {
  if (!move) return NO_MOVE;
  const cards = move.cards ?? [];
  return {
    notation: move.notation ?? move.action ?? "",
    verb: move.kind ?? "",
    card: cards[0] ?? null,
    cards,
    number: move.number ?? null,
    words: move.words ?? "",
    warning: move.warning ?? null,
    cost: move.cost ?? null,
    costWords: move.cost_words ?? null,
  };
}

/**
 * The state message's moves sorted into card moves (verb -> card -> notation), number moves
 * and the others.
 * @param {ServerMove[] | null | undefined} moves
 * @returns {Legal}
 */
export function classify(moves) {
  /** @type {Map<string, Map<string, string>>} */
  const byCardVerb = new Map();
  /** @type {Map<string, number[]>} */
  const byNumberVerb = new Map();
  /** @type {Map<string, Move>} */
  const byNotation = new Map();
  /** @type {Move[]} */
  const plain = [];
  for (const served of moves || []) {
    const move = readMove(served);
    byNotation.set(move.notation, move);
    if (move.card) {
      if (!byCardVerb.has(move.verb)) byCardVerb.set(move.verb, new Map());
      byCardVerb.get(move.verb)?.set(move.card, move.notation);
    } else if (move.number !== null) {
      if (!byNumberVerb.has(move.verb)) byNumberVerb.set(move.verb, []);
      byNumberVerb.get(move.verb)?.push(move.number);
    } else {
      plain.push(move);
    }
  }
  return { byCardVerb, byNumberVerb, plain, all: [...byNotation.keys()], byNotation };
}

/**
 * The legal move of `kind` with no card or number ("draw stock"), or null.
 * @param {Legal} legal
 * @param {...string} kinds
 * @returns {string | null}
 */
export function plainMove(legal, ...kinds) {
  return legal.plain.find((move) => kinds.includes(move.verb))?.notation ?? null;
}

/**
 * Whether a legal move of `kind` exists.
 * @param {Legal} legal
 * @param {string} kind
 */
export function hasMove(legal, kind) {
  for (const move of legal.byNotation.values()) if (move.verb === kind) return true;
  return false;
}
