// @ts-check
// The table's views: each part of the table screen drawn from what the table knows (its state,
// its game module, the names of its seats) into the elements the table built. They read the
// table and never change its state; what a click does goes back through the table's methods
// (send, askHint, showSummary). A shared table's room adds to some of them (shared_table.js).

import { cardBack, cardElement, cardName, prettyCards, shortText } from "./cards.js";
import { h, replaceChildren } from "./dom.js";
import { flipUp } from "./animate.js";
import { nameSeats } from "./games/base.js";
import { options } from "./options.js";
import { renderCoachPanel } from "./coach_panel.js";

/** @typedef {import("./table.js").TableView} TableView */

/**
 * A seat's badge is a word, or `{ text, short }` with a short form for crowded phone seats.
 * @param {string | { text: string, short: string }} badge
 */
function badgeText(badge) {
  return typeof badge === "string" ? badge : badge.text;
}

/** @param {string | { text: string, short: string }} badge */
function badgeElement(badge) {
  if (typeof badge === "string") return h("span", { class: "badge" }, badge);
  // The seat's aria-label already names the badge in full; the short form is for the eye only.
  return h("span", { class: "badge", title: badge.text },
    h("span", { class: "badge-long" }, badge.text),
    h("span", { class: "badge-short", "aria-hidden": "true" }, badge.short));
}

/**
 * A prompt whose key letters ("draw from the stock (S)") show only while a keyboard is in use:
 * on a touch screen there is no S to press.
 * @param {string} text
 */
function withKeyHints(text) {
  return text.split(/( \([A-Z]\))/).filter(Boolean)
    .map((part) => (/^ \([A-Z]\)$/.test(part) ? h("span", { class: "key-hint" }, part) : part));
}

/**
 * The drawer's button names what it holds and shows a dot when the coach has news.
 * @param {TableView} table
 */
export function renderSideToggle(table) {
  const coachOn = options().coach;
  const open = table.el.table.classList.contains("side-open");
  const news = coachOn && table.coach && !open && table.coachSeen !== table.coach;
  replaceChildren(table.el.sideToggle, "Scores", coachOn ? h("span", { class: "long" }, " & coach") : null,
    news ? h("span", { class: "dot", "aria-hidden": "true" }) : null);
  table.el.sideToggle.setAttribute("aria-label", `${coachOn ? "Scores and coach" : "Scores"}${news ? ", new tips" : ""}`);
}

/**
 * @param {TableView} table
 * @param {any} ctx
 */
export function renderOpponents(table, ctx) {
  const n = ctx.players;
  const items = [];
  const revealed = table.revealedHands(ctx);
  const revealKey = revealed ? table.module.summaryKey(ctx) : null;
  const flip = revealKey !== null && revealKey !== table.flippedKey;
  table.flippedKey = revealKey;
  // Someone watching has no seat of their own: every seat is shown, in seat order.
  const seats = ctx.seat === null ? Array.from({ length: n }, (_, k) => k) : table.module.seatsInOrder
    ? table.module.seatsInOrder(ctx)
    : Array.from({ length: n - 1 }, (_, k) => (ctx.seat + k + 1) % n);
  for (const seat of seats) {
    const info = table.module.seatInfo(ctx, seat);
    const toMove = table.message.to_move === seat;
    const showing = revealed?.[seat] ?? null;
    const backs = h("div", { class: `opp-cards${showing ? " face-up" : ""}`, "aria-hidden": "true" });
    if (showing) {
      backs.style.setProperty("--cards", String(Math.max(2, showing.length)));
      for (const card of showing) backs.append(cardElement(card, { extraClass: "tiny" }));
    } else {
      const shown = Math.min(info.handSize ?? 0, 14);
      for (let i = 0; i < shown; i += 1) backs.append(cardBack({ extraClass: "tiny" }));
    }
    if (showing && flip) flipUp(backs.children);
    const shownText = showing ? `, showed ${showing.map(cardName).join(", ")}` : "";
    const level = table.seatLevel(seat);
    const name = table.seatName(seat);
    items.push(
      h(
        "article",
        {
          class: `seat opponent${toMove ? " to-move" : ""}${info.out ? " out" : ""}`,
          role: "listitem",
          dataset: { seat: String(seat) },
          "aria-label": `${name}${level ? `, ${level}` : ""}, ${info.handSize ?? 0} cards${info.scoreText ? `, ${info.scoreText}` : ""}${info.badges?.length ? `, ${info.badges.map(badgeText).join(", ")}` : ""}${shownText}${toMove ? ", to play" : ""}`,
        },
        h("div", { class: "seat-head" },
          h("span", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1)),
          h("span", { class: "seat-name" }, name),
          level ? h("span", { class: "seat-level" }, level) : null,
          toMove ? h("span", { class: "thinking", "aria-hidden": "true" }, h("i"), h("i"), h("i")) : null),
        backs,
        h("div", { class: "seat-meta" },
          h("span", { class: `hand-size${showing ? " showed" : ""}` }, showing ? "showed" : [String(info.handSize ?? 0),
            h("span", { class: "cards-word" }, ` card${info.handSize === 1 ? "" : "s"}`)]),
          info.scoreText ? h("span", { class: "seat-score" }, info.scoreText) : null,
          (info.badges || []).map(badgeElement)),
      ),
    );
  }
  replaceChildren(table.el.opponents, items);
  table.el.opponents.style.setProperty("--opponents", String(Math.max(1, n - 1)));
  // Many opponents get compact seats, so that ten players still leave room for the hand.
  table.el.opponents.classList.toggle("many", items.length >= 4);
  table.el.opponents.classList.toggle("crowded", items.length >= 6);
}

/**
 * @param {TableView} table
 * @param {any} ctx
 */
export function renderMe(table, ctx) {
  const info = table.module.seatInfo(ctx, ctx.seat);
  const toMove = table.message.to_move === ctx.seat;
  replaceChildren(
    table.el.me,
    h("span", { class: `me-name${toMove ? " to-move" : ""}` }, "You"),
    info.scoreText ? h("span", { class: "seat-score" }, info.scoreText) : null,
    (info.badges || []).map(badgeElement),
  );
  table.el.me.closest(".my-area")?.classList.toggle("to-move", toMove);
}

/**
 * @param {TableView} table
 * @param {any} ctx
 */
export function renderStatus(table, ctx) {
  const message = table.message;
  let text;
  if (message.result) {
    text = "Game over.";
  } else if (message.to_move === ctx.seat) {
    text = `Your turn: ${table.module.turnText(ctx)}`;
  } else if (message.to_move >= 0) {
    text = `${table.seatName(message.to_move)} is playing…`;
  } else {
    text = table.module.waitingText(ctx);
  }
  replaceChildren(table.el.status, withKeyHints(text));
  table.el.status.classList.toggle("yours", message.to_move === ctx.seat);
  const last = message.last_action;
  if (last && last.action) {
    table.el.lastMove.textContent = `Last move: ${table.module.moveText(ctx, last)}`;
    table.el.lastMove.hidden = false;
  } else {
    table.el.lastMove.hidden = true;
  }
  table.renderHintLine();
}

/**
 * @param {TableView} table
 */
export function renderHintLine(table) {
  const line = table.el.hintLine;
  const wasHidden = line.hidden;
  if (!table.hint) {
    line.hidden = true;
    if (!wasHidden) table.fit();
    return;
  }
  line.hidden = false;
  replaceChildren(line, h("strong", {}, "Hint: "), prettyCards(table.hintText()));
  table.fit();
}

/**
 * The hint in one sentence: the coach's reason already starts with the move ("Discard 10H: it is
 * a loose card worth 10"), so the move is named only when there is no reason.
 * @param {TableView} table
 */
export function hintText(table) {
  const ctx = table.ctx();
  if (table.hint.reason) return nameSeats(ctx, table.hint.reason);
  return table.hint.move?.words ? `${table.hint.move.words}.` : "Nothing to do now.";
}

/**
 * @param {TableView} table
 * @param {any} ctx
 */
export function renderBanner(table, ctx) {
  const banner = table.el.banner;
  if (!table.message.result) {
    banner.hidden = true;
    return;
  }
  banner.hidden = false;
  replaceChildren(
    banner,
    h("p", {}, table.module.resultText(ctx)),
    h("div", { class: "btn-row" },
      h("button", { type: "button", class: "btn primary", onclick: () => table.showSummary(true) }, "See the scores"),
      h("button", { type: "button", class: "btn", onclick: () => table.playAgain() }, "Play again"),
      h("button", { type: "button", class: "btn", onclick: () => table.app.openReplay(table.tableId) }, "Replay and analysis"),
      h("button", { type: "button", class: "btn", onclick: () => table.app.showStart() }, "New game")),
  );
}

/**
 * @param {TableView} table
 */
export function renderTools(table) {
  // On a phone the buttons drop their first words ("Suit"); the accessible name stays whole.
  const long = (text) => h("span", { class: "long" }, text);
  const short = (text) => h("span", { class: "short" }, text);
  const sortSuit = h("button", { type: "button", class: "btn small ghost", "aria-label": "Sort by suit", onclick: () => table.hand.sortBy("suit") }, long("Sort by suit"), short("Suit"));
  const sortRank = h("button", { type: "button", class: "btn small ghost", "aria-label": "Sort by rank", onclick: () => table.hand.sortBy("rank") }, long("Sort by rank"), short("Rank"));
  // "Arrange for me" lays out the solver's own groups (games whose hands are read as groups).
  const group = table.module?.arrangesGroups
    ? h("button", { type: "button", class: "btn small ghost arrange", "aria-label": "Arrange for me", "aria-keyshortcuts": "A", onclick: () => table.groupHand() }, "Arrange", long(" for me"))
    : null;
  const hint = h("button", { type: "button", class: "btn small ghost", "aria-keyshortcuts": "H", onclick: () => table.askHint() },
    "Hint", h("kbd", { "aria-hidden": "true" }, "H"));
  // Leaving keeps the game: it waits under "Games in progress" on the start page.
  const leave = h("button", { type: "button", class: "btn small ghost leave", onclick: () => table.app.leaveTable() }, "Leave");
  replaceChildren(table.el.tools, ...[sortSuit, sortRank, group, hint].filter(Boolean));
  replaceChildren(table.el.tableTools, leave, table.el.sideToggle);
}

/**
 * @param {TableView} table
 */
export function renderControls(table) {
  if (!table.message) return;
  const ctx = table.ctx();
  const { legal } = ctx;
  const lifted = table.hand.lifted();
  const buttons = [];
  const disabled = table.pending || !table.canMove();
  const drawStock = table.module.drawStock(legal);
  const drawPile = table.module.drawPile(legal);
  // Only the moves possible now are shown: no rows of greyed-out buttons.
  if (drawStock) buttons.push(table.actionButton(drawStock, table.module.stockButtonText, { key: "S", extraClass: "draw" }));
  if (drawPile) buttons.push(table.actionButton(drawPile, table.module.pileButtonText, { key: "D", extraClass: "draw" }));
  for (const verb of table.module.cardVerbs) {
    const cards = legal.byCardVerb.get(verb.verb);
    if (!cards && !verb.always) continue;
    const notation = lifted && cards ? cards.get(lifted) : null;
    // A card's move appears once a card it applies to is lifted.
    if (!notation) continue;
    let text = `${verb.label}${verb.hint ? ` (${verb.hint})` : ""}`;
    if (lifted) text = verb.lifted ? verb.lifted(shortText(lifted)) : `${verb.label} ${shortText(lifted)}`;
    buttons.push(table.actionButton(notation, text, { extraClass: verb.primary ? "primary card-verb" : "card-verb", dataVerb: verb.verb }));
  }
  for (const extra of table.module.extraControls(ctx)) buttons.push(extra);
  for (const action of legal.plain) {
    if (action.notation === drawStock || action.notation === drawPile) continue;
    const text = table.module.buttonText(ctx, action);
    if (!text) continue;
    buttons.push(table.actionButton(action.notation, text, { extraClass: table.module.buttonClass(action) }));
  }
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focusedKey = active?.closest?.(".actions") ? active.dataset.key : null;
  replaceChildren(table.el.actions, buttons.filter(Boolean));
  if (disabled) for (const b of table.el.actions.querySelectorAll("button[data-action]")) b.disabled = true;
  table.markHintedControls();
  if (focusedKey) {
    const again = table.el.actions.querySelector(`[data-key="${CSS.escape(focusedKey)}"]:not(:disabled)`);
    if (again) again.focus({ preventScroll: true });
    else table.hand.focusCurrent();
  }
  table.hand.setEnabled(!disabled);
}

/**
 * A button sending `notation` (disabled when it is null/not legal).
 * @param {TableView} table
 * @param {string | null} notation
 * @param {any} text
 * @param {{ key?: string | null, extraClass?: string, dataVerb?: string | null }} [options]
 */
export function actionButton(table, notation, text, { key = null, extraClass = "", dataVerb = null } = {}) {
  const button = h(
    "button",
    {
      type: "button",
      class: `btn action ${extraClass}`.trim(),
      disabled: !notation,
      "aria-keyshortcuts": key,
      dataset: { action: notation || "", key: dataVerb || text, verb: dataVerb || "" },
    },
    text,
    key ? h("kbd", { "aria-hidden": "true" }, key) : null,
  );
  button.addEventListener("click", () => {
    if (notation) table.send(notation);
  });
  return button;
}

/**
 * Highlight the controls that make the hinted move: a pile, a button, a Stop or Declare.
 * @param {TableView} table
 */
export function markHintedControls(table) {
  const action = table.hint?.action || null;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (table.el.centre.querySelectorAll("[data-action]"))) {
    el.classList.toggle("hinted", Boolean(action) && el.dataset.action === action);
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (table.el.actions.querySelectorAll("[data-action]"))) {
    el.classList.toggle("hinted", Boolean(action) && el.dataset.action === action);
  }
  // A number to enter (Indecision's announcement): the hinted number fills its box, and the
  // box and its button are marked, as a hinted card or pile is.
  const hinted = action ? table.hintMove() : null;
  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (table.el.actions.querySelectorAll("form[data-number-verb]"))) {
    const match = Boolean(hinted) && hinted.number !== null && hinted.verb === form.dataset.numberVerb;
    const input = form.querySelector("input");
    if (match && input) input.value = String(hinted.number);
    input?.classList.toggle("hinted", match);
    form.querySelector("button")?.classList.toggle("hinted", match);
  }
}

/**
 * @param {TableView} table
 */
export function renderCoach(table) {
  const panel = table.el.coach;
  const on = options().coach;
  panel.hidden = !on;
  if (table.el.table.classList.contains("side-open")) table.coachSeen = table.coach;
  table.renderSideToggle();
  if (!on) return;
  renderCoachPanel(panel, table.coach, {
    finished: Boolean(table.message?.result),
    say: (text) => nameSeats(table.ctx(), text),
  });
}
