// The start screen: choose the game, the players and each computer player's level, and every
// house rule from the game's rules_schema (presets selectable), then open a table.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { gameModule } from "./games/index.js";
import { LEVELS, options } from "./options.js";
import { alertMessage } from "./panel.js";
import { fieldFor } from "./schema_form.js";

// Options that only guard against endless games; shown folded away.
const SAFEGUARD = /(_cap$|^exhaustion_circuits$)/;

function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

function defaultsOf(game) {
  const values = {};
  for (const entry of game.rules_schema) values[entry.name] = clone(entry.default);
  return values;
}

/**
 * The start screen controller. `app` provides games, the chosen setup kept across visits,
 * and `openTable(id)`.
 */
export class StartScreen {
  constructor(app) {
    this.app = app;
    const remembered = app.setup;
    this.gameName = remembered?.game ?? app.games[0].name;
    this.values = remembered?.rules ? clone(remembered.rules) : null;
    this.valuesGame = remembered?.rules ? this.gameName : null;
    this.levels = remembered?.levels ? [...remembered.levels] : [];
    this.preset = remembered?.preset ?? "default";
    this.root = null;
  }

  get game() {
    return this.app.games.find((g) => g.name === this.gameName);
  }

  ensureValues() {
    if (!this.values || this.valuesGame !== this.gameName) {
      const preset = this.game.presets?.default;
      this.values = { ...defaultsOf(this.game), ...(preset ? clone(preset) : {}) };
      this.valuesGame = this.gameName;
      this.preset = "default";
    }
    const module = gameModule(this.gameName);
    const players = this.values.players ?? this.game.min_players;
    const top = module.maxPlayers ? module.maxPlayers(this.values, this.game) : this.game.max_players;
    this.values.players = Math.min(Math.max(players, this.game.min_players), top);
    const level = options().difficulty || "normal";
    while (this.levels.length < this.values.players - 1) this.levels.push(level);
    this.levels.length = this.values.players - 1;
  }

  mount(root) {
    this.root = root;
    this.render();
  }

  render(focusSelector = null) {
    this.ensureValues();
    const game = this.game;
    const module = gameModule(game.name);
    const form = h("form", { class: "start-form", "aria-labelledby": "start-title" });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.start();
    });

    form.append(
      h("h2", { id: "start-title", class: "start-title" }, "New game"),
      this.resumeSection(),
      this.gameChooser(),
      h(
        "div",
        { class: "setup-grid" },
        this.playersSection(module),
        this.rulesSection(module),
      ),
      h(
        "div",
        { class: "start-actions" },
        h("button", { type: "submit", class: "btn primary big", id: "start-button" },
          `Deal ${game.title}`),
      ),
    );
    replaceChildren(this.root, h("section", { class: "start-screen felt" }, form));
    this.app.setTitle(game.title);
    if (focusSelector) this.root.querySelector(focusSelector)?.focus();
  }

  resumeSection() {
    const section = h("div", { class: "resume", hidden: true });
    api.tables().then(
      (tables) => {
        const open = (tables || []).filter((t) => !t.finished);
        if (!open.length) return;
        section.hidden = false;
        replaceChildren(
          section,
          h("h3", {}, "Games in progress"),
          h(
            "ul",
            { class: "resume-list" },
            open.map((t) => {
              const title = t.title ?? this.app.games.find((g) => g.name === t.game)?.title ?? t.game;
              const others = (t.seats || []).filter((seat) => seat.kind === "bot").map((seat) => seat.name);
              return h(
                "li",
                {},
                h("span", {}, title,
                  h("span", { class: "muted" }, ` · with ${others.join(", ") || "others"} · ${t.version ?? 0} moves`)),
                h(
                  "button",
                  { type: "button", class: "btn small", onclick: () => this.app.openTable(t.table_id) },
                  `Resume ${title}`,
                ),
              );
            }),
          ),
        );
      },
      () => {},
    );
    return section;
  }

  gameChooser() {
    const tiles = this.app.games.map((game) => {
      const module = gameModule(game.name);
      const id = `game-${game.name}`;
      const input = h("input", {
        type: "radio",
        name: "game",
        id,
        value: game.name,
        checked: game.name === this.gameName,
      });
      input.addEventListener("change", () => {
        this.gameName = game.name;
        this.values = null;
        this.levels = [];
        this.render(`#${id}`);
      });
      return h(
        "label",
        { class: "game-tile", for: id },
        input,
        h("span", { class: "game-tile-fan", "aria-hidden": "true" }, module.tileCards()),
        h("span", { class: "game-tile-title" }, game.title),
        h("span", { class: "game-tile-meta" }, `${game.min_players}–${game.max_players} players · ${module.blurb}`),
      );
    });
    return h(
      "fieldset",
      { class: "game-chooser" },
      h("legend", {}, "Game"),
      h("div", { class: "tiles" }, tiles),
    );
  }

  playersSection(module) {
    const game = this.game;
    const top = module.maxPlayers ? module.maxPlayers(this.values, game) : game.max_players;
    const playersSelect = h(
      "select",
      { id: "players", name: "players" },
      Array.from({ length: top - game.min_players + 1 }, (_, i) => game.min_players + i).map((n) =>
        h("option", { value: n, selected: n === this.values.players }, `${n} players`),
      ),
    );
    playersSelect.addEventListener("change", () => {
      this.values.players = Number(playersSelect.value);
      if (module.onPlayersChange) module.onPlayersChange(this.values);
      this.render("#players");
    });

    const levels = game.bot_levels?.length ? game.bot_levels : LEVELS;
    const allSelect = h(
      "select",
      { id: "level-all" },
      h("option", { value: "" }, "—"),
      levels.map((level) => h("option", { value: level }, level)),
    );
    const uniform = this.levels.every((l) => l === this.levels[0]);
    if (uniform && this.levels.length) allSelect.value = this.levels[0];
    allSelect.addEventListener("change", () => {
      if (!allSelect.value) return;
      this.levels = this.levels.map(() => allSelect.value);
      this.render("#level-all");
    });

    const seatRows = this.levels.map((level, i) => {
      const id = `level-seat-${i + 1}`;
      const select = h(
        "select",
        { id, dataset: { seat: i + 1 } },
        levels.map((l) => h("option", { value: l, selected: l === level }, l)),
      );
      select.addEventListener("change", () => {
        this.levels[i] = select.value;
        allSelect.value = this.levels.every((l) => l === select.value) ? select.value : "";
      });
      return h("div", { class: "seat-level-row" }, h("label", { for: id }, `Computer ${i + 1}`), select);
    });

    return h(
      "fieldset",
      { class: "setup-card players-card" },
      h("legend", {}, "Players"),
      h("div", { class: "field" }, h("label", { for: "players" }, "Number of players"), playersSelect,
        h("span", { class: "field-help" }, `You and ${this.values.players - 1} computer player${this.values.players > 2 ? "s" : ""}.`)),
      h(
        "div",
        { class: "field" },
        h("label", { for: "level-all" }, "All computer players"),
        allSelect,
        h("span", { class: "field-help" }, "Easy players make simpler choices; hard ones search ahead."),
      ),
      h("div", { class: "seat-levels" }, seatRows),
      module.setupExtras ? module.setupExtras(this.values, game, () => this.render()) : null,
    );
  }

  rulesSection(module) {
    const game = this.game;
    const presetNames = Object.keys(game.presets || {});
    const presetSelect = h(
      "select",
      { id: "preset", name: "preset" },
      presetNames.map((name) => h("option", { value: name, selected: name === this.preset }, name)),
      presetNames.includes(this.preset) ? null : h("option", { value: "custom", selected: true }, "custom"),
    );
    presetSelect.addEventListener("change", () => {
      const preset = game.presets[presetSelect.value];
      if (!preset) return;
      const players = this.values.players;
      const defaults = defaultsOf(game);
      this.values = { ...defaults, ...clone(preset) };
      this.valuesGame = this.gameName;
      // Keep the chosen number of players unless the preset is about it (six-player Paplu).
      if (preset.players === undefined || preset.players === defaults.players) this.values.players = players;
      this.preset = presetSelect.value;
      this.render("#preset");
    });

    const handled = new Set(["players", ...(module.setupHandles || [])]);
    const main = [];
    const safeguards = [];
    for (const entry of game.rules_schema) {
      if (handled.has(entry.name)) continue;
      const control = fieldFor(
        entry,
        () => this.values[entry.name],
        (value) => {
          this.values[entry.name] = value;
          this.preset = "custom";
          if (!presetSelect.querySelector("option[value=custom]")) {
            presetSelect.append(h("option", { value: "custom" }, "custom"));
          }
          presetSelect.value = "custom";
          if (module.onRuleChange && module.onRuleChange(entry.name, this.values)) {
            this.render(`[data-rule="${entry.name}"] input, [data-rule="${entry.name}"] select`);
          }
        },
      );
      (SAFEGUARD.test(entry.name) ? safeguards : main).push(control);
    }
    return h(
      "fieldset",
      { class: "setup-card rules-card", id: "house-rules" },
      h("legend", {}, "House rules"),
      h("div", { class: "field" }, h("label", { for: "preset" }, "Preset"), presetSelect,
        h("span", { class: "field-help" }, "A named set of house rules; change any setting below.")),
      main,
      safeguards.length
        ? h("details", { class: "safeguards" },
            h("summary", {}, "Safeguards against endless games"), safeguards)
        : null,
    );
  }

  async start() {
    const game = this.game;
    const rules = { ...this.values };
    const seats = [{ kind: "human" }, ...this.levels.map((level) => ({ kind: "bot", level }))];
    const button = this.root.querySelector("#start-button");
    button.disabled = true;
    try {
      const created = await api.createTable({ game: game.name, rules, seats });
      this.app.setup = { game: game.name, rules: this.values, levels: this.levels, preset: this.preset };
      this.app.openTable(created.table_id);
    } catch (error) {
      button.disabled = false;
      alertMessage(`Could not start the game: ${error.message}`);
    }
  }

  /** Bring the house rules into view (menu item on the start screen). */
  showHouseRules() {
    const section = this.root?.querySelector("#house-rules");
    section?.scrollIntoView({ behavior: "smooth", block: "start" });
    section?.querySelector("select, input")?.focus({ preventScroll: true });
  }
}
