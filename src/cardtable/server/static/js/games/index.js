// The per-game modules, found by the game's registry name.

import { baseGame } from "./base.js";
import declarationRummy from "./declaration_rummy.js";
import indecision from "./indecision.js";
import indianRummy from "./indian_rummy.js";

const MODULES = {
  indecision,
  "indian-rummy": indianRummy,
  "declaration-rummy": declarationRummy,
};

export function gameModule(name) {
  return MODULES[name] ?? { ...baseGame, name };
}
