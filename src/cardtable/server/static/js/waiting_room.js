// @ts-check
// The waiting room of a shared table before its game starts: the invite link (shown as text,
// with a copy button), the seats and who sits at them, the table's settings, and the host's
// controls (a computer player in or out of an empty seat, removing a person, Start). Everyone
// else may take a free seat, give theirs up to watch, or leave. Every change arrives as a `room`
// message; the room only sends requests and draws what the server says.

import { h, listText, replaceChildren } from "./dom.js";
import { newContribution } from "./fairness.js";
import { LEVELS, options } from "./options.js";
import { alertMessage, announce, confirmPanel } from "./panel.js";
import { presenceOf, settingsLines } from "./presence.js";

const LEVEL_WORDS = { random: "Random", easy: "Easy", normal: "Normal", hard: "Hard" };

/** The full address of an invite link the server gave as a path ("/#/join/TOKEN"). */
export function inviteAddress(invite) {
  if (!invite) return "";
  const path = invite.url || `/#/join/${invite.token}`;
  return new URL(path, location.origin).href;
}

/** Copy text to the clipboard (falls back to selecting it for the person to copy). */
async function copyText(text, fallbackEl) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const range = document.createRange();
    range.selectNodeContents(fallbackEl);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return false;
  }
}

export class WaitingRoom {
  /**
   * @param {object} options
   * @param {object} options.app the page's app (game titles, start screen)
   * @param {object|null} options.invite the host's invite ({token, url}) or null
   * @param {(message: object) => boolean} options.send sends a websocket message
   * @param {() => void} options.leave asks to leave the table
   */
  constructor({ app, invite, send, leave }) {
    this.app = app;
    this.invite = invite;
    this.send = send;
    this.leave = leave;
    this.room = null;
    this.root = null;
    this.connected = true;
    this.levels = new Map();
  }

  mount(root) {
    this.root = root;
  }

  setConnected(connected) {
    this.connected = connected;
    if (this.room) this.render();
  }

  /** A new room from the server: say who came and went, then draw it. */
  update(room) {
    const before = this.room;
    this.room = room;
    const oldToken = this.invite?.token;
    if (room.invite) this.invite = room.invite;
    if (before) this.announceChanges(before, room);
    if (oldToken && room.invite && room.invite.token !== oldToken) {
      announce("The invite link changed: the old one no longer opens this table. Send the new one to anybody still to come.");
    }
    this.render();
  }

  announceChanges(before, room) {
    const said = [];
    room.seats.forEach((seat, i) => {
      const old = before.seats[i];
      if (!old) return;
      const mine = room.you?.seat === i;
      if (seat.kind === "person" && (old.kind !== "person" || old.name !== seat.name) && !mine) said.push(`${seat.name} sat down at seat ${i + 1}.`);
      if (old.kind === "person" && seat.kind !== "person" && before.you?.seat !== i) said.push(`${old.name} left seat ${i + 1}.`);
      if (seat.kind === "bot" && old.kind !== "bot") said.push(`${seat.name}, a computer player, sits at seat ${i + 1}.`);
    });
    if (room.can_start && !before.can_start && room.you?.host) said.push("Every seat is filled: you can start the game.");
    if (said.length) announce(said.join(" "));
  }

  get isHost() {
    return Boolean(this.room?.you?.host);
  }

  render() {
    const room = this.room;
    if (!this.root || !room) return;
    const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.focusKey;
    const title = room.title || this.app.gameTitle(room.game);
    const people = room.seats.filter((s) => s.kind === "person").length;
    const open = room.seats.filter((s) => s.kind === "open").length;
    replaceChildren(
      this.root,
      h("section", { class: "waiting-room", "aria-labelledby": "room-title", dataset: { phase: room.phase } },
        h("h2", { id: "room-title" }, `${title} with friends`),
        room.format ? h("p", { class: "room-format", dataset: { format: room.format } }, room.table_label) : null,
        h("p", { class: "room-lead" }, open
          ? `Waiting for ${open === 1 ? "one more player" : `${open} more players`} · ${people} of ${room.seats.length} seats taken by people`
          : "Every seat is filled."),
        this.connected ? null : h("p", { class: "connection", role: "status" }, h("strong", {}, "Connection lost."), " Reconnecting…"),
        this.inviteCard(),
        this.seatList(),
        room.settings?.spectators !== false
          ? h("p", { class: "room-watchers" }, room.spectators ? `${room.spectators} watching.` : "Nobody is watching yet.")
          : null,
        this.settingsCard(),
        this.buttons()),
    );
    if (focused) this.root.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }

  inviteCard() {
    if (!this.invite) return null;
    const address = inviteAddress(this.invite);
    const link = h("code", { class: "invite-url", id: "invite-link" }, address);
    const copy = h("button", {
      type: "button",
      class: "btn primary",
      id: "copy-invite",
      "aria-describedby": "invite-link",
      dataset: { focusKey: "copy" },
      onclick: async () => {
        const copied = await copyText(address, link);
        if (copied) {
          copy.textContent = "Copied";
          announce("Invite link copied.");
          setTimeout(() => { copy.textContent = "Copy link"; }, 2000);
        } else {
          alertMessage("The link could not be copied here: it is selected, copy it with your keyboard.", "info");
        }
      },
    }, "Copy link");
    const spectators = this.room.settings?.spectators !== false;
    return h("div", { class: "invite-card felt-card" },
      h("h3", {}, "Invite friends"),
      h("p", {}, `Send this link to the people you want to play with. Anyone with it can take a free seat${spectators ? " or watch" : ""}.`),
      h("div", { class: "invite-row" }, link, copy));
  }

  seatList() {
    const room = this.room;
    return h("div", { class: "room-seats-wrap" },
      h("h3", { id: "room-seats-title" }, "Seats"),
      h("ol", { class: "room-seats", "aria-labelledby": "room-seats-title" },
        room.seats.map((seat, i) => this.seatRow(seat, i))));
  }

  seatRow(seat, i) {
    const room = this.room;
    const mine = room.you?.seat === i;
    const who = [];
    const controls = [];
    if (seat.kind === "person") {
      who.push(h("span", { class: "room-name" }, seat.name), mine ? h("span", { class: "tag" }, "you") : null,
        seat.host ? h("span", { class: "tag host-tag" }, "host") : null);
      const presence = presenceOf(seat, performance.now());
      if (presence) who.push(presence.el);
      if (this.isHost && !mine) {
        controls.push(h("button", {
          type: "button", class: "btn small", dataset: { focusKey: `remove-${i}` },
          "aria-label": `Remove ${seat.name} from the table`,
          onclick: () => this.removePerson(i, seat.name),
        }, "Remove"));
      }
    } else if (seat.kind === "bot") {
      who.push(h("span", { class: "room-name" }, seat.name),
        h("span", { class: "room-kind" }, `computer player, ${LEVEL_WORDS[seat.level] ?? seat.level}`));
      if (this.isHost) {
        controls.push(h("button", {
          type: "button", class: "btn small", dataset: { focusKey: `open-${i}` },
          "aria-label": `Take ${seat.name} out: seat ${i + 1} opens for a person`,
          onclick: () => this.send({ type: "set_seat", seat: i, kind: "open" }),
        }, "Take out"));
      }
    } else {
      who.push(h("span", { class: "room-name open-seat" }, "Open seat"), h("span", { class: "room-kind" }, "waiting for a person"));
      if (!mine && room.you?.role) {
        // Sitting down is the main thing for someone without a seat; for someone seated, moving
        // is a side choice (the host's main one here is a computer player for the seat).
        const seated = room.you?.seat !== null && room.you?.seat !== undefined;
        controls.push(h("button", {
          type: "button", class: `btn small${seated ? "" : " primary"}`, dataset: { focusKey: `sit-${i}` },
          "aria-label": `Sit at seat ${i + 1}`,
          onclick: () => this.send({ type: "sit", seat: i, contribution: newContribution() }),
        }, room.you?.seat === null || room.you?.seat === undefined ? "Sit here" : "Move here"));
      }
      if (this.isHost) {
        const id = `room-level-${i}`;
        const level = this.levels.get(i) || options().difficulty || "normal";
        const select = h("select", { id, dataset: { focusKey: `level-${i}` } },
          LEVELS.map((l) => h("option", { value: l, selected: l === level }, LEVEL_WORDS[l] ?? l)));
        select.addEventListener("change", () => this.levels.set(i, select.value));
        controls.push(
          h("label", { class: "visually-hidden", for: id }, `Level of a computer player for seat ${i + 1}`),
          select,
          h("button", {
            type: "button", class: "btn small primary", dataset: { focusKey: `bot-${i}` },
            "aria-label": `Put a computer player at seat ${i + 1}`,
            onclick: () => this.send({ type: "set_seat", seat: i, kind: "bot", level: select.value }),
          }, "Add computer"),
        );
      }
    }
    return h("li", { class: `room-seat kind-${seat.kind}${mine ? " mine" : ""}`, dataset: { seat: String(i), kind: seat.kind } },
      h("span", { class: "room-seat-number" }, `Seat ${i + 1}`),
      h("span", { class: "room-who" }, who),
      controls.length ? h("span", { class: "room-controls" }, controls) : null);
  }

  settingsCard() {
    const rules = this.app.games.find((g) => g.name === this.room.game);
    return h("div", { class: "room-settings" },
      h("h3", {}, "Table settings"),
      h("dl", {}, settingsLines(this.room.settings).map(([term, text]) => [h("dt", {}, term), h("dd", {}, text)])),
      rules ? h("p", { class: "muted" }, `House rules: ${this.rulesSummary(rules)}.`) : null);
  }

  /** The rules that differ from the game's defaults, in the schema's words. */
  rulesSummary(game) {
    const rules = this.room.rules || {};
    const changed = [];
    for (const entry of game.rules_schema || []) {
      if (entry.name === "players" || !(entry.name in rules)) continue;
      if (JSON.stringify(rules[entry.name]) === JSON.stringify(entry.default)) continue;
      const value = rules[entry.name];
      let text = value;
      if (typeof value === "boolean") text = value ? "on" : "off";
      else if (value === null) text = "none";
      else if (entry.choices && entry.choice_labels) text = entry.choice_labels[entry.choices.indexOf(value)] ?? value;
      else if (typeof value === "object") text = "changed";
      changed.push(`${entry.label || entry.name}: ${text}`);
    }
    return changed.length ? listText(changed) : "standard";
  }

  buttons() {
    const room = this.room;
    const row = [];
    if (this.isHost) {
      const start = h("button", {
        type: "button", class: "btn primary", id: "start-shared", dataset: { focusKey: "start" },
        disabled: !room.can_start || !this.connected,
        "aria-describedby": "start-help",
        onclick: () => this.send({ type: "start" }),
      }, "Start the game");
      row.push(start);
      row.push(h("button", {
        type: "button", class: "btn", id: "lock-shared", dataset: { focusKey: "lock" },
        "aria-pressed": room.locked ? "true" : "false",
        disabled: !this.connected,
        onclick: () => this.send({ type: "lock", locked: !room.locked }),
      }, room.locked ? "Unlock the table" : "Lock the table"));
    } else if (room.you?.role === "player") {
      row.push(h("button", {
        type: "button", class: "btn", dataset: { focusKey: "watch" },
        onclick: () => this.send({ type: "watch" }),
      }, "Watch instead"));
    }
    row.push(h("button", { type: "button", class: "btn", dataset: { focusKey: "leave" }, onclick: () => this.leave() }, "Leave table"));
    const help = this.isHost
      ? (room.locked ? "The table is locked: nobody new can join, even with the link. " : "") + (room.can_start ? "Everyone is seated: start when you are ready." : "Start when every seat has a person or a computer player: add computer players to seats nobody will take.")
      : (room.you?.role === "spectator" ? "You are watching. Take a free seat to play." : "The host starts the game when every seat is filled.");
    return h("div", { class: "room-actions" },
      h("p", { class: "field-help", id: "start-help" }, help),
      h("div", { class: "btn-row" }, row));
  }

  async removePerson(seat, name) {
    const ok = await confirmPanel(
      `Remove ${name}?`,
      `${name} leaves the table and cannot join it again. The invite link changes: send the new one to anybody still to come. Their seat opens for someone else.`,
      `Remove ${name}`,
      "Keep them",
    );
    if (ok) this.send({ type: "remove", seat });
  }
}

export { LEVEL_WORDS };
