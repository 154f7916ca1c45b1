// @ts-check
// The page's entry point: loads the games and the profile, applies the options, and switches
// between the start screen (#/) and a table (#/table/ID); global keyboard shortcuts.

import { api } from "./api.js";
import { trackKeyboard } from "./fit.js";
import { h, replaceChildren } from "./dom.js";
import { setupMenu, showTableRules } from "./menu.js";
import { applyOptions, onOptionsChange, options, setOptionSchema } from "./options.js";
import { alertMessage, announce, closePanel, confirmPanel, setupPanel } from "./panel.js";
import { ReplayView } from "./replay.js";
import { HandReviewView } from "./analysis.js";
import { StartScreen } from "./start.js";
import { TableView } from "./table.js";
import { FriendsSetup } from "./friends.js";
import { JoinScreen } from "./join.js";
import { LobbyScreen } from "./lobby_list.js";

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
    const played = gameTitle ? `${gameTitle} is played here` : "Every game here is played";
    document.getElementById("notice").firstElementChild.textContent = game?.notice
      || `${played} for entertainment only — there is no wagering, no real money and no prizes of any kind.`;
  },

  /** The game the menu talks about: the table's, or the one chosen on the start screen. */
  currentGame() {
    if (this.view instanceof TableView) return this.view.meta?.game ?? null;
    if (this.view instanceof StartScreen) return this.view.gameName;
    return this.games[0]?.name ?? null;
  },

  openReplay(id) {
    location.hash = `#/replay/table/${encodeURIComponent(id)}`;
  },

  openHandReview(id, hand) {
    location.hash = `#/review/${encodeURIComponent(id)}/${hand}`;
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

  /** The table being played, when there is one and its game is not over. */
  unfinishedTable() {
    const table = this.view instanceof TableView ? this.view : null;
    return table && table.message && !table.message.result ? table : null;
  },

  /** Leave the table for the start page; an unfinished game waits under "Games in progress". */
  leaveTable() {
    const kept = Boolean(this.unfinishedTable());
    this.showStart();
    if (kept) announce("The game is kept: resume it from Games in progress.");
  },

  /** Menu "New game": the start page; the game in progress is kept, not abandoned. */
  confirmNewGame() {
    this.leaveTable();
  },

  /** Abandon the game in progress for good (asked first); then the start page. */
  async confirmAbandon() {
    const table = this.unfinishedTable();
    if (!table) return;
    if (table.people) {
      // Abandoning would end the game for everyone at the table: leave it instead.
      table.people.confirmLeave();
      return;
    }
    const ok = await confirmPanel(
      "Abandon this game?",
      "The game ends now, unfinished, and cannot be resumed. To play it later instead, use Leave.",
      "Abandon the game",
      "Keep playing",
    );
    if (!ok) return;
    try {
      await api.leaveTable(table.tableId);
    } catch (error) {
      alertMessage(`The game could not be abandoned: ${error.message}`);
      return;
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
  // A panel belongs to the screen that opened it (a game-over summary to its table): it never
  // survives a change of screen by Back, Forward or a typed address.
  closePanel();
  if (app.view instanceof TableView || app.view instanceof ReplayView || app.view instanceof HandReviewView
    || app.view instanceof LobbyScreen) app.view.destroy();
  const match = /^#\/table\/(.+)$/.exec(location.hash);
  const replay = /^#\/replay\/(table\/)?(.+)$/.exec(location.hash);
  const review = /^#\/review\/(.+)\/(\d+)$/.exec(location.hash);
  const join = /^#\/join\/(.+)$/.exec(location.hash);
  if (join) {
    app.view = new JoinScreen(app, decodeURIComponent(join[1]));
    app.view.mount(main);
  } else if (location.hash === "#/friends") {
    app.view = new FriendsSetup(app);
    app.view.mount(main);
  } else if (location.hash === "#/lobby") {
    app.view = new LobbyScreen(app);
    app.view.mount(main);
  } else if (review) {
    const view = new HandReviewView(app, decodeURIComponent(review[1]), Number(review[2]));
    app.view = view;
    view.mount(main);
  } else if (replay) {
    const id = decodeURIComponent(replay[2]);
    const view = new ReplayView(app, replay[1] ? { tableId: id } : { token: id });
    app.view = view;
    view.mount(main);
  } else if (match) {
    // A shared table is a TableView that composes the room around it (shared_table.js).
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
  if (app.view instanceof ReplayView && app.view.keydown(event)) {
    event.preventDefault();
    return;
  }
  if (app.view instanceof TableView && app.view.message && app.view.keydown(event)) {
    event.preventDefault();
  }
}

async function boot() {
  setupPanel();
  setupMenu(app);
  trackKeyboard();
  document.addEventListener("keydown", keydown);
  try {
    const [games, profile, optionEntries] = await Promise.all([api.games(), api.profile(), api.options()]);
    app.games = games;
    app.profile = profile;
    setOptionSchema(optionEntries);
    applyOptions(profile?.options);
  } catch (error) {
    replaceChildren(
      document.getElementById("main"),
      h("div", { class: "felt-card" }, h("h2", {}, "The card table could not be reached"), h("p", {}, error.message),
        h("button", { type: "button", class: "btn primary", onclick: () => location.reload() }, "Try again")),
    );
    return;
  }
  // A new level for the computer players (the start page's "Computer players", or an imported
  // profile) reaches the start page at once: an open start page is drawn again with it.
  let difficulty = options().difficulty;
  onOptionsChange((current) => {
    if (current.difficulty === difficulty) return;
    difficulty = current.difficulty;
    if (app.setup) app.setup = { ...app.setup, levels: null };
    // The start page's own choice is already shown; any other (an import, a failed save put
    // back) is drawn again.
    if (app.view instanceof StartScreen && !app.view.levels.every((level) => level === difficulty)) {
      app.view.levels = [];
      app.view.render();
    }
  });
  window.addEventListener("hashchange", route);
  route();
  // The menu waits for the profile, so that options changed there are not overwritten.
  /** @type {HTMLButtonElement} */ (document.getElementById("menu-button")).disabled = false;
  document.body.classList.add("ready");
}

// The app, for the browser tests and the console.
/** @type {any} */ (window).cardtable = app;
boot();