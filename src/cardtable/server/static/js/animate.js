// @ts-check
// Card movement on the table: a card flies from where it was to where it lands, the deal, and
// the winner's burst of stars. Durations come from the opponent speed; under reduced motion
// (the option or the system setting) nothing moves.

import { motionReduced, moveDuration } from "./options.js";

/** Animate `element` (already at its final place) as if it came from `fromRect`. */
export function flyIn(element, fromRect, kind = "opponent") {
  const duration = moveDuration(kind);
  if (!element || !fromRect || duration <= 0) return null;
  const to = element.getBoundingClientRect();
  const dx = fromRect.left + fromRect.width / 2 - (to.left + to.width / 2);
  const dy = fromRect.top + fromRect.height / 2 - (to.top + to.height / 2);
  const scale = fromRect.width && to.width ? Math.max(0.4, Math.min(1.6, fromRect.width / to.width)) : 1;
  return element.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale}) rotate(-8deg)`, zIndex: 40 },
      { transform: "translate(0, 0) scale(1) rotate(0)", zIndex: 40 },
    ],
    { duration, easing: "cubic-bezier(.2,.7,.2,1)" },
  );
}

/** Animate a temporary copy of `template` from `fromRect` to `toRect`, then remove it. */
export function flyGhost(template, fromRect, toRect, kind = "opponent") {
  const duration = moveDuration(kind);
  if (!template || !fromRect || !toRect || duration <= 0) return null;
  const ghost = template.cloneNode(true);
  ghost.classList.add("flying-card");
  ghost.removeAttribute("id");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, {
    position: "fixed",
    left: `${fromRect.left}px`,
    top: `${fromRect.top}px`,
    margin: "0",
    zIndex: "60",
    pointerEvents: "none",
  });
  document.body.append(ghost);
  const own = ghost.getBoundingClientRect();
  const sx = toRect.width / (own.width || 1);
  const dx = toRect.left - fromRect.left;
  const dy = toRect.top - fromRect.top;
  const animation = ghost.animate(
    [
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(${sx})`, opacity: 0.9 },
    ],
    { duration, easing: "cubic-bezier(.2,.7,.2,1)" },
  );
  animation.addEventListener("finish", () => ghost.remove());
  animation.addEventListener("cancel", () => ghost.remove());
  return animation;
}

/** Finish every running card animation at once (a newer state has arrived). */
/** @param {Document | Element} [root] */
export function finishAnimations(root = document) {
  const running = root === document ? document.getAnimations() : root.getAnimations({ subtree: true });
  for (const animation of running) {
    try {
      animation.finish();
    } catch {
      animation.cancel();
    }
  }
  for (const ghost of document.querySelectorAll(".flying-card")) ghost.remove();
}

/** The deal: each card of a new hand flies in from `fromRect` (the stock), one after another. */
export function dealIn(cards, fromRect) {
  const duration = moveDuration("own");
  if (!fromRect || duration <= 0) return [];
  const step = Math.min(60, 600 / Math.max(1, cards.length));
  return [...cards].map((card, i) => {
    const to = card.getBoundingClientRect();
    const dx = fromRect.left + fromRect.width / 2 - (to.left + to.width / 2);
    const dy = fromRect.top + fromRect.height / 2 - (to.top + to.height / 2);
    return card.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) rotate(-20deg) scale(0.7)`, opacity: 0 },
        { opacity: 1, offset: 0.2 },
        { transform: "none", opacity: 1 },
      ],
      { duration: duration * 1.6, delay: i * step, easing: "cubic-bezier(.2,.7,.2,1)", fill: "backwards" },
    );
  });
}

/** Cards turned face up one after another (the opponents' hands at the end of a hand). */
export function flipUp(cards) {
  const duration = Math.min(420, moveDuration("opponent"));
  if (duration <= 0) return [];
  const step = Math.min(40, 400 / Math.max(1, cards.length));
  return [...cards].map((card, i) =>
    card.animate(
      [
        { transform: "perspective(300px) rotateY(90deg)", filter: "brightness(0.6)" },
        { transform: "perspective(300px) rotateY(0deg)", filter: "none" },
      ],
      { duration, delay: i * step, easing: "ease-out", fill: "backwards" },
    ));
}

/** A small burst of gold stars over `element` for the winner; nothing under reduced motion. */
export function winnerBurst(element) {
  if (!element || motionReduced()) return;
  const layer = document.createElement("span");
  layer.className = "winner-burst";
  layer.setAttribute("aria-hidden", "true");
  for (let i = 0; i < 14; i += 1) {
    const star = document.createElement("i");
    const angle = (i / 14) * Math.PI * 2;
    star.style.setProperty("--dx", `${Math.cos(angle) * (60 + (i % 3) * 25)}px`);
    star.style.setProperty("--dy", `${Math.sin(angle) * (40 + (i % 4) * 14)}px`);
    star.style.animationDelay = `${(i % 5) * 40}ms`;
    star.textContent = "★";
    layer.append(star);
  }
  element.append(layer);
  setTimeout(() => layer.remove(), 1600);
}
