// @ts-check
// The per-game browser modules, found by the registry name each one declares. The server's game
// catalogue (GET /api/games) is the list of games and carries each game's words (deal_word,
// points_good, face_down_verbs, computer_names); a catalogued game without a module of its own
// here is shown by the base module.

import { baseGame } from "./base.js";

/** @typedef {import("./base.js").GameModule} GameModule */
import declarationRummy from "./declaration_rummy.js";
import indecision from "./indecision.js";
import indianRummy from "./indian_rummy.js";

/** @type {Map<string, GameModule>} */
const MODULES = new Map([indecision, indianRummy, declarationRummy].map((module) => [module.name, module]));

/**
 * The module of the game `name` (the base module for a game without one of its own).
 * @param {string} name
 * @returns {GameModule}
 */
export function gameModule(name) {
  return MODULES.get(name) ?? { ...baseGame, name };
}
