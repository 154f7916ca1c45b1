// @ts-check
// The move-by-move analysis as the pages show it: the accuracy, the thresholds that mark costly
// moves (and how much the estimate itself varies), the costliest moves explained, the marked
// moves; the progress of an analysis the server is still computing; and the page of one
// finished hand's analysis (#/review/TABLE/HAND), opened from the end-of-hand summary.

import { api } from "./api.js";
import { capitalise, h, replaceChildren } from "./dom.js";
import { prettyCards } from "./cards.js";

const LABELS = { inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" };
const PLURALS = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };

/** "1 mistake", "0 inaccuracies": a count of marked moves in words. */
export function markCount(kind, n) {
  return `${n} ${n === 1 ? LABELS[kind].toLowerCase() : PLURALS[kind]}`;
}

/** What one deal is called in a game (deal, hand, game), from the games the page knows. */
function dealWordOf(app, game) {
  return app?.games?.find((g) => g.name === game)?.deal_word || "deal";
}
const POLL_MS = 800;

/** The analysis `a` (a game's or one hand's) as page content; `goTo(decision)` makes the link
 * to a move (the replay's step) or is absent (the move is named only). */
/**
 * @param {any} a
 * @param {{ heading?: string, goTo?: ((decision: any) => Node) | null, word?: string }} [options]
 */
export function renderAnalysis(a, { heading, goTo = null, word = "deal" } = {}) {
  const t = a.thresholds;
  const marked = a.hands.flatMap((hand) => hand.decisions).filter((d) => d.label);
  const move = (d) => goTo ? goTo(d) : h("span", {}, `move ${d.index + 1}`);
  const noise = t.noise != null
    ? ` Between two analyses drawing different deals, a move's cost differs by about ${t.noise} ${t.unit} (median)`
      + (t.noise_p95 != null ? `, and by ${t.noise_p95} or more for one move in twenty.` : ".")
    : "";
  return [
    h("h3", {}, heading ?? `Analysis of seat ${a.seat}`),
    h("p", { class: "analysis-accuracy" }, `Accuracy ${a.accuracy ?? "–"}%`, " · ",
      Object.entries(a.counts).map(([k, n]) => markCount(k, n)).join(", ")),
    h("p", { class: "muted analysis-thresholds" },
      `Costs are in ${t.unit}: an inaccuracy from ${t.inaccuracy}, a mistake from ${t.mistake}, a blunder from ${t.blunder} `
      + "(and more than twice the estimate's noise). Accuracy per move is 100 × 2^(−cost / mistake threshold); "
      + `each move was tried in ${a.budget.samples} deals of the hidden cards drawn from what you could see.${noise}`),
    a.hands.length > 1 ? a.hands.map((hand) => h("p", {}, `${capitalise(word)} ${hand.hand}: accuracy ${hand.accuracy ?? "–"}%`)) : null,
    a.top.length ? h("h4", {}, "Costliest moves") : h("p", {}, "No move cost anything: well played."),
    h("ol", { class: "analysis-top" }, a.top.map((d) => h("li", {}, move(d), `: ${prettyCards(d.explanation)}`))),
    marked.length ? h("h4", {}, "Marked moves") : null,
    h("ul", { class: "analysis-marked" }, marked.map((d) => h("li", { dataset: { label: d.label } },
      move(d), ` ${LABELS[d.label]}: ${prettyCards(d.played)} (best ${prettyCards(d.best)}, cost ${d.cost} ${t.unit})`))),
  ];
}

/** One line on an analysis under way: `status` is the server's queued/running answer. */
export function progressLine(status, unit) {
  if (status.status === "queued") {
    const ahead = status.ahead ? ` (${status.ahead} ahead of it)` : "";
    return h("p", { class: "analysis-progress" }, `Waiting to be analysed${ahead}…`);
  }
  const total = status.total || 0;
  return h("p", { class: "analysis-progress" }, "Analysing… ",
    h("progress", { max: total || 1, value: status.done || 0, "aria-label": "Analysis progress" }),
    total ? ` ${status.done} of ${total} ${unit}` : "");
}

/** The page of one finished hand's analysis, for the person who played it. */
export class HandReviewView {
  constructor(app, tableId, hand) {
    this.app = app;
    this.tableId = tableId;
    this.hand = hand;
    this.timer = null;
    this.destroyed = false;
  }

  mount(main) {
    this.heading = h("h2", {}, "Review of your moves");
    this.body = h("section", { class: "replay-analysis", "aria-label": "Analysis", "aria-live": "polite" },
      h("p", { class: "loading" }, "Loading the analysis…"));
    replaceChildren(main, h("div", { class: "replay hand-review" },
      this.heading,
      h("div", { class: "btn-row" },
        h("button", { type: "button", class: "btn", onclick: () => this.app.openTable(this.tableId) }, "Back to the table")),
      this.body));
    this.load();
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.timer);
  }

  async load() {
    if (this.destroyed) return;
    let status;
    try {
      status = await api.handAnalysis(this.tableId, this.hand);
    } catch (error) {
      replaceChildren(this.body, h("p", { role: "alert" }, `The analysis could not be loaded: ${error.message}`));
      return;
    }
    if (this.destroyed) return;
    if (status.status === "done") {
      const word = dealWordOf(this.app, status.analysis.game);
      this.heading.textContent = `Review of ${word} ${this.hand}`;
      replaceChildren(this.body, renderAnalysis(status.analysis, { heading: `Your moves in ${word} ${this.hand}`, word }));
    } else if (status.status === "failed") {
      replaceChildren(this.body, h("p", { role: "alert" }, status.detail || "The analysis failed."));
    } else {
      replaceChildren(this.body, progressLine(status, "moves"));
      this.timer = setTimeout(() => this.load(), POLL_MS);
    }
  }
}

/** The end-of-hand summary's line: how far the analysis of the hand just finished is, and a
 * "Review this hand" button to its page. Keeps itself up to date while it is on the page: the
 * list of hands is read until the hand's analysis is queued (the server queues it as the hand
 * ends, when it analyses in the background), then only that hand's state. */
export function handReviewLine(app, tableId) {
  const status = h("span", { class: "summary-review-status", "aria-live": "polite" });
  const line = h("p", { class: "summary-review", hidden: true }, status, " ");
  let tries = 0;
  let hand = null;
  let queued = false;
  const update = async () => {
    if (tries > 0 && !line.isConnected) return; // the panel was closed
    tries += 1;
    let last;
    try {
      if (!queued) {
        const listed = await api.handAnalyses(tableId);
        last = listed.hands[listed.hands.length - 1];
        if (!last) return;
      } else {
        last = await api.handAnalysis(tableId, hand);
        if (last.status === "done") last = { ...last, accuracy: last.analysis.accuracy, counts: last.analysis.counts };
      }
    } catch {
      return; // the summary stands without it
    }
    hand = last.hand;
    queued = last.status !== "none";
    if (line.hidden) {
      line.append(h("button", { type: "button", class: "btn small", onclick: () => app.openHandReview(tableId, hand) }, `Review this ${dealWordOf(app, app.view?.meta?.game)}`));
      line.hidden = false;
    }
    if (last.status === "done") {
      const marks = Object.entries(last.counts).filter(([, n]) => n).map(([k, n]) => markCount(k, n));
      status.textContent = `Your accuracy this ${dealWordOf(app, app.view?.meta?.game)}: ${last.accuracy ?? "–"}%${marks.length ? ` (${marks.join(", ")})` : ""}.`;
      return;
    }
    if (last.status === "failed") {
      status.textContent = "This hand could not be analysed.";
      return;
    }
    if (last.status === "queued") status.textContent = "Analysing your moves: waiting its turn…";
    else if (last.status === "running") {
      replaceChildren(status, "Analysing your moves… ",
        h("progress", { max: last.total || 1, value: last.done, "aria-label": "Analysis progress" }),
        last.total ? ` ${last.done} of ${last.total}` : "");
    } else status.textContent = "";
    // Not analysed in the background: look a few more times (the hand was queued as it ended),
    // then leave it to the button.
    if (queued ? tries < 150 : tries < 4) setTimeout(update, POLL_MS);
  };
  update();
  return line;
}
