// @ts-check
// The replay viewer of a finished game (#/replay/table/ID for a person who sat at it,
// #/replay/TOKEN for a shared link): step through every move with the buttons or ← → (Home,
// End), jump to a deal or hand, every hand face up or only the person's own, a share link, the
// Verify button (the deal's commitment and seed recomputed here with Web Crypto) and the
// move-by-move analysis, computed by the server in the background (a progress bar until then).

import { api } from "./api.js";
import { capitalise, h, listText, replaceChildren } from "./dom.js";
import { announce } from "./panel.js";
import { verifyDeal } from "./fairness.js";
import { progressLine, renderAnalysis } from "./analysis.js";
import { SUITS, faceCards, faceText, parse } from "./cards.js";

/** Inline icons drawn as SVG: the page's fonts have no glyph for ⏮ and ⏭. */
function stepIcon(kind) {
  const ns = "http://www.w3.org/2000/svg";
  const icon = document.createElementNS(ns, "svg");
  icon.setAttribute("viewBox", "0 0 16 16");
  icon.setAttribute("width", "16");
  icon.setAttribute("height", "16");
  icon.setAttribute("aria-hidden", "true");
  icon.setAttribute("focusable", "false");
  const shapes = {
    first: ["M3 2h2v12H3z", "M14 2v12L6 8z"],
    previous: ["M12 2v12L4 8z"],
    next: ["M4 2v12l8-6z"],
    last: ["M11 2h2v12h-2z", "M2 2v12l8-6z"],
  }[kind];
  for (const d of shapes) {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "currentColor");
    icon.append(path);
  }
  return icon;
}

/** A card of the replay as the table writes it: rank and suit symbol, red suits in red. */
function replayCard(card) {
  const parsed = parse(card);
  const red = parsed && (SUITS[parsed.suit] === "H" || SUITS[parsed.suit] === "D");
  return h("span", { class: `replay-card${red ? " red" : ""}` }, faceText(card));
}

/** Cards with a space between them, so that their text never runs together ("7♦ 6♦"). */
function replayCards(cards) {
  return cards.flatMap((card, i) => (i ? [" ", replayCard(card)] : [replayCard(card)]));
}

export class ReplayView {
  constructor(app, { tableId = null, token = null }) {
    this.app = app;
    this.tableId = tableId;
    this.token = token;
    this.data = null;
    this.at = 0;
    this.faceUp = true;
    this.timer = null;
    this.destroyed = false;
  }

  mount(main) {
    this.main = main;
    replaceChildren(main, h("p", { class: "loading" }, "Loading the replay…"));
    this.load();
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.timer);
  }

  async load() {
    try {
      this.data = this.token ? await api.sharedReplay(this.token) : await api.replay(this.tableId);
    } catch (error) {
      replaceChildren(this.main, h("p", { class: "replay-error", role: "alert" }, `The replay could not be opened: ${error.message}`));
      return;
    }
    if (this.destroyed) return;
    // "You" only for the person who sat in the seat: a share link's viewer has no seat here.
    this.viewer = Number.isInteger(this.data.viewer_seat) ? this.data.viewer_seat : null;
    this.seat = this.viewer ?? this.data.person_seat ?? 0;
    this.word = this.data.deal_word || "deal";
    this.app.setTitle(this.data.title);
    this.build();
    this.show(0);
    this.loadAnalysis();
  }

  build() {
    const d = this.data;
    const hands = [];
    d.frames.forEach((frame, i) => {
      if (!hands.some((x) => x.hand === frame.hand)) hands.push({ hand: frame.hand, at: i });
    });
    this.el = {
      action: h("p", { class: "replay-action", "aria-live": "polite" }),
      position: h("span", { class: "replay-position" }),
      table: h("div", { class: "replay-table" }),
      verify: h("div", { class: "replay-verify", role: "status" }),
      share: h("p", { class: "replay-share", hidden: true }),
      analysis: h("section", { class: "replay-analysis", "aria-label": "Analysis" }),
    };
    const jump = h("select", { "aria-label": `Jump to a ${this.word}`, class: "replay-jump",
      onchange: (e) => this.show(Number(e.target.value)) },
    hands.map((x) => h("option", { value: x.at }, `${capitalise(this.word)} ${x.hand}`)));
    this.el.jump = jump;
    const faceUp = h("input", { type: "checkbox", id: "replay-face-up", checked: true,
      onchange: (e) => { this.faceUp = e.target.checked; this.show(this.at); } });
    const button = (icon, aria, fn) => h("button", { type: "button", class: "btn", "aria-label": aria, onclick: fn }, stepIcon(icon));
    const controls = h("div", { class: "replay-controls btn-row" },
      button("first", "First move", () => this.show(0)),
      button("previous", "Previous move", () => this.show(this.at - 1)),
      button("next", "Next move", () => this.show(this.at + 1)),
      button("last", "Last move", () => this.show(d.frames.length - 1)),
      this.el.position, jump,
      h("label", { for: "replay-face-up", class: "replay-toggle" }, faceUp, " Every hand face up"));
    const tools = h("div", { class: "btn-row" },
      h("button", { type: "button", class: "btn", onclick: () => this.verify() }, "Verify the deal"),
      this.tableId ? h("button", { type: "button", class: "btn", onclick: () => this.share() }, "Share this replay") : null);
    replaceChildren(this.main, h("div", { class: "replay" },
      h("h2", {}, `Replay: ${d.title}`),
      d.result ? h("p", { class: "replay-result" }, this.resultText(d.result)) : null,
      controls, this.el.action, this.el.table, tools, this.el.share, this.el.verify, this.el.analysis));
  }

  /** A seat's name as at the table: "You" for the viewer's own seat, else the name it had. */
  nameOf(seat) {
    if (seat === this.viewer) return "You";
    return this.data.names?.[seat] || `Player ${seat + 1}`;
  }

  /** A frame's summary line as the page writes it (the server sends it as plain text):
   * "seat 1" named as at the table, "you" in a list of points as "You" (the table's name for
   * the viewer), every line in sentence case, cards as their faces read. */
  summaryText(text) {
    if (!text) return null;
    const plain = String(text)
      .replace(/\bseat (\d+)\b/gi, (_, n) => this.nameOf(Number(n)))
      .replace(/\byou(?= -?\d)/g, "You")
      .replace(/^(\s*)([a-z])/gm, (_, space, first) => space + first.toUpperCase());
    return faceCards(plain);
  }

  resultText(result) {
    const winners = (result.winners || []).map((seat) => this.nameOf(seat));
    if (!winners.length) return "The game ended with no winner.";
    return winners.length === 1 ? `${winners[0]} won the game.` : `${listText(winners)} tied for the win.`;
  }

  show(index) {
    const frames = this.data.frames;
    this.at = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[this.at];
    this.el.position.textContent = `Move ${this.at} of ${frames.length - 1}`;
    this.el.jump.value = String(this.firstOfHand(frame.hand));
    this.el.action.textContent = frame.seat === null ? `${capitalise(this.word)} ${frame.hand}: the deal`
      : `${this.nameOf(frame.seat)}: ${faceCards(frame.action)}`;
    const rows = frame.hands.map((cards, seat) => {
      const visible = this.faceUp || seat === this.seat;
      return h("div", { class: "replay-seat", dataset: { seat } },
        h("strong", {}, this.nameOf(seat)), " ",
        visible ? h("span", { class: "replay-cards", role: "group", "aria-label": `${this.nameOf(seat)}'s cards` }, replayCards(cards))
          : h("span", { class: "muted" }, `${cards.length} cards face down`));
    });
    // The line is written from one seat's point of view ("you"): shown only to the person who
    // sat there, never to a stranger with the link.
    const summary = this.viewer === null ? null : this.summaryText(frame.summaries[this.viewer]);
    replaceChildren(this.el.table, rows,
      frame.pile_top ? h("p", {}, "Top of the pile: ", replayCard(frame.pile_top)) : null,
      frame.totals ? h("p", { class: "replay-totals" }, "Totals: ",
        frame.totals.map((total, seat) => `${this.nameOf(seat)} ${total}`).join(" · ")) : null,
      summary ? h("p", { class: "replay-summary" }, summary) : null);
  }

  firstOfHand(hand) {
    return this.data.frames.findIndex((f) => f.hand === hand);
  }

  keydown(event) {
    if (!this.data || event.target?.tagName === "SELECT" || event.target?.tagName === "INPUT") return false;
    const moves = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.data.frames.length - 1 };
    if (!(event.key in moves)) return false;
    this.show(moves[event.key]);
    return true;
  }

  async verify() {
    const d = this.data;
    const outcome = await verifyDeal(d.fairness, d.seed_text);
    replaceChildren(this.el.verify,
      h("p", { class: outcome.ok ? "verify-ok" : "verify-failed" },
        outcome.ok ? "Verified: this deal is the one the server committed to before the game."
          : `Verification failed: ${outcome.problem}`),
      h("ul", {}, outcome.checks.map((c) => h("li", {}, c))),
      h("p", { class: "replay-note" }, "This replay is dealt from that seed, and the same seed always deals the same cards."));
    announce(outcome.ok ? "Deal verified." : "Verification failed.");
  }

  async share() {
    try {
      const { url } = await api.share(this.tableId);
      const link = new URL(url, location.href).href;
      this.el.share.hidden = false;
      const copied = h("span", { class: "replay-copied", role: "status" });
      const copy = h("button", { type: "button", class: "btn small", onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          copied.textContent = "Link copied.";
        } catch {
          copied.textContent = "The link could not be copied here: select it and copy it.";
        }
      } }, "Copy link");
      replaceChildren(this.el.share, "Read-only link to this replay: ", h("a", { href: link }, link), " ", copy, " ", copied);
    } catch (error) {
      this.el.share.hidden = false;
      this.el.share.textContent = `The link could not be made: ${error.message}`;
    }
  }

  async loadAnalysis() {
    if (this.destroyed) return;
    let status;
    try {
      status = this.token ? await api.sharedAnalysis(this.token, this.seat) : await api.analysis(this.tableId, this.seat);
    } catch (error) {
      replaceChildren(this.el.analysis, h("p", {}, `The analysis could not be loaded: ${error.message}`));
      return;
    }
    if (status.status === "running") {
      replaceChildren(this.el.analysis, h("h3", {}, "Analysis"), progressLine(status, "hands"));
      this.timer = setTimeout(() => this.loadAnalysis(), 700);
      return;
    }
    if (status.status !== "done") {
      replaceChildren(this.el.analysis, h("p", {}, status.detail || "The analysis failed."));
      return;
    }
    this.renderAnalysis(status.analysis);
  }

  renderAnalysis(a) {
    const goTo = (d) => h("button", { type: "button", class: "link-button", onclick: () => this.show(d.index + 1) }, `move ${d.index + 1}`);
    const whose = a.seat === this.viewer ? "your moves" : `${this.nameOf(a.seat)}'s moves`;
    replaceChildren(this.el.analysis, renderAnalysis(a, { goTo, heading: `Analysis of ${whose}`, word: this.word }));
  }
}
