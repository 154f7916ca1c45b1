// @ts-check
// The player's hand: the player's own order and groups (kept per table and seat in the
// browser), lifting a card, tap-again to play it, press-and-hold or drag to move it between
// groups, arrow-key focus and keyboard moves, sorting, and each group's label. The labels, the
// points and where a new card goes come from the server (the `groups` message, see
// hand_groups.js): nothing here knows what a meld is.
//
// A sort the player chose holds for the cards that arrive later (a draw, the next deal): they
// take their place in it, each suit (or rank) a group. Once the player arranges the hand
// themselves (dragging, moving a card with the keyboard, "Arrange for me"), their groups are
// kept and a new card waits, as a group of its own at the end, for the server to place it.

import { cardElement, cardName, label, parse, rankKey, suitKey } from "./cards.js";
import { h } from "./dom.js";

const HOLD_MS = 350;
const DRAG_THRESHOLD_PX = 6;
// The least width of a card left uncovered by the next one: a finger's touch target.
const MIN_EXPOSED_PX = 32;
const SORT_KEYS = { suit: suitKey, rank: rankKey };

let uidCounter = 0;

/** The group a sort puts a card in: its suit (or its rank); cards of neither come last. */
function sortGroup(kind, card) {
  const parsed = parse(card);
  if (!parsed) return 99;
  return kind === "rank" ? parsed.rank : parsed.suit;
}

/** The words for a group's label as the server sends it ("pure sequence" -> "Pure sequence"). */
function labelText(label) {
  return label ? label.charAt(0).toUpperCase() + label.slice(1) : "";
}

/** A key for an arrangement (lists of labels): equal keys, equal arrangements. */
export function arrangementKey(groups) {
  return JSON.stringify(groups.map((group) => group.map(label)));
}

export class Hand {
  /**
   * @param {object} callbacks
   *   onPlay(card): the lifted card was tapped again (play it)
   *   onLift(card|null): the lifted card changed
   *   onDrop(card, zone): the card was dragged out of the hand and let go over a table zone
   *   describe(card): extra words for a card's accessible name, or ""
   *   onArrange(): the player changed the groups, or new cards wait to be placed
   *   say(text): announce a keyboard move to screen readers
   */
  constructor({ storageKey, onPlay, onLift, onDrop = () => {}, describe = () => "", onArrange = () => {}, say = () => {} }) {
    this.storageKey = storageKey;
    this.onArrange = onArrange;
    this.say = say;
    // The server's last answer about these groups (labels and points), shown while the
    // arrangement is still the one it answered about.
    this.evaluation = null;
    this.onPlay = onPlay;
    this.onDrop = onDrop;
    this.onLift = onLift;
    this.describe = describe;
    this.entries = [];
    // The sort chosen with the sort buttons ("suit" or "rank"), or null while the order is the
    // deal's or the player's own.
    this.sortKind = null;
    this.liftedUid = null;
    this.focusUid = null;
    this.enabled = true;
    this.marks = new Map();
    this.element = h("div", { class: "hand", role: "group", "aria-label": "Your hand" });
    this.element.addEventListener("keydown", (event) => this.keydown(event));
    // The groups' labels, under the hand (not inside it: the hand's children are its cards).
    this.labelsElement = h("ul", { class: "hand-groups", "aria-label": "Your groups", hidden: true });
    this.restore();
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(this.element);
  }

  /** Keep the arrangement under another key (the seat is known once the first state arrives). */
  useStorage(key) {
    if (key === this.storageKey) return;
    this.storageKey = key;
    this.restore();
  }

  restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(this.storageKey) || "null");
      // Saved as {cards, sort}; a bare list of cards is an order saved before sorts were kept.
      const cards = Array.isArray(saved) ? saved : saved?.cards;
      if (Array.isArray(cards)) {
        this.entries = cards.map((e) => ({ card: e.card, group: e.group ?? null, uid: (uidCounter += 1), fresh: false, pending: false }));
      }
      this.sortKind = SORT_KEYS[saved?.sort] ? saved.sort : null;
    } catch {
      this.entries = [];
    }
  }

  save() {
    try {
      localStorage.setItem(
        this.storageKey,
        JSON.stringify({ cards: this.entries.map((e) => ({ card: e.card, group: e.group })), sort: this.sortKind }),
      );
    } catch {
      // Storage full or disabled: the order simply is not kept across reloads.
    }
  }

  /** The cards in the player's order. */
  cards() {
    return this.entries.map((e) => e.card);
  }

  lifted() {
    return this.entries.find((e) => e.uid === this.liftedUid)?.card ?? null;
  }

  /** Take the server's hand (a multiset of labels) and keep the player's order for it. A new
   * deal (`newDeal`) starts afresh: sorted, nothing lifted, grouped or marked new; `quiet`
   * marks nothing new (the first state after opening the page). New cards go where the chosen
   * sort puts them, else at the end; a fresh hand is sorted by the chosen sort, else by suit. */
  sync(cards, { sortNew = false, newDeal = false, quiet = false } = {}) {
    if (newDeal) this.entries = [];
    const wanted = new Map();
    for (const card of cards.map(label)) wanted.set(card, (wanted.get(card) || 0) + 1);
    const kept = [];
    for (const entry of this.entries) {
      const n = wanted.get(entry.card) || 0;
      if (n > 0) {
        wanted.set(entry.card, n - 1);
        kept.push({ ...entry, fresh: false });
      }
    }
    const added = [];
    const firstDeal = kept.length === 0;
    // A card that arrives into the player's own groups waits for the server to place it.
    const waits = !firstDeal && !this.sortKind;
    let nextGroup = Math.max(0, ...kept.map((e) => (typeof e.group === "number" ? e.group + 1 : 0)));
    for (const card of cards.map(label)) {
      const n = wanted.get(card) || 0;
      if (n > 0) {
        wanted.set(card, n - 1);
        added.push({ card, group: waits ? (nextGroup += 1) : null, uid: (uidCounter += 1), fresh: !firstDeal && !quiet, pending: waits });
      }
    }
    // A fresh hand (a new deal): the table animates it being dealt.
    this.dealt = firstDeal && added.length > 1;
    const kind = this.sortKind ?? "suit";
    const key = SORT_KEYS[kind];
    if (firstDeal || sortNew) added.sort((a, b) => key(a.card) - key(b.card));
    // A fresh hand, or cards under a sort: each suit (or rank) is a group.
    if (firstDeal || this.sortKind) for (const e of added) e.group = sortGroup(kind, e.card);
    this.entries = [...kept, ...added];
    // The kept cards are still in the chosen sort (arranging by hand forgets it): a stable sort
    // slots each new card in after its equals and moves no kept card.
    if (this.sortKind) this.entries.sort((a, b) => key(a.card) - key(b.card));
    if (!this.entries.some((e) => e.uid === this.liftedUid)) this.liftedUid = null;
    if (!this.entries.some((e) => e.uid === this.focusUid)) {
      this.focusUid = added[0]?.uid ?? this.entries[0]?.uid ?? null;
    }
    this.save();
  }

  /** The player's groups in order (lists of labels), cards waiting to be placed left out. */
  partition() {
    const groups = [];
    let previous;
    for (const [index, entry] of this.entries.entries()) {
      if (entry.pending) continue;
      if (index === 0 || groups.length === 0 || entry.group !== previous) groups.push([]);
      groups[groups.length - 1].push(entry.card);
      previous = entry.group;
    }
    return groups;
  }

  /** Every card in its group, the waiting ones too (what the labels are about). */
  fullPartition() {
    const groups = [];
    this.entries.forEach((entry, index) => {
      if (index === 0 || entry.group !== this.entries[index - 1].group) groups.push([]);
      groups[groups.length - 1].push(entry.card);
    });
    return groups;
  }

  hasPending() {
    return this.entries.some((e) => e.pending);
  }

  /**
   * The server's answer about the groups sent (`groups` message): cards it placed take their
   * group, and its labels show while the arrangement stays the one it is about. An answer about
   * other cards (the hand changed since it was asked) is left alone.
   */
  applyAnswer(answer, { sentKey }) {
    const placed = answer.placed || [];
    const same = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
    if (!same(placed.flat(), this.cards())) return false;
    if (this.hasPending() && sentKey === arrangementKey(this.partition())) {
      this.arrange(placed, null, { quiet: true });
    }
    this.evaluation = answer;
    this.render();
    return true;
  }

  /** The labels of the current groups, when the server's last answer is about them. */
  labels() {
    const answer = this.evaluation;
    if (!answer || !answer.groups) return null;
    if (arrangementKey(answer.placed || []) !== arrangementKey(this.fullPartition())) return null;
    return answer.groups;
  }

  sortBy(kind) {
    this.sortKind = kind === "rank" ? "rank" : "suit";
    const key = SORT_KEYS[this.sortKind];
    this.entries.sort((a, b) => key(a.card) - key(b.card));
    for (const e of this.entries) {
      e.group = sortGroup(this.sortKind, e.card);
      e.pending = false;
    }
    this.save();
    this.render();
    this.onArrange();
  }

  /** Put cards into the given groups (lists of labels), in that order, the rest after in a
   * group of their own. `quiet`: the server placing new cards, not the player arranging. */
  arrange(groups, rest = null, { quiet = false } = {}) {
    const pool = [...this.entries];
    const next = [];
    groups.forEach((group, g) => {
      for (const card of group.map(label)) {
        const i = pool.findIndex((e) => e.card === card);
        if (i >= 0) next.push({ ...pool.splice(i, 1)[0], group: g, pending: false });
      }
    });
    const leftovers = rest
      ? rest.map(label).map((card) => {
          const i = pool.findIndex((e) => e.card === card);
          return i >= 0 ? pool.splice(i, 1)[0] : null;
        }).filter(Boolean)
      : [];
    for (const e of [...leftovers, ...pool]) next.push({ ...e, group: groups.length, pending: false });
    this.entries = next;
    this.sortKind = null;
    this.save();
    this.render();
    if (!quiet) this.onArrange();
  }

  /** The player changed the arrangement: keep it, forget the sort, ask for its labels. */
  arranged() {
    this.sortKind = null;
    for (const e of this.entries) e.pending = false;
    this.save();
    this.render();
    this.onArrange();
  }

  setEnabled(enabled) {
    this.enabled = enabled;
  }

  /** Marks: Map card label -> class names (hint, joker …) for the next render. */
  setMarks(marks) {
    this.marks = marks;
  }

  lift(uid) {
    this.liftedUid = uid;
    this.render();
    this.onLift(this.lifted());
  }

  lower() {
    if (this.liftedUid === null) return false;
    this.lift(null);
    return true;
  }

  /** Tap / Enter on a card: lift it, or play it when already lifted. */
  activate(uid) {
    this.focusUid = uid;
    if (this.liftedUid === uid) {
      this.onPlay(this.lifted());
    } else {
      this.lift(uid);
    }
  }

  render() {
    const hadFocus = this.element.contains(document.activeElement);
    // Each card keeps its element from one render to the next (updated in place): a state that
    // arrives between a press and its release, or between two quick taps, must not swap the
    // element under the finger, which would lose the tap (no click reaches a removed element).
    if (!this.nodes) this.nodes = new Map();
    const labels = this.labels();
    // Each run of one group: its index (for the label and the alternating shade).
    const runOf = [];
    this.entries.forEach((entry, index) => {
      const starts = index === 0 || entry.group !== this.entries[index - 1].group;
      runOf.push(index === 0 ? 0 : runOf[index - 1] + (starts ? 1 : 0));
    });
    const runs = (runOf[runOf.length - 1] ?? -1) + 1;
    const nodes = this.entries.map((entry, index) => {
      const marks = this.marks.get(entry.card) || "";
      const extra = this.describe(entry.card);
      const lifted = entry.uid === this.liftedUid;
      const groupStart = index > 0 && runOf[index] !== runOf[index - 1];
      const run = runOf[index];
      const group = labels?.[run];
      const where = runs > 1 ? `group ${run + 1} of ${runs}${group ? `, ${group.label}` : ""}` : "";
      const name = [cardName(entry.card), extra, where].filter(Boolean).join(", ");
      const el = cardElement(entry.card, {
        tag: "button",
        extraClass: [
          "hand-card",
          lifted ? "lifted" : "",
          entry.fresh ? "fresh" : "",
          groupStart ? "group-start" : "",
          runs > 1 ? "grouped" : "",
          run % 2 ? "group-odd" : "",
          group ? `g-${group.label.replace(/ /g, "-")}` : "",
          marks,
        ].join(" "),
        name,
        attrs: {
          "aria-pressed": lifted ? "true" : "false",
          tabindex: entry.uid === this.focusUid ? "0" : "-1",
          dataset: { card: entry.card, uid: String(entry.uid), group: String(run) },
        },
      });
      const old = this.nodes.get(entry.uid);
      if (old && old.dataset.card === entry.card) {
        old.className = el.className;
        for (const name of ["aria-label", "aria-pressed", "tabindex", "data-group"]) old.setAttribute(name, el.getAttribute(name));
        return old;
      }
      this.bindPointer(el, entry.uid);
      this.nodes.set(entry.uid, el);
      return el;
    });
    const live = new Set(this.entries.map((e) => e.uid));
    for (const uid of [...this.nodes.keys()]) if (!live.has(uid)) this.nodes.delete(uid);
    this.placeNodes(nodes);
    this.element.setAttribute("aria-label", `Your hand, ${this.entries.length} cards${runs > 1 ? ` in ${runs} groups` : ""}`);
    this.renderLabels(labels, runs);
    this.layout();
    if (hadFocus) this.focusCurrent();
  }

  /** One label per group under the hand: what the count reads it as, and its points. */
  renderLabels(labels, runs) {
    const list = this.labelsElement;
    if (!labels || runs < 2 || labels.length !== runs) {
      list.hidden = true;
      list.replaceChildren();
      return;
    }
    list.hidden = false;
    const items = labels.map((group, run) => {
      const points = group.counts ? `${group.points}, counts` : String(group.points);
      return h("li", {
        class: `hand-group-label g-${group.label.replace(/ /g, "-")}${run % 2 ? " group-odd" : ""}`,
        "aria-label": `Group ${run + 1}: ${group.label}, ${group.cards.map(cardName).join(", ")}: ${group.points} points${group.counts ? " (it counts: no two sequences yet)" : ""}`,
        title: `${labelText(group.label)}: ${group.points} points`,
        dataset: { group: String(run), label: group.label, points: String(group.points) },
      }, h("span", { class: "kind" }, labelText(group.label)), h("span", { class: "points" }, points));
    });
    const answer = this.evaluation;
    // The count of these groups ("count 68", not the seat's running total beside the name);
    // with 14 cards, a valid show once a card is put down says so.
    const ready = answer?.show_put_down;
    const total = answer && typeof answer.points === "number"
      ? h("li", {
          class: `hand-group-total${ready || answer.valid_show ? " ready" : ""}`,
          dataset: { points: String(answer.points) },
          "aria-label": ready ? `Valid show once you put down the ${cardName(ready)}` : answer.valid_show ? "A valid show" : `These groups count ${answer.points} points`,
        }, ready ? `Show: put down ${ready}` : answer.valid_show ? "Valid show" : `count ${answer.points}`)
      : null;
    list.replaceChildren(...items, ...(total ? [total] : []));
  }

  /** Under one row of cards, each label sits under its group (two rows: they follow in turn).
   * The count chip sits at the right end of the labels' line unless a label reaches it there
   * (a hand spanning a phone's width): then it takes a line of its own below, never covering
   * the last group's label. */
  placeLabels(twoRows) {
    const list = this.labelsElement;
    list.classList.toggle("flow", twoRows);
    list.classList.remove("total-below");
    if (list.hidden || twoRows) {
      for (const item of list.children) {
        item.style.removeProperty("left");
        item.style.removeProperty("width");
      }
      return;
    }
    // Where the cards lie in the layout, not where they show: a card flying in (the deal, a
    // draw) is transformed away from its place for a moment, and its bounding box with it.
    const cards = /** @type {HTMLElement[]} */ ([...this.element.children]);
    const base = this.element.getBoundingClientRect().left - list.getBoundingClientRect().left;
    const items = /** @type {HTMLElement[]} */ ([...list.querySelectorAll(".hand-group-label")]);
    let reach = 0;
    for (const item of items) {
      const run = item.dataset.group;
      const members = cards.filter((c) => c.dataset.group === run);
      if (!members.length) continue;
      const first = members[0].offsetLeft;
      const last = members[members.length - 1];
      const next = cards[cards.indexOf(last) + 1];
      const right = next ? next.offsetLeft - 2 : last.offsetLeft + last.offsetWidth;
      const width = Math.max(18, right - first);
      item.style.left = `${(base + first).toFixed(1)}px`;
      item.style.width = `${width.toFixed(1)}px`;
      reach = Math.max(reach, base + first + width);
    }
    const total = /** @type {HTMLElement | null} */ (list.querySelector(".hand-group-total"));
    if (total && reach > total.offsetLeft - 4) list.classList.add("total-below");
  }

  /**
   * Put the hand's children in the order `nodes`. The card being dragged (`this.draggedEl`)
   * is never taken out of the page: moving it would release its pointer capture, and the
   * release of the drag would then reach another element and leave the card stuck in mid-air.
   * The other cards are moved around it instead.
   */
  placeNodes(nodes) {
    const current = [...this.element.children];
    if (current.length === nodes.length && current.every((node, i) => node === nodes[i])) return;
    const pinned = this.draggedEl;
    const at = pinned ? nodes.indexOf(pinned) : -1;
    if (at < 0 || pinned.parentNode !== this.element) {
      this.element.replaceChildren(...nodes);
      return;
    }
    const wanted = new Set(nodes);
    for (const node of current) if (!wanted.has(node)) node.remove();
    pinned.before(...nodes.slice(0, at));
    pinned.after(...nodes.slice(at + 1));
  }

  /**
   * Overlap cards so the hand fits its width, keeping every corner index visible; when one row
   * would leave less than MIN_EXPOSED_PX of each card uncovered, two overlapping rows.
   */
  layout() {
    const cards = this.element.children;
    if (!cards.length) {
      this.labelsElement.hidden = true;
      return;
    }
    const style = getComputedStyle(this.element);
    // Both sides' padding as on the left: in two rows the right padding holds the overhang.
    const width = this.element.clientWidth - 2 * parseFloat(style.paddingLeft);
    const cardWidth = cards[0].offsetWidth || 60;
    const gaps = [...cards].filter((c) => c.classList.contains("group-start")).length;
    const groupGap = Math.min(14, cardWidth * 0.2);
    const n = cards.length;
    const natural = cardWidth + 6;
    const exposed = Math.max(MIN_EXPOSED_PX, cardWidth * 0.36);
    const oneRow = n > 1 ? Math.min(natural, (width - cardWidth - gaps * groupGap) / (n - 1)) : natural;
    const twoRows = n >= 8 && oneRow < exposed;
    let step;
    if (twoRows) {
      const perRow = Math.ceil(n / 2);
      // perRow - 1 steps and one whole card (the last card's overhang is the right padding).
      step = Math.min(natural, (width - cardWidth) / (perRow - 1));
      this.element.style.setProperty("--per-row", String(perRow));
    } else {
      step = Math.max(oneRow, cardWidth * 0.28);
    }
    this.element.classList.toggle("two-rows", twoRows);
    this.element.style.setProperty("--step", `${step.toFixed(1)}px`);
    this.element.style.setProperty("--group-gap", `${groupGap.toFixed(1)}px`);
    this.element.classList.toggle("tight", step < cardWidth * 0.55);
    this.placeLabels(twoRows);
  }

  focusCurrent() {
    const el = this.element.querySelector(`[data-uid="${this.focusUid}"]`) || this.element.querySelector(".card");
    if (el) el.focus({ preventScroll: true });
  }

  moveFocus(delta) {
    if (!this.entries.length) return;
    let index = this.entries.findIndex((e) => e.uid === this.focusUid);
    index = index < 0 ? 0 : (index + delta + this.entries.length) % this.entries.length;
    this.focusUid = this.entries[index].uid;
    for (const el of this.element.children) {
      el.tabIndex = el.dataset.uid === String(this.focusUid) ? 0 : -1;
    }
    this.focusCurrent();
  }

  /** Move the focused card one place left or right (keyboard reordering). */
  moveCard(delta) {
    const index = this.entries.findIndex((e) => e.uid === this.focusUid);
    const target = index + delta;
    if (index < 0 || target < 0 || target >= this.entries.length) return;
    const [entry] = this.entries.splice(index, 1);
    // Within its group the card changes place; past the group's edge it joins the next group.
    const left = this.entries[target - 1];
    const right = this.entries[target];
    if (!(left?.group === entry.group || right?.group === entry.group)) {
      entry.group = (delta < 0 ? right : left)?.group ?? entry.group;
    }
    this.entries.splice(target, 0, entry);
    this.arranged();
    this.focusCurrent();
    this.sayWhere(entry);
  }

  /** A group id no card has. */
  freshGroup() {
    return Math.max(0, ...this.entries.map((e) => (typeof e.group === "number" ? e.group : 0))) + 1;
  }

  /** Move the focused card to the end of the group before its own (delta -1) or the start of
   * the one after (+1); from the first or the last group, into a new group of its own. */
  moveToGroup(delta) {
    const index = this.entries.findIndex((e) => e.uid === this.focusUid);
    if (index < 0) return;
    const entry = this.entries[index];
    const order = [...new Set(this.entries.map((e) => e.group))];
    const target = order.indexOf(entry.group) + delta;
    this.entries.splice(index, 1);
    if (target < 0 || target >= order.length) {
      entry.group = this.freshGroup();
      if (target < 0) this.entries.unshift(entry);
      else this.entries.push(entry);
    } else {
      entry.group = order[target];
      const members = this.entries.map((e, i) => (e.group === entry.group ? i : -1)).filter((i) => i >= 0);
      this.entries.splice(delta < 0 ? members[members.length - 1] + 1 : members[0], 0, entry);
    }
    this.arranged();
    this.focusCurrent();
    this.sayWhere(entry);
  }

  /** Put the focused (or lifted) card in a new group of its own, just after its group. */
  newGroup(uid = this.focusUid) {
    const index = this.entries.findIndex((e) => e.uid === uid);
    if (index < 0) return;
    const [entry] = this.entries.splice(index, 1);
    const old = entry.group;
    let at = index;
    while (at < this.entries.length && this.entries[at].group === old) at += 1;
    entry.group = this.freshGroup();
    this.entries.splice(at, 0, entry);
    this.focusUid = uid;
    this.arranged();
    this.focusCurrent();
    this.sayWhere(entry);
  }

  sayWhere(entry) {
    const groups = this.fullPartition();
    const run = this.entries.slice(0, this.entries.indexOf(entry) + 1)
      .filter((e, i, all) => i === 0 || e.group !== all[i - 1].group).length;
    this.say(`${cardName(entry.card)} in group ${run} of ${groups.length}.`);
  }

  keydown(event) {
    const card = event.target.closest(".hand-card");
    if (!card) return;
    this.focusUid = Number(card.dataset.uid);
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      const delta = event.key === "ArrowLeft" ? -1 : 1;
      if (event.shiftKey || event.ctrlKey || event.altKey) this.moveCard(delta);
      else this.moveFocus(delta);
      event.preventDefault();
      event.stopPropagation();
    } else if ((event.key === "ArrowUp" || event.key === "ArrowDown") && (event.shiftKey || event.ctrlKey || event.altKey)) {
      // Shift+Up / Shift+Down: the card to the group before / after (a new group at either end).
      this.moveToGroup(event.key === "ArrowUp" ? -1 : 1);
      event.preventDefault();
      event.stopPropagation();
    } else if ((event.key === "g" || event.key === "G") && !event.ctrlKey && !event.metaKey && !event.altKey) {
      this.newGroup();
      event.preventDefault();
      event.stopPropagation();
    } else if (event.key === "Home" || event.key === "End") {
      this.focusUid = (event.key === "Home" ? this.entries[0] : this.entries[this.entries.length - 1])?.uid;
      this.moveFocus(0);
      event.preventDefault();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      if (!event.repeat) this.activate(this.focusUid);
    }
  }

  bindPointer(el, uid) {
    // The entry objects are replaced on every sync; the card's uid is what stays.
    const entryOf = () => this.entries.find((e) => e.uid === uid);
    let start = null;
    let dragging = false;
    let moved = false;
    let holdTimer = null;
    let grabOffset = 0;
    let grab = null;
    let outside = false;
    let overZone = null;
    let pastEnd = false;

    // The table zone (the discard pile) under a point, found past the dragged card itself.
    const zoneAt = (x, y) => {
      for (const under of document.elementsFromPoint(x, y)) {
        const zone = under.closest?.("[data-drop-zone]");
        if (zone) return zone;
      }
      return null;
    };
    const markZone = (zone) => {
      if (zone === overZone) return;
      overZone?.classList.remove("drop-over");
      overZone = zone;
      overZone?.classList.add("drop-over");
    };

    const finish = () => {
      clearTimeout(holdTimer);
      if (this.draggedEl === el) this.draggedEl = null;
      el.classList.remove("held", "dragging", "dragged-out");
      el.style.removeProperty("transform");
      this.element.classList.remove("reordering");
      document.body.classList.remove("dragging-card");
      markZone(null);
      outside = false;
      start = null;
    };

    el.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      start = { x: event.clientX, y: event.clientY, t: event.timeStamp };
      pastEnd = false;
      dragging = false;
      moved = false;
      const rect = el.getBoundingClientRect();
      grabOffset = event.clientX - rect.left;
      grab = { x: event.clientX - rect.left, y: event.clientY - rect.top };
      this.draggedEl = el;
      holdTimer = setTimeout(() => {
        // Press and hold: the card is picked up and follows the finger.
        dragging = true;
        el.classList.add("held", "dragging");
        this.element.classList.add("reordering");
      }, HOLD_MS);
      el.setPointerCapture(event.pointerId);
    });

    el.addEventListener("pointermove", (event) => {
      if (!start) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (!dragging && (Math.abs(dx) > DRAG_THRESHOLD_PX || dy < -2 * DRAG_THRESHOLD_PX)) {
        clearTimeout(holdTimer);
        dragging = true;
        el.classList.add("dragging");
        this.element.classList.add("reordering");
      }
      if (!dragging) return;
      moved = true;
      const handRect = this.element.getBoundingClientRect();
      // Above the hand the card follows the pointer freely, to be let go over the pile.
      if (event.clientY < handRect.top) {
        if (!outside) {
          outside = true;
          el.classList.add("dragged-out");
          document.body.classList.add("dragging-card");
        }
        el.style.transform = "none";
        const natural = el.getBoundingClientRect();
        el.style.transform = `translate(${event.clientX - grab.x - natural.left}px, ${event.clientY - grab.y - natural.top}px)`;
        markZone(zoneAt(event.clientX, event.clientY));
        return;
      }
      if (outside) {
        outside = false;
        el.classList.remove("dragged-out");
        document.body.classList.remove("dragging-card");
        markZone(null);
      }
      const desiredLeft = event.clientX - handRect.left - this.element.clientLeft - grabOffset;
      // The slot whose natural place (offsetLeft ignores transforms) is nearest wins.
      const children = [...this.element.children];
      let target = 0;
      children.forEach((child, i) => {
        if (Math.abs(child.offsetLeft - desiredLeft) < Math.abs(children[target].offsetLeft - desiredLeft)) {
          target = i;
        }
      });
      const index = this.entries.findIndex((e) => e.uid === uid);
      if (target !== index && index >= 0) {
        const [entry] = this.entries.splice(index, 1);
        this.entries.splice(target, 0, entry);
        // The player's own order from now on (a state landing mid-drag must not re-sort it).
        this.sortKind = null;
        const others = children.filter((c) => c !== el);
        others.splice(target, 0, el);
        this.placeNodes(others);
      }
      const last = this.element.lastElementChild;
      pastEnd = last === el && desiredLeft > el.offsetLeft + el.offsetWidth * 0.6;
      el.style.transform = `translate(${desiredLeft - el.offsetLeft}px, -14%)`;
    });

    const end = (event) => {
      if (!start) return;
      // A release with no movement is a tap, however long the press: held in place, the card
      // was picked up and put back where it was. On a busy machine the press and the release
      // of a quick tap can reach the page far apart (the hold timer having run in between).
      const tap = !moved;
      if (tap) dragging = false;
      const wasDragging = dragging;
      const dropZone = wasDragging && outside && event.type === "pointerup" ? zoneAt(event.clientX, event.clientY) : null;
      finish();
      if (dropZone) {
        const card = entryOf()?.card;
        this.suppressClickUntil = performance.now() + 400;
        this.render();
        if (card) this.onDrop(card, /** @type {HTMLElement} */ (dropZone).dataset.dropZone);
      } else if (wasDragging) {
        // The card joins the group of the card now on its left (the first card: on its right);
        // let go past the end of the hand, it starts a group of its own there.
        const index = this.entries.findIndex((e) => e.uid === uid);
        const neighbour = this.entries[index - 1] || this.entries[index + 1];
        const entry = entryOf();
        if (entry) entry.group = pastEnd || !neighbour ? this.freshGroup() : neighbour.group;
        this.focusUid = uid;
        this.suppressClickUntil = performance.now() + 400;
        this.arranged();
      }
      if (event.type === "pointercancel") dragging = false;
    };
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
    // Should the capture be lost all the same (the card taken away by a new deal), the drag
    // ends where it is: the card goes back to the hand rather than hanging over the table.
    el.addEventListener("lostpointercapture", (event) => {
      if (start) end(new PointerEvent("pointercancel", event));
    });
    el.addEventListener("contextmenu", (event) => event.preventDefault());
    el.addEventListener("click", (event) => {
      if (dragging || performance.now() < (this.suppressClickUntil || 0)) {
        dragging = false;
        return;
      }
      // Keyboard activation is handled in keydown; detail 0 means a synthetic click.
      if (event.detail === 0 && document.activeElement === el) return;
      if (entryOf()) this.activate(uid);
    });
  }
}
