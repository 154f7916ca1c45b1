// @ts-check
// The start screen: the three games as large tiles with "Play" on each (one click, with that
// game's last-used or default settings), the number of players and the computer level as two
// compact controls, and every house rule from the game's rules_schema behind a "House rules"
// disclosure, grouped, with presets.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { createFriendsTable } from "./friends_table.js";
import { gameModule } from "./games/index.js";
import { LEVELS, options, setOption } from "./options.js";
import { alertMessage, announce, confirmPanel } from "./panel.js";
import { fieldFor } from "./schema_form.js";

const LEVEL_WORDS = { random: "Random", easy: "Easy", normal: "Normal", hard: "Hard" };

const SETUP_KEY = (game) => `cardtable.setup.${game}`;
const LAST_GAME_KEY = "cardtable.last-game";
const RULES_OPEN_KEY = "cardtable.house-rules-open";

function remembered(game) {
  try {
    return JSON.parse(localStorage.getItem(SETUP_KEY(game)) || "null");
  } catch {
    return null;
  }
}

function remember(key, value) {
  try {
    localStorage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
  } catch {
    // Storage full or disabled: the settings are simply not kept for the next visit.
  }
}

/** "last move at 21:05" from an ISO time (the viewer's clock), "" without one. */
function lastMoveText(iso) {
  const at = iso ? new Date(iso) : null;
  if (!at || Number.isNaN(at.getTime())) return "";
  const two = (n) => String(n).padStart(2, "0");
  return `last move at ${two(at.getHours())}:${two(at.getMinutes())}`;
}

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
    const names = app.games.map((g) => g.name);
    const last = app.setup?.game ?? localStorage.getItem(LAST_GAME_KEY);
    this.gameName = names.includes(last) ? last : app.games[0].name;
    this.load(this.gameName);
    // Coming from a table's "Change them for a new game": its rules, with the form open.
    if (app.setup?.rules && app.setup.game === this.gameName) {
      this.values = clone(app.setup.rules);
      this.valuesGame = this.gameName;
      this.levels = app.setup.levels ? [...app.setup.levels] : [];
      this.preset = app.setup.preset ?? "custom";
      this.openRules = app.setup.preset === "custom";
    }
    this.root = null;
  }

  /** Take a game's last-used settings (kept in this browser), or its defaults. */
  load(name) {
    const saved = remembered(name);
    this.gameName = name;
    this.values = saved?.rules ? clone(saved.rules) : null;
    this.valuesGame = saved?.rules ? name : null;
    // One level for every computer player is the one "Computer players" choice, kept in the
    // profile for every game; only seats set one by one are remembered per game.
    const mixed = saved?.levels?.some((level) => level !== saved.levels[0]);
    this.levels = mixed ? [...saved.levels] : [];
    this.preset = saved?.preset ?? "default";
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
    const rulesOpen = this.openRules || localStorage.getItem(RULES_OPEN_KEY) === "open";
    const rules = h("details", { class: "house-rules", id: "house-rules", open: rulesOpen },
      h("summary", {}, h("span", {}, `House rules for ${game.title}`), this.changedNote()),
      h("div", { class: "setup-grid" }, this.seatsSection(module), this.rulesSection(module)));
    rules.addEventListener("toggle", () => remember(RULES_OPEN_KEY, rules.open ? "open" : "closed"));

    form.append(
      h("div", { class: "start-head" },
        h("h2", { id: "start-title", class: "start-title" }, "Choose a game"),
        this.friendsEntry()),
      this.resumeSection(),
      this.gameChooser(),
      this.quickSetup(module),
      rules,
    );
    replaceChildren(this.root, h("section", { class: "start-screen" }, form));
    // No game is named in the header before one is chosen.
    this.app.setTitle("");
    if (focusSelector) this.root.querySelector(focusSelector)?.focus();
  }

  /** "· 2 changed" after the disclosure's title when house rules differ from the defaults. */
  changedNote() {
    const defaults = defaultsOf(this.game);
    const changed = Object.keys(defaults).filter((name) => name !== "players"
      && JSON.stringify(defaults[name]) !== JSON.stringify(this.values[name])).length;
    return changed ? h("span", { class: "changed-count" }, ` · ${changed} changed`) : null;
  }

  /** Where a game in progress stands: "Hand 4 · You 20 – Ruby 43" (from the listing's summary). */
  progressText(t, others) {
    const word = this.app.games.find((g) => g.name === t.game)?.deal_word || "deal";
    const seats = t.seats || [];
    if (!Array.isArray(t.scores) || !t.deal) return `with ${others.join(", ") || "others"}`;
    const names = t.scores.map((_, seat) => (seat === t.your_seat ? "You" : seats[seat]?.name || `Player ${seat + 1}`));
    const scores = t.scores.map((score, seat) => `${names[seat]} ${score ?? "–"}`).join(" – ");
    return `${word.charAt(0).toUpperCase()}${word.slice(1)} ${t.deal} · ${scores}`;
  }

  resumeSection() {
    const section = h("div", { class: "resume", hidden: true });
    api.tables().then(
      (tables) => this.fillResume(section, (tables || []).filter((t) => !t.finished)),
      () => {},
    );
    return section;
  }

  /** "Games in progress": each with Resume and, for a game against computers, Abandon; every
   * button's name says which game it is (title, where it stands and its last move). */
  fillResume(section, open) {
    section.hidden = !open.length;
    if (!open.length) {
      replaceChildren(section);
      return;
    }
    const entries = open.map((t) => {
      const title = t.title ?? this.app.games.find((g) => g.name === t.game)?.title ?? t.game;
      // At a table shared with people, the others are people too, not only computers.
      const others = (t.seats || [])
        .filter((seat) => (t.shared ? seat.seat !== t.your_seat && seat.name : seat.kind === "bot"))
        .map((seat) => seat.name);
      // A named format (Pool 101) leads where the game stands: the game reads as it started.
      const progress = [t.format, this.progressText(t, others)].filter(Boolean).join(" · ");
      const when = lastMoveText(t.updated_at);
      return { t, title, progress, name: `${title}${t.shared ? " with friends" : ""}, ${progress}${when ? `, ${when}` : ""}` };
    });
    // Two games alike in every word are told apart by their place in the list.
    const counts = new Map();
    for (const entry of entries) counts.set(entry.name, (counts.get(entry.name) || 0) + 1);
    const seen = new Map();
    for (const entry of entries) {
      if (counts.get(entry.name) > 1) {
        seen.set(entry.name, (seen.get(entry.name) || 0) + 1);
        entry.name = `${entry.name} (${seen.get(entry.name)} of ${counts.get(entry.name)})`;
      }
    }
    replaceChildren(
      section,
      h("h3", {}, "Games in progress"),
      h("ul", { class: "resume-list" }, entries.map(({ t, title, progress, name }) => h(
        "li",
        { dataset: { table: t.table_id } },
        h("span", {}, title, t.shared ? " with friends" : "", h("span", { class: "muted" }, ` · ${progress}`)),
        h("span", { class: "resume-buttons" },
          h("button", {
            type: "button",
            class: "btn small",
            "aria-label": `Resume ${name}`,
            onclick: () => this.app.openTable(t.table_id),
          }, `Resume ${title}`),
          // A table shared with people is left from the table itself (a computer takes the seat).
          t.shared ? null : h("button", {
            type: "button",
            class: "btn small ghost abandon-button",
            "aria-label": `Abandon ${name}`,
            onclick: () => this.abandon(section, t, title, open),
          }, "Abandon")),
      ))),
    );
  }

  /** Abandon a game from the list (asked first): it ends unfinished and leaves the list. */
  async abandon(section, table, title, open) {
    const ok = await confirmPanel(
      `Abandon this ${title} game?`,
      "The game ends now, unfinished, and cannot be resumed.",
      "Abandon the game",
      "Keep it",
    );
    if (!ok) return;
    try {
      await api.leaveTable(table.table_id);
    } catch (error) {
      alertMessage(`The game could not be abandoned: ${error.message}`);
      return;
    }
    announce(`The ${title} game was abandoned.`);
    this.fillResume(section, open.filter((t) => t.table_id !== table.table_id));
    section.querySelector("button")?.focus();
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
      input.addEventListener("change", () => this.choose(game.name, `#${id}`));
      const play = h("button", {
        type: "button",
        class: "btn primary play-button",
        dataset: { play: game.name },
        // Not the same name as the form's own "Play …" button below, which uses the form.
        "aria-label": `Play ${game.title} now`,
        onclick: () => this.play(game.name),
      }, "Play");
      // A game's named formats (Indian Rummy's Pool 101) start in one click too: against
      // computer players, or at a table for friends (its waiting room, with the invite).
      const quick = (module.quickStarts ? module.quickStarts(game) : []).flatMap((q) => [
        h("button", {
          type: "button",
          class: "btn small play-button quick-start",
          dataset: { quick: game.name, preset: q.preset },
          "aria-label": `Play ${game.title}, ${q.label} against computer players`,
          onclick: () => this.playPreset(game.name, q.preset, q.players),
        }, h("span", { class: "quick-long" }, q.label), h("span", { class: "quick-short", "aria-hidden": "true" }, q.short ?? q.label)),
        h("button", {
          type: "button",
          class: "btn small play-button quick-friends",
          dataset: { quickFriends: game.name, preset: q.preset },
          "aria-label": `Play ${game.title}, ${q.label} with friends`,
          onclick: () => this.playPresetWithFriends(game.name, q),
        }, h("span", { class: "quick-long" }, `${q.short ?? q.label} with friends`), h("span", { class: "quick-short", "aria-hidden": "true" }, `${q.short ?? q.label} · friends`)),
      ]);
      const format = game.name === this.gameName && this.values && module.formatLabel ? module.formatLabel(this.values) : null;
      return h(
        "div",
        { class: `game-tile${game.name === this.gameName ? " chosen" : ""}` },
        h("label", { class: "game-tile-pick", for: id },
          input,
          h("span", { class: "game-tile-fan", "aria-hidden": "true" }, module.tileCards()),
          h("span", { class: "game-tile-text" },
            h("span", { class: "game-tile-title" }, game.title),
            h("span", { class: "game-tile-meta" }, format ?? `${game.min_players}–${this.tileTop(game, module)} players`,
              h("span", { class: "game-tile-blurb" }, ` · ${module.blurb}`)))),
        play,
        quick.length ? h("div", { class: "quick-starts" }, quick) : null,
      );
    });
    return h(
      "fieldset",
      { class: "game-chooser" },
      h("legend", { class: "visually-hidden" }, "Game"),
      h("div", { class: "tiles" }, tiles),
    );
  }

  /** The most players a tile promises: what its Players choice offers with the rules it would
   * use (Indian Rummy's 5 and 6 need a house rule). */
  tileTop(game, module) {
    if (!module.maxPlayers) return game.max_players;
    const values = game.name === this.gameName ? this.values : (remembered(game.name)?.rules ?? defaultsOf(game));
    return module.maxPlayers(values, game);
  }

  /** Playing with people: set up a shared table (public tables are listed from there). */
  friendsEntry() {
    return h("a", { href: "#/friends", class: "btn small ghost", id: "play-with-friends" }, "Play with friends");
  }

  /** Show another game's settings (its last-used ones, or the defaults). */
  choose(name, focusSelector = null) {
    if (name !== this.gameName) this.load(name);
    this.render(focusSelector);
  }

  /** A tile's Play: that game with its last-used or default settings, in one click. */
  play(name) {
    if (name !== this.gameName) {
      this.load(name);
      this.ensureValues();
    }
    this.start();
  }

  /** A tile's format button: that game from one of its presets with `players` seats. */
  playPreset(name, presetName, players) {
    this.load(name);
    const preset = this.game.presets?.[presetName];
    if (!preset) return;
    this.values = { ...defaultsOf(this.game), ...clone(preset), players };
    this.valuesGame = name;
    this.preset = presetName;
    this.ensureValues();
    this.start();
  }

  /** A tile's format button for friends: a shared table of that preset with `q.players` seats,
   * each open for a person; its waiting room shows the invite. */
  async playPresetWithFriends(name, q) {
    const game = this.app.games.find((g) => g.name === name);
    const preset = game?.presets?.[q.preset];
    if (!preset) return;
    const rules = { ...defaultsOf(game), ...clone(preset) };
    const buttons = [...this.root.querySelectorAll("#start-button, .play-button")];
    for (const button of buttons) button.disabled = true;
    const created = await createFriendsTable(this.app, { game: name, rules, players: q.players, title: `${game.title}: ${q.short ?? q.label} with friends` });
    if (!created) for (const button of buttons) button.disabled = false;
  }

  /** The two compact controls: how many play, and how well the computer players play. */
  quickSetup(module) {
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
      if (module.onPlayersChange) module.onPlayersChange(this.values, game);
      this.render("#players");
    });

    const levels = this.levelChoices();
    const uniform = this.levels.every((l) => l === this.levels[0]);
    const allSelect = h(
      "select",
      { id: "level-all" },
      uniform ? null : h("option", { value: "", selected: true }, "Mixed"),
      levels.map((level) => h("option", { value: level, selected: uniform && level === this.levels[0] }, LEVEL_WORDS[level] ?? level)),
    );
    allSelect.addEventListener("change", () => {
      if (!allSelect.value) return;
      const level = allSelect.value;
      this.levels = this.levels.map(() => level);
      this.render("#level-all");
      // The one control for the computer players' level: kept in the profile, so that every
      // game's form and every new table (a friends' table's "Add computer" too) uses it.
      if (options().difficulty !== level) {
        setOption("difficulty", level).catch((error) => alertMessage(`The level could not be kept: ${error.message}`));
      }
    });
    return h(
      "div",
      { class: "quick-setup" },
      h("span", { class: "quick-game" }, game.title),
      h("div", { class: "quick-field" }, h("label", { for: "players" }, "Players"), playersSelect),
      h("div", { class: "quick-field" }, h("label", { for: "level-all" }, "Computer players"), allSelect),
      h("button", { type: "submit", class: "btn primary", id: "start-button" }, `Play ${game.title}`),
    );
  }

  levelChoices() {
    return this.game.bot_levels?.length ? this.game.bot_levels : LEVELS;
  }

  /** Each computer player's level, and the game's own setup (cards dealt, optional cards …). */
  seatsSection(module) {
    const levels = this.levelChoices();
    const seatRows = this.levels.map((level, i) => {
      const id = `level-seat-${i + 1}`;
      const select = h(
        "select",
        { id, dataset: { seat: i + 1 } },
        levels.map((l) => h("option", { value: l, selected: l === level }, LEVEL_WORDS[l] ?? l)),
      );
      select.addEventListener("change", () => {
        this.levels[i] = select.value;
        this.render(`#${id}`);
      });
      return h("div", { class: "seat-level-row" }, h("label", { for: id }, `Computer ${i + 1}`), select);
    });
    return h(
      "fieldset",
      { class: "setup-card players-card" },
      h("legend", {}, "Players"),
      h("div", { class: "seat-levels" }, seatRows),
      h("p", { class: "field-help" }, "Easy players make simpler choices; hard ones look ahead."),
      module.setupExtras ? module.setupExtras(this.values, this.game, () => this.render()) : null,
    );
  }

  rulesSection(module) {
    const game = this.game;
    const presetNames = Object.keys(game.presets || {});
    const presetWords = (name) => (name === "default" ? "Standard rules" : name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, " "));
    const presetSelect = h(
      "select",
      { id: "preset", name: "preset" },
      presetNames.map((name) => h("option", { value: name, selected: name === this.preset }, presetWords(name))),
      presetNames.includes(this.preset) ? null : h("option", { value: "custom", selected: true }, "Your own rules"),
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
    // The groups and each option's group come from the server's rule declarations.
    const groups = game.rule_groups || [];
    const grouped = new Map(groups.map((group) => [group.name, []]));
    for (const entry of game.rules_schema) {
      if (handled.has(entry.name)) continue;
      const control = fieldFor(
        entry,
        () => this.values[entry.name],
        (value) => {
          this.values[entry.name] = value;
          this.preset = "custom";
          if (!presetSelect.querySelector("option[value=custom]")) {
            presetSelect.append(h("option", { value: "custom" }, "Your own rules"));
          }
          presetSelect.value = "custom";
          if (module.onRuleChange && module.onRuleChange(entry.name, this.values)) {
            this.render(`[data-rule="${entry.name}"] input, [data-rule="${entry.name}"] select`);
          }
        },
      );
      if (!grouped.has(entry.group)) grouped.set(entry.group, []);
      grouped.get(entry.group).push(control);
    }
    const titled = (name) => groups.find((group) => group.name === name) ?? { name, title: name, folded: false };
    const shown = [...grouped].filter(([, controls]) => controls.length).map(([name, controls]) => [titled(name), controls]);
    return h(
      "fieldset",
      { class: "setup-card rules-card" },
      h("legend", {}, "Rules"),
      h("div", { class: "field" }, h("label", { for: "preset" }, "Start from"), presetSelect,
        h("span", { class: "field-help" }, "A named set of house rules; change any of them below.")),
      shown.filter(([group]) => !group.folded).map(([group, controls]) =>
        h("div", { class: "rule-group", role: "group", "aria-label": group.title }, h("h3", { class: "rule-group-title" }, group.title), controls)),
      shown.filter(([group]) => group.folded).map(([group, controls]) =>
        h("details", { class: "safeguards" }, h("summary", {}, group.title), controls)),
    );
  }

  async start() {
    const game = this.game;
    const rules = { ...this.values };
    const seats = [{ kind: "human" }, ...this.levels.map((level) => ({ kind: "bot", level }))];
    const buttons = [...this.root.querySelectorAll("#start-button, .play-button")];
    for (const button of buttons) button.disabled = true;
    try {
      const created = await api.createTable({ game: game.name, rules, seats });
      this.app.setup = { game: game.name, rules: this.values, levels: this.levels, preset: this.preset };
      remember(SETUP_KEY(game.name), { rules: this.values, levels: this.levels, preset: this.preset });
      remember(LAST_GAME_KEY, game.name);
      this.app.openTable(created.table_id);
    } catch (error) {
      for (const button of buttons) button.disabled = false;
      alertMessage(`Could not start the game: ${error.message}`);
    }
  }

  /** Bring the house rules into view (menu item on the start screen). */
  showHouseRules() {
    const section = this.root?.querySelector("#house-rules");
    if (section) section.open = true;
    section?.scrollIntoView({ behavior: "smooth", block: "start" });
    section?.querySelector("select, input")?.focus({ preventScroll: true });
  }
}
