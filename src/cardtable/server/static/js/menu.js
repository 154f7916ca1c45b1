// @ts-check
// The menu and the panels it opens: How to play (one page per game, scoring examples drawn as
// cards), Options, House rules, Start a new game? and Your Record (with export and import).

import { api } from "./api.js";
import { cardBack, cardRow } from "./cards.js";
import { h } from "./dom.js";
import { optionLabel, options, optionSchema, setOption } from "./options.js";
import { alertMessage, announce, closePanel, openPanel } from "./panel.js";
import { ruleSummaryRow } from "./schema_form.js";

export function setupMenu(app) {
  const button = document.getElementById("menu-button");
  const menu = document.getElementById("menu");
  const close = (refocus = false) => {
    menu.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (refocus) button.focus();
  };
  button.addEventListener("click", () => {
    const open = menu.hidden;
    menu.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) {
      const game = app.currentGame();
      menu.querySelector('[data-menu="how-to-play"]').textContent = game ? `How to play ${app.gameTitle(game)}` : "How to play";
      // Only a game in progress can be abandoned (the whole item goes, not just its button). A
      // table shared with people is never abandoned for them: the item leaves it instead (a
      // computer player takes the seat), as the table's own "Leave table" button does.
      const table = app.unfinishedTable();
      const abandon = menu.querySelector('[data-menu="abandon"]');
      abandon.closest("li").hidden = !table;
      abandon.textContent = !table?.people ? "Abandon this game" : table.people.spectator ? "Stop watching" : "Leave this table";
      menu.querySelector("button").focus();
    }
  });
  menu.addEventListener("keydown", (event) => {
    const items = [...menu.querySelectorAll("li:not([hidden]) > button")];
    const index = items.indexOf(document.activeElement);
    if (event.key === "Escape") {
      event.stopPropagation();
      close(true);
    } else if (event.key === "ArrowDown") {
      /** @type {HTMLElement} */ (items[(index + 1) % items.length]).focus();
      event.preventDefault();
    } else if (event.key === "ArrowUp") {
      /** @type {HTMLElement} */ (items[(index - 1 + items.length) % items.length]).focus();
      event.preventDefault();
    }
  });
  document.addEventListener("click", (event) => {
    if (!menu.hidden && !/** @type {Element} */ (event.target).closest(".menu-wrap")) close();
  });
  menu.addEventListener("click", (event) => {
    const item = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-menu]"));
    if (!item) return;
    // The focus goes back to the Menu button first: the panel the item opens returns it there
    // when it closes (the item itself is hidden with the menu).
    close(true);
    const which = item.dataset.menu;
    if (which === "how-to-play") showHowToPlay(app, app.currentGame());
    else if (which === "options") showOptions();
    else if (which === "house-rules") app.showHouseRules();
    else if (which === "new-game") app.confirmNewGame();
    else if (which === "abandon") app.confirmAbandon();
    else if (which === "record") showRecord(app);
  });
}

export async function showHowToPlay(app, gameName) {
  const game = gameName || app.games[0].name;
  const body = openPanel(`How to play ${app.gameTitle(game)}`, h("p", { class: "muted" }, "Loading…"), { wide: true, name: "how-to-play" });
  let rules;
  try {
    rules = await api.rules(game);
  } catch (error) {
    body.replaceChildren(h("p", {}, `The rules could not be loaded: ${error.message}`));
    return;
  }
  const otherGames = app.games.filter((g) => g.name !== game).map((g) =>
    h("button", { type: "button", class: "btn small", onclick: () => showHowToPlay(app, g.name) }, `How to play ${g.title}`));
  const sections = (rules.sections || []).map((section) =>
    h("section", { class: "rules-section" }, h("h3", {}, section.heading), h("div", { html: section.html })));
  const examples = (rules.examples || []).map((example) =>
    h("figure", { class: "rules-example" },
      cardRow(example.cards || [], { extraClass: "small", label: example.caption }),
      h("figcaption", {}, example.caption, example.score !== undefined && example.score !== null ? h("span", { class: "score" }, ` = ${example.score}`) : "")));
  // The page's sections come from the server, handling and the entertainment-only notice
  // included: nothing is added here, so nothing is said twice.
  body.replaceChildren(
    ...sections,
    examples.length ? h("section", { class: "rules-section" }, h("h3", {}, "Scoring examples"), examples) : "",
    h("div", { class: "btn-row" }, otherGames),
  );
}

export function showOptions() {
  const current = options();
  const rows = [];
  // One row per option the server declares: a switch for each on/off option, a list for each
  // choice. The computer players' level has one control, on the start page ("Computer
  // players"), and is not offered here a second time.
  for (const entry of optionSchema()) {
    if (entry.name === "difficulty") continue;
    const name = entry.name;
    const id = `option-${name}`;
    let control;
    if (entry.type === "bool") {
      control = h("input", { id, type: "checkbox", class: "switch", role: "switch", checked: Boolean(current[name]), "aria-describedby": `${id}-help` });
      control.addEventListener("change", () => save(name, control.checked, control));
    } else {
      control = h("select", { id, "aria-describedby": `${id}-help` },
        entry.choices.map((v, i) => h("option", { value: v, selected: current[name] === v }, entry.choice_labels?.[i] ?? v)));
      control.addEventListener("change", () => save(name, control.value, control));
    }
    rows.push(h("li", { dataset: { option: name } },
      h("label", { for: id }, entry.label),
      h("span", { class: "option-help", id: `${id}-help` }, entry.help),
      h("span", { class: "option-control" }, control)));
  }
  const preview = cardRow(["AS", "KH", "QD", "JC", "10D", "7C"], { extraClass: "option-preview", label: "Preview of the cards" });
  preview.append(cardBack({ name: "the back of a card" }));
  // The preview comes first and stays in sight at the top while the list scrolls under it: at
  // the panel's foot it covered the last row (Card back) until one scrolled.
  openPanel("Options", [h("div", { class: "preview-wrap" }, h("p", { class: "muted" }, "Preview"), preview), h("ul", { class: "option-list" }, rows)], { name: "options" });
}

async function save(name, value, control) {
  try {
    await setOption(name, value);
    announce(`${optionLabel(name)} ${typeof value === "boolean" ? (value ? "on" : "off") : value}.`);
  } catch (error) {
    alertMessage(`The option could not be saved: ${error.message}`);
    if (control.type === "checkbox") control.checked = !value;
  }
}

/** The table's rules, read-only, with changed ones marked; or the start screen's form. */
export function showTableRules(app, meta) {
  const game = app.games.find((g) => g.name === meta.game);
  const rules = meta.rules || {};
  const rows = (game?.rules_schema || []).map((entry) => ruleSummaryRow(entry, rules[entry.name]));
  const change = h("button", { type: "button", class: "btn primary", onclick: () => {
    closePanel();
    app.setup = { game: meta.game, rules, levels: null, preset: "custom" };
    app.showStart("#house-rules");
  } }, "Change them for a new game");
  openPanel(`House rules: ${app.gameTitle(meta.game)}`, [
    h("p", { class: "muted" }, "The rules this table plays by. Marked rows differ from the rule book."),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rule"), h("th", { scope: "col" }, "This table"), h("th", { scope: "col" }, "Default"))), h("tbody", {}, rows)),
    h("div", { class: "btn-row" }, change),
  ], { wide: true, name: "house-rules" });
}

const STAT_NAMES = {
  games_played: "Games played",
  games_won: "Games won",
  hands_played: "Hands played",
  hands_won: "Hands won",
  deals_played: "Deals played",
  deals_won: "Deals won",
  points_per_deal: "Points per deal (mean)",
  mean_points: "Points per deal (mean)",
  best: "Best",
  worst: "Worst",
  best_deal: "Best deal",
  worst_deal: "Worst deal",
  drops: "Drops",
  wrong_shows: "Wrong shows",
  stops: "Stops",
  forfeits: "Forfeits",
  matches_played: "Matches played",
  matches_won: "Matches won",
};

function statName(key) {
  return STAT_NAMES[key] || key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

function statValue(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "number" && !Number.isInteger(value)) return value.toFixed(1);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Per-game record objects from GET /api/record, whatever its outer shape. */
function recordGames(record) {
  if (Array.isArray(record)) return record.map((r) => [r.game, r]);
  if (record && Array.isArray(record.games)) return record.games.map((r) => [r.game, r]);
  if (record && typeof record === "object") {
    const inner = record.games && typeof record.games === "object" ? record.games : record;
    return Object.entries(inner).filter(([, v]) => v && typeof v === "object");
  }
  return [];
}

/** A game's record by format (Pool 101, Deals…), one row each: every game of that format played
 * here, against computer players and with friends together; null for a game without formats. */
function formatTable(stats, deal, word) {
  const rows = Array.isArray(stats.formats) ? stats.formats : [];
  if (!rows.length) return null;
  const Deal = deal.charAt(0).toUpperCase() + deal.slice(1);
  const Word = word.charAt(0).toUpperCase() + word.slice(1);
  const columns = [
    ["games_played", "Games"], ["games_won", "Won"],
    ["deals_played", `${Deal}s`], ["points_per_deal", `${Word} per ${deal}`],
  ];
  return h("div", { class: "record-formats", dataset: { formats: "true" } },
    h("h4", {}, "By format (with computer players and friends)"),
    h("table", { class: "record-format-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Format"),
        columns.map(([, text]) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, rows.map((row) => h("tr", { dataset: { format: row.format } },
        h("th", { scope: "row" }, row.title),
        columns.map(([key]) => h("td", { dataset: { stat: key } }, statValue(row[key]))))))));
}

/** Your Record; `notice` ({kind: "ok" | "error", text}) is shown at its top (an import's outcome). */
export async function showRecord(app, notice = null) {
  const body = openPanel("Your Record", h("p", { class: "muted" }, "Loading…"), { wide: true, name: "record" });
  let record;
  try {
    record = await api.record();
  } catch (error) {
    body.replaceChildren(h("p", {}, `Your record could not be loaded: ${error.message}`));
    return;
  }
  const games = recordGames(record);
  const grid = (rows) => h("div", { class: "record-grid" }, rows.map(([key, text, value]) =>
    h("div", { class: "record-stat", dataset: { stat: key } },
      h("span", { class: "value" }, statValue(value)), h("span", { class: "name" }, text))));
  const statRows = (stats, deal, word = "points") => {
    const Deal = deal.charAt(0).toUpperCase() + deal.slice(1);
    const rows = [];
    const add = (key, text) => {
      if (key in stats) rows.push([key, text, stats[key]]);
    };
    add("games_played", "Games played");
    add("games_won", "Games won");
    if (deal !== "game") {
      add("deals_played", `${Deal}s played`);
      add("deals_won", `${Deal}s won`);
    }
    if (stats.matches_played) add("matches_played", "Matches played");
    // In the game's own word: Declaration Rummy's rules speak of a hand's count, not points.
    add("points_per_deal", `${word.charAt(0).toUpperCase()}${word.slice(1)} per ${deal} (mean)`);
    add("best", `Best ${deal}`);
    add("worst", `Worst ${deal}`);
    for (const extra of stats.extras || []) rows.push([extra.key, extra.label, extra.value]);
    if (!rows.length) {
      for (const [key, value] of Object.entries(stats)) {
        if (typeof value !== "object" || value === null) rows.push([key, statName(key), value]);
      }
    }
    return rows;
  };
  const sections = games.map(([name, stats]) => {
    const deal = stats.deal_word || "deal";
    const word = stats.points_word || "points";
    // Results imported from an exported record are shown apart and never added to these.
    const imported = stats.imported && typeof stats.imported === "object"
      ? h("div", { class: "record-imported", dataset: { imported: "true" } },
        h("h4", {}, "Imported from an exported record (not counted above)"),
        grid(statRows(stats.imported, deal, word)))
      : null;
    // Games at tables shared with other people are counted apart from games against the
    // computer players, with how often a computer player moved for the person.
    const shared = stats.shared && typeof stats.shared === "object"
      ? h("div", { class: "record-shared", dataset: { shared: "true" } },
        h("h4", {}, "With friends (not counted above)"),
        grid(statRows(stats.shared, deal, word)),
        h("p", { class: "record-assisted" }, assistedText(stats.shared, deal)))
      : null;
    return h("section", { class: "record-game", dataset: { game: name } },
      h("h3", {}, stats.title || app.gameTitle(name),
        stats.points_are ? h("span", { class: "muted" }, ` · ${pointsAre(word, stats.points_are)}`) : ""),
      h("p", { class: "record-kind" }, "Against computer players"),
      grid(statRows(stats, deal, word)),
      shared,
      formatTable(stats, deal, word),
      imported);
  });
  const exportButton = h("button", { type: "button", class: "btn", onclick: () => exportRecord() }, "Export record");
  const file = h("input", { type: "file", accept: "application/json,.json", id: "import-file", class: "visually-hidden", tabindex: "-1", "aria-label": "Record file to import" });
  const importButton = h("button", { type: "button", class: "btn", onclick: () => file.click() }, "Import record");
  // The outcome of an import is said inside this panel (a toast would sit under the dialog),
  // beside the button that started it, where the eyes are.
  const status = h("p", { class: `record-status${notice ? ` ${notice.kind}` : ""}`, role: notice?.kind === "error" ? "alert" : "status", hidden: !notice }, notice?.text ?? "");
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    // Cleared at once, so that choosing the same file again is a new choice.
    file.value = "";
    if (!chosen) return;
    let doc;
    try {
      doc = JSON.parse(await chosen.text());
    } catch {
      showStatus(status, "error", notARecord(chosen.name));
      return;
    }
    // Said in plain words here rather than as the server's field names ("format is missing").
    if (!doc || typeof doc !== "object" || doc.format !== "cardtable-profile") {
      showStatus(status, "error", doc?.format === "cardtable-record"
        ? `${chosen.name} could not be imported: it is the record of one game (for replays), not your exported record.`
        : notARecord(chosen.name));
      return;
    }
    try {
      await api.importProfile(doc);
    } catch (error) {
      showStatus(status, "error", `${chosen.name} could not be imported: this cardtable record is damaged or from another version (${error.message}).`);
      return;
    }
    announce("Record imported.");
    showRecord(app, { kind: "ok", text: `Record imported from ${chosen.name}.` });
  });
  const finished = h("section", { class: "record-finished" });
  body.replaceChildren(
    sections.length ? h("div", { class: "record" }, sections) : h("p", {}, "No games finished yet."),
    h("div", { class: "record-actions" }, exportButton, importButton, file, status),
    h("p", { class: "muted" }, "Your record is kept on this server for this browser. Export it to keep a copy or move it to another browser."),
    finished,
  );
  listFinishedGames(app, finished);
  if (notice) requestAnimationFrame(() => status.scrollIntoView({ block: "nearest" }));
}

/** How many of the shared tables' games and deals a computer player moved in for the person. */
function assistedText(shared, deal) {
  const games = shared.assisted_games || 0;
  const deals = shared.assisted_deals || 0;
  if (!games && !deals) return "You made every move yourself.";
  const gameWords = `${games} ${games === 1 ? "game" : "games"}`;
  const dealWords = deal === "game" ? "" : ` (${deals} ${deals === 1 ? deal : `${deal}s`})`;
  return `A computer player moved for you in ${gameWords}${dealWords}: a turn ran out, you were away or you left.`;
}

/** Your finished games, each with a link to its replay and analysis. */
async function listFinishedGames(app, into) {
  let games = [];
  try {
    games = await api.finishedGames();
  } catch {
    return;
  }
  if (!games.length) return;
  into.replaceChildren(h("h3", {}, "Replays of your finished games"),
    h("ul", { class: "record-replays" }, games.map((game) => h("li", {},
      h("button", { type: "button", class: "link-button", dataset: { table: game.table_id },
        onclick: () => { closePanel(); app.openReplay(game.table_id); } }, `${game.title}: ${game.summary ?? "finished"}`),
      game.shared ? h("span", { class: "record-mark" }, " · with friends") : null,
      game.assisted ? h("span", { class: "record-mark", dataset: { assisted: "true" } }, " · a computer player moved for you") : null))));
}

function showStatus(status, kind, text) {
  status.className = `record-status ${kind}`;
  status.setAttribute("role", kind === "error" ? "alert" : "status");
  status.textContent = text;
  status.hidden = false;
  status.scrollIntoView({ block: "nearest" });
}

function notARecord(fileName) {
  return `${fileName} could not be imported: this file isn't a cardtable record. Choose a file made by Export record.`;
}

/** "points are good", "a lower count is better": how to read the game's scores. */
function pointsAre(word, goodOrBad) {
  if (word === "points") return `points are ${goodOrBad}`;
  return `a ${goodOrBad === "good" ? "higher" : "lower"} ${word} is better`;
}

async function exportRecord() {
  try {
    const doc = await api.exportProfile();
    const blob = new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = h("a", { href: url, download: "cardtable-record.json" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (error) {
    alertMessage(`The record could not be exported: ${error.message}`);
  }
}
