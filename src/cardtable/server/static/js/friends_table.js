// @ts-check
// Creating a table for friends: the table settings of the host's last shared table (kept in
// this browser), and a game format's friends' table in one click from the start page's tile,
// with every seat after the host's open for a person. The host's name is the profile's; a
// newcomer, who has none yet, is asked for it once before the table is made. Creating the table
// opens its waiting room, where the invite link is, as the "Play with friends" form does.

import { api } from "./api.js";
import { h } from "./dom.js";
import { alertMessage, closePanel, openPanel } from "./panel.js";

export const TURN_CHOICES = [null, 15, 30, 45, 60, 120, 300];
export const BANK_CHOICES = [0, 30, 60, 120];
export const GRACE_CHOICES = [30, 60, 120, 300, 600];
const FRIENDS_KEY = "cardtable.friends-table";

function stored() {
  try {
    return JSON.parse(localStorage.getItem(FRIENDS_KEY) || "null") || {};
  } catch {
    return {};
  }
}

/** The table settings of a host's last shared table (kept in this browser). */
export function lastSettings() {
  const saved = stored();
  return {
    public: saved.public === true,
    spectators: saved.spectators !== false,
    turn_seconds: TURN_CHOICES.includes(saved.turn_seconds) ? saved.turn_seconds : null,
    bank_seconds: BANK_CHOICES.includes(saved.bank_seconds) ? saved.bank_seconds : 60,
    grace_seconds: GRACE_CHOICES.includes(saved.grace_seconds) ? saved.grace_seconds : 120,
  };
}

/** Keep a shared table's settings for the host's next one. */
export function keepSettings(settings) {
  try {
    localStorage.setItem(FRIENDS_KEY, JSON.stringify(settings));
  } catch {
    // Not kept for the next table then.
  }
}

/** The settings as the server takes them: no time bank without a turn timer. */
export function sharedSettings(settings) {
  const shared = { ...settings };
  if (!shared.turn_seconds) {
    shared.turn_seconds = null;
    delete shared.bank_seconds;
  }
  return shared;
}

/** The profile's name when it is one the others can be shown ("Player" is an open seat's). */
export function hostName(app) {
  const name = app.profile?.name;
  return name && name !== "Player" ? name : "";
}

/**
 * Ask a newcomer for the name the others will see, and keep it in the profile. Resolves true
 * once it is kept, false when the question is closed.
 * @param {any} app
 * @param {string} title the table being set up ("Pool 101 with friends")
 * @returns {Promise<boolean>}
 */
function askName(app, title) {
  return new Promise((resolve) => {
    let kept = false;
    const input = /** @type {HTMLInputElement} */ (h("input", {
      id: "quick-friends-name", type: "text", required: true, maxlength: 40, autocomplete: "nickname",
      autofocus: true, "aria-describedby": "quick-friends-name-help",
    }));
    const problem = h("p", { class: "field-error", role: "alert", hidden: true });
    const form = h("form", { class: "quick-friends-form" },
      h("div", { class: "field" },
        h("label", { for: "quick-friends-name" }, "Your name at the table"),
        input,
        h("span", { class: "field-help", id: "quick-friends-name-help" }, "The others see this name beside your seat.")),
      problem,
      h("div", { class: "btn-row" },
        h("button", { type: "submit", class: "btn primary", id: "quick-friends-create" }, "Create the table"),
        h("button", { type: "button", class: "btn", dataset: { close: "" } }, "Cancel")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      const refuse = (text) => {
        input.setAttribute("aria-invalid", "true");
        problem.textContent = text;
        problem.hidden = false;
        input.focus();
      };
      if (!name) return refuse("Give the name the others will see at the table.");
      try {
        app.profile = await api.saveProfile({ name });
      } catch (error) {
        return refuse(`That name cannot be used: ${error.message}`);
      }
      kept = true;
      closePanel();
      resolve(true);
    });
    openPanel(title, form, { name: "quick-friends", closed: () => { if (!kept) resolve(false); } });
  });
}

/**
 * A friends' table of `game` with `rules` and `players` seats, every seat after the host's
 * open for a person, with the host's last table settings; opens its waiting room.
 * @param {any} app
 * @param {{game: string, rules: object, players: number, title: string}} table
 * @returns {Promise<boolean>} whether the table was created
 */
export async function createFriendsTable(app, { game, rules, players, title }) {
  if (!hostName(app) && !(await askName(app, title))) return false;
  const seats = [{ kind: "human" }, ...Array.from({ length: players - 1 }, () => ({ kind: "human" }))];
  const settings = lastSettings();
  try {
    const created = await api.createTable({ game, rules: { ...rules, players }, seats, shared: sharedSettings(settings) });
    keepSettings(settings);
    app.openTable(created.table_id);
    return true;
  } catch (error) {
    alertMessage(`Could not create the table: ${error.message}`);
    return false;
  }
}
