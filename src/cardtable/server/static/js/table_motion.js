// @ts-check
// The table's motion and sound after each new state: where things were before the redraw, the
// card that flew for the last move (to the pile, from the stock or the pile), the deal of a new
// hand, and the winner's stars. The animations themselves (and reduced motion) live in animate.js.

import { readMove } from "./actions.js";
import { dealIn, flyGhost, flyIn, winnerBurst } from "./animate.js";
import { cardBack, cardElement } from "./cards.js";
import { playSound } from "./sound.js";

/** Where the seats, the stock, the pile and the hand are before a render, so moves can fly from there. */
export function captureRects(view) {
  const rects = { seats: new Map() };
  if (!view.el) return rects;
  for (const seat of view.el.opponents.querySelectorAll(".seat")) {
    rects.seats.set(Number(seat.dataset.seat), seat.querySelector(".opp-cards")?.getBoundingClientRect() ?? seat.getBoundingClientRect());
  }
  const stock = view.el.centre.querySelector("[data-zone=stock]");
  const pile = view.el.centre.querySelector("[data-zone=pile]");
  rects.stock = stock?.getBoundingClientRect();
  rects.pile = pile?.getBoundingClientRect();
  rects.hand = view.hand.element.getBoundingClientRect();
  return rects;
}

/** The deal of a new hand, the sound of the last move, and the winner's stars. */
export function motionAndSound(view, before) {
  const { hand, message, previous } = view;
  if (hand.dealt) {
    hand.dealt = false;
    dealIn(hand.element.querySelectorAll(".hand-card"), before.stock ?? view.el.centre.querySelector("[data-zone=stock]")?.getBoundingClientRect());
    playSound("deal", hand.entries.length);
  } else if (previous && message.last_action?.action) {
    const movement = view.module.movement(readMove(message.last_action));
    if (movement === "to-pile") playSound("play");
    else if (movement === "from-stock" || movement === "from-pile") playSound("draw");
  }
  if (message.result && previous && !previous.result) {
    winnerBurst(view.el.banner);
    playSound("win");
  }
}

/** The card of the last move flies from where it was (`before`) to where it is now. */
export function animateLastMove(view, before) {
  const last = view.message.last_action;
  if (!last || !last.action) return;
  const action = readMove(last);
  const mine = last.seat === view.message.seat;
  const kind = mine ? "own" : "opponent";
  const seatRect = mine ? before.hand : before.seats.get(last.seat);
  const pileTop = view.el.centre.querySelector("[data-zone=pile] .card.top");
  const movement = view.module.movement(action);
  if (movement === "to-pile" && pileTop) {
    const from = mine ? view.lastSent?.cardRect ?? before.hand : seatRect;
    flyIn(pileTop, from, kind);
  } else if (movement === "from-stock" && !mine && before.stock && seatRect) {
    flyGhost(cardBack(), before.stock, seatRect, kind);
  } else if (movement === "from-pile" && !mine && before.pile && seatRect) {
    const taken = view.previous ? view.module.pileTop(view.previous.view) : null;
    flyGhost(taken ? cardElement(taken) : cardBack(), before.pile, seatRect, kind);
  } else if ((movement === "from-stock" || movement === "from-pile") && mine) {
    const fresh = view.hand.element.querySelector(".hand-card.fresh");
    if (fresh) flyIn(fresh, movement === "from-stock" ? before.stock : before.pile, kind);
  }
  const seatEl = view.el.opponents.querySelector(`[data-seat="${last.seat}"]`);
  if (seatEl && !mine) {
    seatEl.classList.add("just-moved");
    setTimeout(() => seatEl.classList.remove("just-moved"), 900);
  }
}
