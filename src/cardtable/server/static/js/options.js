// @ts-check
// Player options (kept per player on the server through PUT /api/profile) and their effect on
// the page: body classes for the four-colour deck, large cards, reduce motion and the coach.

import { api } from "./api.js";

export const DEFAULT_OPTIONS = {
  coach: false,
  four_colour: false,
  large_cards: false,
  reduce_motion: false,
  sounds: false,
  card_back: "red",
  opponent_speed: "normal",
  difficulty: "normal",
};

export const OPTION_TEXT = {
  coach: ["Coach", "Tips, near-melds, what each discard leaves, warnings"],
  four_colour: ["Four-colour deck", "Diamonds blue, clubs green"],
  large_cards: ["Large cards", "Bigger ranks and suits in your hand"],
  reduce_motion: ["Reduce motion", "Cards move almost instantly; no dealing or winning effects"],
  sounds: ["Sounds", "Soft sounds when cards are dealt, drawn and played, and when a game is won"],
  card_back: ["Card back", "The pattern on the back of the cards"],
  opponent_speed: ["Opponent speed", "How quickly the computer players play"],
  difficulty: ["Computer players", "Easy players make simpler choices"],
};

export const SPEEDS = ["slow", "normal", "fast", "instant"];
export const CARD_BACKS = ["red", "blue", "green"];
export const LEVELS = ["random", "easy", "normal", "hard"];

// Animation length of one computer move on screen, by opponent speed.
const MOVE_MS = { slow: 650, normal: 380, fast: 200, instant: 0 };

const listeners = new Set();
let current = { ...DEFAULT_OPTIONS };
const systemReducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export function options() {
  return current;
}

/** True when cards should move almost instantly (the option or the system setting). */
export function motionReduced() {
  return current.reduce_motion || systemReducedMotion.matches;
}

/** Milliseconds for a card animation, 0 under reduced motion. */
export function moveDuration(kind = "opponent") {
  if (motionReduced()) return 0;
  if (kind === "own") return 180;
  return MOVE_MS[current.opponent_speed] ?? MOVE_MS.normal;
}

export function onOptionsChange(listener) {
  listeners.add(listener);
}

/** Apply options to the page without saving them. */
export function applyOptions(next) {
  current = { ...DEFAULT_OPTIONS, ...(next || {}) };
  const body = document.body;
  body.classList.toggle("four-colour", Boolean(current.four_colour));
  body.classList.toggle("large-cards", Boolean(current.large_cards));
  body.classList.toggle("reduce-motion", motionReduced());
  body.classList.toggle("coach-on", Boolean(current.coach));
  body.dataset.opponentSpeed = current.opponent_speed;
  body.dataset.cardBack = current.card_back;
  body.dataset.difficulty = current.difficulty;
  document.documentElement.style.setProperty("--motion-scale", motionReduced() ? "0" : "1");
  for (const listener of listeners) listener(current);
}

/** Change one option, apply it at once, and keep it on the server. */
export async function setOption(name, value) {
  const previous = current;
  applyOptions({ ...current, [name]: value });
  try {
    const profile = await api.saveProfile({ options: { [name]: value } });
    if (profile && profile.options) applyOptions(profile.options);
  } catch (error) {
    applyOptions(previous);
    throw error;
  }
}

systemReducedMotion.addEventListener("change", () => applyOptions(current));
