// The replay viewer of a finished game (#/replay/table/ID for a person who sat at it,
// #/replay/TOKEN for a shared link): step through every move with the buttons or ← → (Home,
// End), jump to a deal or hand, every hand face up or only the person's own, a share link, the
// Verify button (the deal's commitment and seed recomputed here with Web Crypto) and the
// move-by-move analysis, computed by the server in the background (a progress bar until then).

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { announce } from "./panel.js";
import { verifyDeal } from "./fairness.js";
import { progressLine, renderAnalysis } from "./analysis.js";

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
    this.seat = this.data.person_seat ?? 0;
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
    const jump = h("select", { "aria-label": "Jump to a deal or hand", class: "replay-jump",
      onchange: (e) => this.show(Number(e.target.value)) },
    hands.map((x) => h("option", { value: x.at }, `Hand ${x.hand}`)));
    this.el.jump = jump;
    const faceUp = h("input", { type: "checkbox", id: "replay-face-up", checked: true,
      onchange: (e) => { this.faceUp = e.target.checked; this.show(this.at); } });
    const button = (label, aria, fn) => h("button", { type: "button", class: "btn", "aria-label": aria, onclick: fn }, label);
    const controls = h("div", { class: "replay-controls btn-row" },
      button("⏮", "First move", () => this.show(0)),
      button("◀", "Previous move", () => this.show(this.at - 1)),
      button("▶", "Next move", () => this.show(this.at + 1)),
      button("⏭", "Last move", () => this.show(d.frames.length - 1)),
      this.el.position, jump,
      h("label", { for: "replay-face-up", class: "replay-toggle" }, faceUp, " Every hand face up"));
    const tools = h("div", { class: "btn-row" },
      h("button", { type: "button", class: "btn", onclick: () => this.verify() }, "Verify the deal"),
      this.tableId ? h("button", { type: "button", class: "btn", onclick: () => this.share() }, "Share this replay") : null);
    replaceChildren(this.main, h("div", { class: "replay" },
      h("h2", {}, `Replay: ${d.title}`),
      d.result ? h("p", { class: "replay-result" }, d.result.summary) : null,
      controls, this.el.action, this.el.table, tools, this.el.share, this.el.verify, this.el.analysis));
  }

  show(index) {
    const frames = this.data.frames;
    this.at = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[this.at];
    this.el.position.textContent = `Move ${this.at} of ${frames.length - 1}`;
    this.el.jump.value = String(this.firstOfHand(frame.hand));
    this.el.action.textContent = frame.seat === null ? `Hand ${frame.hand}: the deal` : `Seat ${frame.seat}: ${frame.action}`;
    const rows = frame.hands.map((cards, seat) => {
      const visible = this.faceUp || seat === this.seat;
      return h("div", { class: "replay-seat", dataset: { seat } },
        h("strong", {}, seat === this.seat ? `Seat ${seat} (you)` : `Seat ${seat}`), " ",
        visible ? cards.map((c) => h("span", { class: "replay-card" }, c))
          : h("span", { class: "muted" }, `${cards.length} cards face down`));
    });
    const summary = frame.summaries[this.seat];
    replaceChildren(this.el.table, rows,
      frame.pile_top ? h("p", {}, "Top of the pile: ", h("span", { class: "replay-card" }, frame.pile_top)) : null,
      frame.totals ? h("p", {}, `Totals: ${frame.totals.join(", ")}`) : null,
      summary ? h("p", { class: "muted" }, summary) : null);
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
      h("p", { class: "muted" }, "The deals themselves are replayed from the seed by `cardtable verify` with the game's record."));
    announce(outcome.ok ? "Deal verified." : "Verification failed.");
  }

  async share() {
    try {
      const { url } = await api.share(this.tableId);
      const link = new URL(url, location.href).href;
      this.el.share.hidden = false;
      replaceChildren(this.el.share, "Read-only link to this replay: ", h("a", { href: link }, link));
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
    replaceChildren(this.el.analysis, renderAnalysis(a, { goTo }));
  }
}
