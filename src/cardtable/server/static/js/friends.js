// @ts-check
// "Play with friends": the host sets up a table for people. The game, the number of seats and,
// for each seat after the host's, whether it is open for a person or a computer player (with
// its level); public or private, spectators, a turn timer with a time bank, how long a dropped
// person's seat is kept; and the house rules, with the same form as the start screen. Creating
// the table opens its waiting room, where the invite link is.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { gameModule } from "./games/index.js";
import { alertMessage } from "./panel.js";
import { durationText } from "./presence.js";
import { BANK_CHOICES, GRACE_CHOICES, TURN_CHOICES, hostName, keepSettings, lastSettings, sharedSettings } from "./friends_table.js";
import { StartScreen } from "./start.js";

const LEVEL_WORDS = { random: "Random", easy: "Easy", normal: "Normal", hard: "Hard" };

export class FriendsSetup extends StartScreen {
  constructor(app) {
    super(app);
    this.settings = lastSettings();
    // Each seat after the host's: "open" (for a person) or a computer player's level.
    this.seatKinds = [];
    this.name = hostName(app);
  }

  ensureValues() {
    super.ensureValues();
    const count = this.values.players - 1;
    while (this.seatKinds.length < count) this.seatKinds.push("open");
    this.seatKinds.length = count;
  }

  render(focusSelector = null) {
    this.ensureValues();
    const game = this.game;
    const module = gameModule(game.name);
    const form = h("form", { class: "start-form friends-form", "aria-labelledby": "friends-title" });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.start();
    });
    const rules = h("details", { class: "house-rules", id: "house-rules", open: Boolean(this.openRules) },
      h("summary", {}, h("span", {}, `House rules for ${game.title}`), this.changedNote()),
      h("div", { class: "setup-grid" }, this.extrasSection(module), this.rulesSection(module)));
    rules.addEventListener("toggle", () => { this.openRules = rules.open; });
    form.append(
      h("div", { class: "friends-head" },
        h("h2", { id: "friends-title", class: "start-title" }, "Play with friends"),
        h("span", { class: "friends-links" },
          h("a", { href: "#/lobby", class: "btn small ghost", id: "public-tables" }, "Public tables"),
          h("a", { href: "#/", class: "btn small ghost back-link" }, "Back"))),
      h("p", { class: "friends-lead" }, "Set up a table, then send its invite link to the people you want to play with, or join someone else's from the public tables."),
      h("div", { class: "friends-grid" },
        h("div", { class: "friends-column" }, this.gamePicker(), this.nameField()),
        this.seatsCard(module),
        this.tableCard()),
      rules,
      h("div", { class: "start-actions" },
        h("button", { type: "submit", class: "btn primary", id: "create-shared" }, `Create the ${game.title} table`)),
    );
    replaceChildren(this.root, h("section", { class: "start-screen friends-screen" }, form));
    this.app.setTitle("");
    if (focusSelector) this.root.querySelector(focusSelector)?.focus();
  }

  gamePicker() {
    return h("fieldset", { class: "setup-card friends-games" },
      h("legend", {}, "Game"),
      this.app.games.map((game) => {
        const id = `friends-game-${game.name}`;
        const input = h("input", { type: "radio", name: "friends-game", id, value: game.name, checked: game.name === this.gameName });
        input.addEventListener("change", () => this.choose(game.name, `#${id}`));
        const module = gameModule(game.name);
        // A game's named formats (Indian Rummy's Pool 101) are set up in one click here too.
        const quick = (module.quickStarts ? module.quickStarts(game) : []).map((q) =>
          h("button", {
            type: "button",
            class: "btn small quick-format",
            dataset: { quick: game.name, preset: q.preset },
            "aria-label": `Set up ${game.title}, ${q.label}, for friends`,
            onclick: () => this.choosePreset(game.name, q.preset, q.players),
          }, q.label));
        return h("div", { class: "friends-game-row" },
          h("label", { class: "check friends-game", for: id }, input,
            h("span", {}, game.title, h("span", { class: "muted" }, ` · ${game.min_players}–${this.tileTop(game, module)} players`))),
          quick.length ? h("div", { class: "quick-starts" }, quick) : null);
      }));
  }

  /** A format button: the game from one of its presets with `players` seats, ready to create. */
  choosePreset(name, presetName, players) {
    this.load(name);
    const preset = this.game.presets?.[presetName];
    if (!preset) return;
    // From the game's defaults, as the start page's format button plays it.
    this.values = null;
    this.ensureValues();
    Object.assign(this.values, structuredClone(preset), { players });
    this.preset = presetName;
    this.render("#create-shared");
  }

  nameField() {
    const input = h("input", {
      id: "friends-name", name: "name", type: "text", required: true, maxlength: 40, autocomplete: "nickname",
      value: this.name, "aria-describedby": "friends-name-help",
    });
    input.addEventListener("input", () => { this.name = input.value; input.removeAttribute("aria-invalid"); });
    return h("div", { class: "setup-card field" },
      h("label", { for: "friends-name" }, "Your name at the table"),
      input,
      h("span", { class: "field-help", id: "friends-name-help" }, "The others see this name beside your seat."));
  }

  seatsCard(module) {
    const game = this.game;
    const top = module.maxPlayers ? module.maxPlayers(this.values, game) : game.max_players;
    const players = h("select", { id: "friends-players", name: "players" },
      Array.from({ length: top - game.min_players + 1 }, (_, i) => game.min_players + i).map((n) =>
        h("option", { value: n, selected: n === this.values.players }, `${n} seats`)));
    players.addEventListener("change", () => {
      this.values.players = Number(players.value);
      if (module.onPlayersChange) module.onPlayersChange(this.values, game);
      this.render("#friends-players");
    });
    const levels = this.levelChoices();
    const rows = this.seatKinds.map((kind, i) => {
      const id = `friends-seat-${i + 1}`;
      const select = h("select", { id, dataset: { seat: i + 1 } },
        h("option", { value: "open", selected: kind === "open" }, "Open for a person"),
        levels.map((level) => h("option", { value: level, selected: kind === level }, `Computer player: ${LEVEL_WORDS[level] ?? level}`)));
      select.addEventListener("change", () => { this.seatKinds[i] = select.value; });
      return h("div", { class: "seat-level-row" }, h("label", { for: id }, `Seat ${i + 2}`), select);
    });
    return h("fieldset", { class: "setup-card friends-seats" },
      h("legend", {}, "Seats"),
      h("div", { class: "quick-field" }, h("label", { for: "friends-players" }, "Seats at the table"), players),
      h("div", { class: "seat-levels" },
        h("div", { class: "seat-level-row" }, h("span", {}, "Seat 1"), h("span", { class: "host-seat" }, "You (host)")),
        rows),
      h("p", { class: "field-help" }, "In the waiting room you can still put a computer player on a seat nobody takes."));
  }

  tableCard() {
    const s = this.settings;
    const check = (key, id, text, help) => {
      const input = h("input", { type: "checkbox", id, checked: s[key], "aria-describedby": `${id}-help` });
      input.addEventListener("change", () => { s[key] = input.checked; });
      return h("div", { class: "field" }, h("label", { class: "check", for: id }, input, text),
        h("span", { class: "field-help", id: `${id}-help` }, help));
    };
    const choice = (key, id, label, values, words, help = null) => {
      const select = h("select", { id, "aria-describedby": help ? `${id}-help` : null },
        values.map((v) => h("option", { value: v === null ? "" : String(v), selected: v === s[key] }, words(v))));
      select.addEventListener("change", () => {
        s[key] = select.value === "" ? null : Number(select.value);
        if (key === "turn_seconds") this.render(`#${id}`);
      });
      return h("div", { class: "field" }, h("label", { for: id }, label), select,
        help ? h("span", { class: "field-help", id: `${id}-help` }, help) : null);
    };
    const bank = choice("bank_seconds", "friends-bank", "Time bank", BANK_CHOICES, (v) => (v ? durationText(v) : "None"),
      "Extra time each person may spend over the whole game once a turn's time is up.");
    if (!s.turn_seconds) bank.querySelector("select").disabled = true;
    return h("fieldset", { class: "setup-card friends-table" },
      h("legend", {}, "Table"),
      check("public", "friends-public", "List it among the public tables", "Anyone may then join from the list. Off: only people with the link."),
      check("spectators", "friends-spectators", "Let people watch", "The link also lets people watch, seeing only what every player sees."),
      choice("turn_seconds", "friends-timer", "Turn timer", TURN_CHOICES, (v) => (v ? `${durationText(v)} a turn` : "No timer"),
        "When time and bank run out, a Normal computer player makes that move."),
      bank,
      choice("grace_seconds", "friends-grace", "If someone drops, keep their seat for", GRACE_CHOICES, (v) => durationText(v),
        "After that a Normal computer player moves for them until they come back."));
  }

  /** The game's own setup (cards dealt, optional cards …), when it has one. */
  extrasSection(module) {
    if (!module.setupExtras) return h("div", {});
    return h("fieldset", { class: "setup-card players-card" },
      h("legend", {}, "Deal"),
      module.setupExtras(this.values, this.game, () => this.render()));
  }

  async start() {
    const game = this.game;
    const nameInput = this.root.querySelector("#friends-name");
    const name = this.name.trim();
    if (!name) {
      nameInput.setAttribute("aria-invalid", "true");
      nameInput.focus();
      alertMessage("Give the name the others will see at the table.");
      return;
    }
    const button = this.root.querySelector("#create-shared");
    button.disabled = true;
    try {
      if (name !== this.app.profile?.name) this.app.profile = await api.saveProfile({ name });
    } catch (error) {
      button.disabled = false;
      nameInput.setAttribute("aria-invalid", "true");
      nameInput.focus();
      alertMessage(`That name cannot be used: ${error.message}`);
      return;
    }
    const seats = [{ kind: "human" }, ...this.seatKinds.map((kind) => (kind === "open" ? { kind: "human" } : { kind: "bot", level: kind }))];
    try {
      const created = await api.createTable({ game: game.name, rules: { ...this.values }, seats, shared: sharedSettings(this.settings) });
      keepSettings(this.settings);
      this.app.openTable(created.table_id);
    } catch (error) {
      button.disabled = false;
      alertMessage(`Could not create the table: ${error.message}`);
    }
  }
}
