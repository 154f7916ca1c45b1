// @ts-check
// Player options (kept per player on the server through PUT /api/profile) and their effect on
// the page: body classes for the four-colour deck, large cards, reduce motion and the coach.

import { api } from "./api.js";

// The options themselves (names, words, choices, defaults) are declared once on the server and
// come from GET /api/options: nothing here repeats them.
let schema = [];
let defaults = {};
let current = {};
const listeners = new Set();
const systemReducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Take the server's option declarations (GET /api/options) before any option is applied. */
export function setOptionSchema(entries) {
  schema = entries || [];
  defaults = Object.fromEntries(schema.map((entry) => [entry.name, entry.default]));
  current = { ...defaults, ...current };
}

/** The declared options, in the order the Options panel shows them. */
export function optionSchema() {
  return schema;
}

/** An option's label ("Four-colour deck"), or its name before the declarations arrive. */
export function optionLabel(name) {
  return schema.find((entry) => entry.name === name)?.label ?? name;
}

export const LEVELS = ["random", "easy", "normal", "hard"];

// Animation length of one computer move on screen, by opponent speed.
const MOVE_MS = { slow: 650, normal: 380, fast: 200, instant: 0 };


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
  current = { ...defaults, ...(next || {}) };
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
