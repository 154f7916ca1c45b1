// The page's entry point: loads the games and the profile, applies the options, and switches
// between the start screen (#/) and a table (#/table/ID); global keyboard shortcuts.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { setupMenu, showTableRules } from "./menu.js";
import { applyOptions } from "./options.js";
import { alertMessage, confirmPanel, setupPanel } from "./panel.js";
import { StartScreen } from "./start.js";
import { TableView } from "./table.js";

const app = {
  games: [],
  profile: null,
  setup: null,
  view: null,
  start: null,

  gameTitle(name) {
    return this.games.find((g) => g.name === name)?.title ?? name;
  },

  setTitle(gameTitle) {
    document.getElementById("game-title").textContent = gameTitle || "";
    document.title = gameTitle ? `${gameTitle} · cardtable` : "cardtable";
    const game = this.games.find((g) => g.title === gameTitle);
    document.getElementById("notice").firstElementChild.textContent = game?.notice
      || `${gameTitle || "Every game here"} is played here for entertainment only — there is no wagering, no real money and no prizes of any kind.`;
  },

  /** The game the menu talks about: the table's, or the one chosen on the start screen. */
  currentGame() {
    if (this.view instanceof TableView) return this.view.meta?.game ?? null;
    if (this.view instanceof StartScreen) return this.view.gameName;
    return this.games[0]?.name ?? null;
  },

  openTable(id) {
    location.hash = `#/table/${encodeURIComponent(id)}`;
  },

  showStart(focus = null) {
    this.pendingFocus = focus;
    if (location.hash === "#/" || location.hash === "") route();
    else location.hash = "#/";
  },

  showHouseRules() {
    if (this.view instanceof TableView && this.view.meta) showTableRules(this, this.view.meta);
    else if (this.view instanceof StartScreen) this.view.showHouseRules();
  },

  async confirmNewGame() {
    const table = this.view instanceof TableView ? this.view : null;
    const playing = table && table.message && !table.message.result;
    const ok = await confirmPanel(
      "Start a new game?",
      playing ? "The game in progress will be abandoned." : "Go back to choose a game and its rules.",
      "Start a new game",
    );
    if (!ok) return;
    if (playing) {
      try {
        await api.leaveTable(table.tableId);
      } catch (error) {
        alertMessage(`Could not leave the table: ${error.message}`);
      }
    }
    this.showStart();
  },

  /** A new table with the same game, rules and seats as `meta`. */
  async startSameAgain(meta) {
    const seats = (meta.seats || []).map((seat, i) => {
      if (seat && typeof seat === "object" && seat.kind === "bot") return { kind: "bot", level: seat.level || "normal" };
      return i === (meta.your_seat ?? 0) ? { kind: "human" } : { kind: "bot", level: "normal" };
    });
    try {
      const created = await api.createTable({ game: meta.game, rules: meta.rules, seats });
      this.openTable(created.table_id);
    } catch (error) {
      alertMessage(`Could not start the game: ${error.message}`);
    }
  },
};

function route() {
  const main = document.getElementById("main");
  if (app.view instanceof TableView) app.view.destroy();
  const match = /^#\/table\/(.+)$/.exec(location.hash);
  if (match) {
    const view = new TableView(app, decodeURIComponent(match[1]));
    app.view = view;
    view.mount(main);
  } else {
    const view = new StartScreen(app);
    app.view = view;
    view.mount(main);
    if (app.pendingFocus) {
      const focus = app.pendingFocus;
      app.pendingFocus = null;
      requestAnimationFrame(() => {
        const target = main.querySelector(focus);
        target?.scrollIntoView({ block: "start" });
        (target?.querySelector("select, input") || target)?.focus?.({ preventScroll: true });
      });
    }
  }
}

function keydown(event) {
  if (app.view instanceof TableView && app.view.message && app.view.keydown(event)) {
    event.preventDefault();
  }
}

async function boot() {
  setupPanel();
  setupMenu(app);
  document.addEventListener("keydown", keydown);
  try {
    const [games, profile] = await Promise.all([api.games(), api.profile()]);
    app.games = games;
    app.profile = profile;
    applyOptions(profile?.options);
  } catch (error) {
    replaceChildren(
      document.getElementById("main"),
      h("div", { class: "felt-card" }, h("h2", {}, "The card table could not be reached"), h("p", {}, error.message),
        h("button", { type: "button", class: "btn primary", onclick: () => location.reload() }, "Try again")),
    );
    return;
  }
  window.addEventListener("hashchange", route);
  route();
  // The menu waits for the profile, so that options changed there are not overwritten.
  document.getElementById("menu-button").disabled = false;
  document.body.classList.add("ready");
}

window.cardtable = app;
boot();