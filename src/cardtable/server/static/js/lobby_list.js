// @ts-check
// The lobby (#/lobby): public tables waiting for people, and public games one may watch, with
// the game, the host, a summary of the rules and the seats still free. Refreshed every few
// seconds while shown; joining goes through the same page as an invite link.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";

const REFRESH_MS = 8000;

export class LobbyScreen {
  constructor(app) {
    this.app = app;
    this.root = null;
    this.timer = null;
    this.list = null;
    this.destroyed = false;
  }

  mount(root) {
    this.root = root;
    this.app.setTitle("");
    this.list = h("div", { class: "lobby-list", "aria-live": "polite", "aria-busy": "true" }, h("p", { class: "muted" }, "Looking for tables…"));
    replaceChildren(root,
      h("section", { class: "start-screen lobby-screen", "aria-labelledby": "lobby-title" },
        h("div", { class: "friends-head" },
          h("h2", { id: "lobby-title", class: "start-title" }, "Public tables"),
          h("a", { href: "#/", class: "btn small ghost back-link" }, "Back")),
        h("p", { class: "friends-lead" }, "Tables whose hosts invite anyone. Take a free seat, or watch a game being played."),
        this.list,
        h("div", { class: "btn-row" },
          h("button", { type: "button", class: "btn", id: "lobby-refresh", onclick: () => this.load() }, "Refresh"),
          h("a", { href: "#/friends", class: "btn primary" }, "Start a table"))));
    this.load();
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.timer);
  }

  async load() {
    clearTimeout(this.timer);
    let tables;
    try {
      tables = await api.lobby();
    } catch (error) {
      if (this.destroyed) return;
      replaceChildren(this.list, h("p", { role: "alert" }, `The public tables could not be loaded: ${error.message}`));
      this.list.setAttribute("aria-busy", "false");
      return;
    }
    if (this.destroyed) return;
    this.render(tables || []);
    this.timer = setTimeout(() => this.load(), REFRESH_MS);
  }

  render(tables) {
    // A refresh must not take the keyboard away from the row one was on.
    const focused = /** @type {HTMLElement | null | undefined} */ (document.activeElement?.closest?.("[data-table]"))?.dataset.table;
    this.list.setAttribute("aria-busy", "false");
    if (!tables.length) {
      replaceChildren(this.list, h("p", { class: "lobby-empty" }, "No public tables right now. Start one, and tick \u201cList it among the public tables\u201d."));
      return;
    }
    replaceChildren(this.list,
      h("table", { class: "lobby-table" },
        h("caption", { class: "visually-hidden" }, "Public tables"),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "Game"),
          h("th", { scope: "col" }, "Host"),
          h("th", { scope: "col" }, "Rules"),
          h("th", { scope: "col" }, "Seats"),
          h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Join")))),
        h("tbody", {}, tables.map((t) => this.row(t)))));
    if (focused) this.list.querySelector(`[data-table="${CSS.escape(focused)}"] a`)?.focus({ preventScroll: true });
  }

  row(t) {
    const title = t.title || this.app.gameTitle(t.game);
    // A waiting table whose seats are all taken is listed for watching (it allows spectators).
    const waiting = t.phase === "waiting" && t.seats_free > 0;
    const seats = t.phase !== "waiting" ? `${t.seats} playing`
      : waiting ? `${t.seats_free} of ${t.seats} seats free` : `All ${t.seats} seats taken, starting soon`;
    const label = waiting ? `Join ${title} hosted by ${t.host}` : `Watch ${title} hosted by ${t.host}`;
    return h("tr", { dataset: { table: t.table_id } },
      h("th", { scope: "row" }, title),
      h("td", { dataset: { label: "Host" } }, t.host || ""),
      h("td", { class: "lobby-rules" }, t.rules_summary || "Standard rules"),
      h("td", {}, seats),
      h("td", {}, h("a", { class: `btn small${waiting ? " primary" : ""}`, href: `#/join/${encodeURIComponent(t.invite)}`, "aria-label": label },
        waiting ? "Join" : "Watch")));
  }
}
