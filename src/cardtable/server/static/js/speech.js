// @ts-check
// Words for the ear: card labels in a sentence ("10C", "10♣", "Q♥") spoken as card names
// ("ten of clubs", "queen of hearts"), for the live region that screen readers read aloud.

const RANK_WORDS = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", 10: "ten", T: "ten", J: "jack", Q: "queen", K: "king",
};
const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs", "♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs" };
const SPECIAL_WORDS = { PJ: "printed joker", W: "WILDCARD", NM0: "NO MELD 0", NM2: "NO MELD 2", CD0: "CAN'T DECLARE 0" };

// A card label standing alone: rank then suit letter or symbol ("10C", "Q♥"), or a special card.
const CARD_IN_TEXT = /(^|[\s(,;:'"])(10|[2-9AJQKT])([SHDC♠♥♦♣])(?=$|[\s),.;:!?'"])|(^|[\s(,;:'"])(PJ|NM0|NM2|CD0|C1|C2|C3|C4|C7|C12)(?=$|[\s),.;:!?'"])/g;

/** `text` with every card label in it written out as the card's name. */
export function spokenCards(text) {
  return String(text ?? "").replace(CARD_IN_TEXT, (whole, before, rank, suit, before2, special) => {
    if (special) {
      const count = /^C(\d+)$/.exec(special);
      return `${before2}${count ? `COUNT ${count[1]}` : SPECIAL_WORDS[special]}`;
    }
    return `${before}${RANK_WORDS[rank]} of ${SUIT_WORDS[suit]}`;
  });
}
