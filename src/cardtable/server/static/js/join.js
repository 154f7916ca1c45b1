// @ts-check
// The page an invite link opens (#/join/TOKEN): which game and who is there, a display name,
// a free seat to pick, or watching. The token is read from the address's fragment, which the
// browser never sends to the server, and goes to it only in request bodies; once joined, the
// address becomes the table's (#/table/ID) so the token does not stay in the history.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { alertMessage } from "./panel.js";
import { settingsLines } from "./presence.js";

const LEVEL_WORDS = { random: "Random", easy: "Easy", normal: "Normal", hard: "Hard" };

export class JoinScreen {
  constructor(app, token) {
    this.app = app;
    this.token = token;
    this.room = null;
    this.root = null;
    this.seat = null;
    const name = app.profile?.name;
    this.name = name && name !== "Player" ? name : "";
    this.busy = false;
  }

  async mount(root) {
    this.root = root;
    replaceChildren(root, h("p", { class: "loading" }, "Opening the invitation…"));
    try {
      this.room = await api.peekInvite(this.token);
    } catch (error) {
      this.showProblem(error.message);
      return;
    }
    // A member coming back (this device or another signed in as the same profile): straight to
    // the seat, with the full view.
    if (this.room.you?.role) {
      location.replace(`#/table/${encodeURIComponent(this.room.table_id)}`);
      return;
    }
    const free = this.freeSeats();
    this.seat = free.length ? free[0] : null;
    this.render();
  }

  freeSeats() {
    return (this.room?.seats || []).filter((s) => s.kind === "open").map((s) => s.seat);
  }

  showProblem(message) {
    this.app.setTitle("");
    const sentence = message ? `${message.charAt(0).toUpperCase()}${message.slice(1).replace(/\.?$/, ".")}` : "";
    replaceChildren(this.root,
      h("div", { class: "table-missing felt-card", role: "alert" },
        h("h2", {}, "This invitation cannot be used"),
        sentence ? h("p", {}, sentence) : null,
        h("div", { class: "btn-row" },
          h("a", { class: "btn primary", href: "#/lobby" }, "See the public tables"),
          h("a", { class: "btn", href: "#/" }, "Choose a game"))));
  }

  render() {
    const room = this.room;
    const title = room.title || this.app.gameTitle(room.game);
    this.app.setTitle(title);
    const playing = room.phase !== "waiting";
    const free = this.freeSeats();
    const spectators = room.settings?.spectators !== false;
    const form = h("form", { class: "join-form start-form", "aria-labelledby": "join-title" });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.join(false);
    });
    const nameInput = h("input", {
      id: "join-name", type: "text", required: true, maxlength: 40, autocomplete: "nickname", value: this.name,
      "aria-describedby": "join-name-help",
    });
    nameInput.addEventListener("input", () => { this.name = nameInput.value; nameInput.removeAttribute("aria-invalid"); });
    const seatChoices = room.seats.map((seat) => {
      const open = seat.kind === "open" && !playing;
      const id = `join-seat-${seat.seat}`;
      const who = seat.kind === "person" ? seat.name
        : seat.kind === "bot" ? `${seat.name} (computer player, ${LEVEL_WORDS[seat.level] ?? seat.level})` : "Free";
      const input = open ? h("input", { type: "radio", name: "join-seat", id, value: seat.seat, checked: seat.seat === this.seat }) : null;
      input?.addEventListener("change", () => { this.seat = seat.seat; });
      return h("li", { class: `join-seat${open ? " free" : ""}` },
        open
          ? h("label", { class: "check", for: id }, input, `Seat ${seat.seat + 1}: free`)
          : h("span", {}, `Seat ${seat.seat + 1}: `, h("span", { class: "join-who" }, who)));
    });
    const canSit = !playing && free.length > 0;
    form.append(
      h("h2", { id: "join-title", class: "start-title" }, `${room.host || "Someone"} invites you to ${title}`),
      room.format ? h("p", { class: "join-format", dataset: { format: room.format } }, room.table_label) : null,
      h("p", { class: "friends-lead" }, playing
        ? (spectators ? "The game has started: you can watch it." : "The game has started and this table does not allow watching.")
        : canSit ? "Pick a free seat and the name the others will see." : "Every seat is taken."),
      h("div", { class: "setup-card field" },
        h("label", { for: "join-name" }, "Your name at the table"),
        nameInput,
        h("span", { class: "field-help", id: "join-name-help" }, "1 to 40 characters. The others see it beside your seat.")),
      h("fieldset", { class: "setup-card join-seats" },
        h("legend", {}, "Seats"),
        h("ul", { class: "join-seat-list" }, seatChoices)),
      h("div", { class: "setup-card room-settings" },
        h("h3", {}, "Table settings"),
        h("dl", {}, settingsLines(room.settings).map(([term, text]) => [h("dt", {}, term), h("dd", {}, text)]))),
      h("div", { class: "btn-row" },
        canSit ? h("button", { type: "submit", class: "btn primary", id: "join-sit" }, "Sit down") : null,
        spectators ? h("button", { type: "button", class: `btn${canSit ? "" : " primary"}`, id: "join-watch", onclick: () => this.join(true) }, "Watch") : null,
        h("a", { href: "#/", class: "btn" }, "Not now")),
    );
    replaceChildren(this.root, h("section", { class: "start-screen join-screen" }, form));
    (canSit || spectators ? nameInput : this.root.querySelector("a.btn"))?.focus({ preventScroll: true });
  }

  async join(watch) {
    if (this.busy) return;
    const nameInput = this.root.querySelector("#join-name");
    const name = this.name.trim();
    if (!name) {
      nameInput.setAttribute("aria-invalid", "true");
      nameInput.focus();
      alertMessage("Give the name the others will see at the table.");
      return;
    }
    this.busy = true;
    const buttons = [...this.root.querySelectorAll("#join-sit, #join-watch")];
    for (const b of buttons) b.disabled = true;
    try {
      const body = watch ? { token: this.token, name, watch: true } : { token: this.token, name, seat: this.seat };
      const joined = await api.joinInvite(body);
      if (this.app.profile) this.app.profile = { ...this.app.profile, name };
      location.replace(`#/table/${encodeURIComponent(joined.table_id)}`);
    } catch (error) {
      this.busy = false;
      for (const b of buttons) b.disabled = false;
      if (/name/i.test(error.message)) {
        nameInput.setAttribute("aria-invalid", "true");
        nameInput.focus();
      }
      alertMessage(`Could not join: ${error.message}`);
      // The seats may have changed meanwhile (a seat taken by someone faster): show them again.
      try {
        this.room = await api.peekInvite(this.token);
        if (!this.freeSeats().includes(this.seat)) this.seat = this.freeSeats()[0] ?? null;
        this.render();
      } catch {
        // The invitation itself failed: the alert said why.
      }
    }
  }
}
