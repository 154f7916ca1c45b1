// @ts-check
// The player's hand: client-side card order (kept per table in the browser), lifting a card,
// tap-again to play it, press-and-hold or drag to move it, arrow-key focus, sorting and
// grouping. The server never sees the order; it only receives actions.
//
// A sort the player chose holds for the cards that arrive later (a draw, the next deal): they
// take their place in it. Once the player arranges the hand themselves (dragging, moving a card
// with the keyboard, grouping melds), their order is kept and new cards go at the end.

import { cardElement, cardName, label, parse, rankKey, suitKey } from "./cards.js";
import { h } from "./dom.js";

const HOLD_MS = 350;
const DRAG_THRESHOLD_PX = 6;
// The least width of a card left uncovered by the next one: a finger's touch target.
const MIN_EXPOSED_PX = 32;
const SORT_KEYS = { suit: suitKey, rank: rankKey };

let uidCounter = 0;

/** Order `cards` (labels) by melds found client-side: runs of one suit and same ranks. */
export function groupByMelds(cards, { jokers = new Set() } = {}) {
  const pool = cards.map((card, index) => ({ card: label(card), index }));
  const groups = [];
  const take = (items) => {
    for (const item of items) pool.splice(pool.indexOf(item), 1);
    groups.push(items.map((item) => item.card));
  };
  // Longest same-suit runs first (ace low or high), then sets of one rank.
  for (;;) {
    let best = null;
    for (let suit = 0; suit < 4; suit += 1) {
      const byRank = new Map();
      for (const item of pool) {
        const p = parse(item.card);
        if (p && p.suit === suit && !jokers.has(item.card) && !byRank.has(p.rank)) byRank.set(p.rank, item);
      }
      // Ranks 0..13 where 13 stands for a high ace.
      const present = (r) => byRank.get(r === 13 ? 0 : r);
      let run = [];
      for (let r = 0; r <= 13; r += 1) {
        const item = present(r);
        if (item && !run.includes(item)) {
          run.push(item);
        } else {
          if (run.length >= 3 && (!best || run.length > best.length)) best = run;
          run = item ? [item] : [];
        }
      }
      if (run.length >= 3 && (!best || run.length > best.length)) best = run;
    }
    if (!best) break;
    take(best);
  }
  for (;;) {
    const byRank = new Map();
    for (const item of pool) {
      const p = parse(item.card);
      if (!p || jokers.has(item.card)) continue;
      const list = byRank.get(p.rank) || [];
      if (!list.some((other) => parse(other.card).suit === p.suit)) list.push(item);
      byRank.set(p.rank, list);
    }
    const set = [...byRank.values()].filter((list) => list.length >= 3).sort((a, b) => b.length - a.length)[0];
    if (!set) break;
    take(set.slice(0, 4));
  }
  // Jokers complete what is one card short: two cards of a suit a rank or two apart become a
  // sequence, two cards of one rank a set; a further joker joins a meld already made.
  const jokerItems = () => pool.filter((item) => jokers.has(item.card));
  const naturals = () => pool.filter((item) => !jokers.has(item.card) && parse(item.card));
  for (;;) {
    const wild = jokerItems();
    if (!wild.length) break;
    let made = null;
    const cards = naturals();
    for (let i = 0; i < cards.length && !made; i += 1) {
      for (let j = i + 1; j < cards.length && !made; j += 1) {
        const a = parse(cards[i].card);
        const b = parse(cards[j].card);
        if (a.suit === b.suit && Math.abs(a.rank - b.rank) === 1) {
          made = a.rank < b.rank ? [cards[i], cards[j], wild[0]] : [cards[j], cards[i], wild[0]];
        } else if (a.suit === b.suit && Math.abs(a.rank - b.rank) === 2) {
          made = a.rank < b.rank ? [cards[i], wild[0], cards[j]] : [cards[j], wild[0], cards[i]];
        } else if (a.rank === b.rank && a.suit !== b.suit) {
          made = [cards[i], cards[j], wild[0]];
        }
      }
    }
    if (!made) break;
    take(made);
  }
  const spare = jokerItems();
  if (spare.length && groups.length) {
    for (const item of spare) {
      pool.splice(pool.indexOf(item), 1);
      groups[groups.length - 1].push(item.card);
    }
  } else if (spare.length >= 2 && naturals().length) {
    // Two jokers and any card make a sequence (or a set).
    take([naturals()[0], spare[0], spare[1]]);
  }
  const rest = pool.map((item) => item.card).sort((a, b) => suitKey(a) - suitKey(b));
  return { groups, rest };
}

export class Hand {
  /**
   * @param {object} callbacks
   *   onPlay(card): the lifted card was tapped again (play it)
   *   onLift(card|null): the lifted card changed
   *   onDrop(card, zone): the card was dragged out of the hand and let go over a table zone
   *   describe(card): extra words for a card's accessible name, or ""
   */
  constructor({ storageKey, onPlay, onLift, onDrop = () => {}, describe = () => "" }) {
    this.storageKey = storageKey;
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
    this.restore();
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(this.element);
  }

  restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(this.storageKey) || "null");
      // Saved as {cards, sort}; a bare list of cards is an order saved before sorts were kept.
      const cards = Array.isArray(saved) ? saved : saved?.cards;
      if (Array.isArray(cards)) {
        this.entries = cards.map((e) => ({ card: e.card, group: e.group ?? null, uid: (uidCounter += 1), fresh: false }));
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
    for (const card of cards.map(label)) {
      const n = wanted.get(card) || 0;
      if (n > 0) {
        wanted.set(card, n - 1);
        added.push({ card, group: null, uid: (uidCounter += 1), fresh: kept.length > 0 && !quiet });
      }
    }
    const firstDeal = kept.length === 0;
    // A fresh hand (a new deal): the table animates it being dealt.
    this.dealt = firstDeal && added.length > 1;
    const key = SORT_KEYS[this.sortKind] ?? suitKey;
    if (firstDeal || sortNew) added.sort((a, b) => key(a.card) - key(b.card));
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

  sortBy(kind) {
    this.sortKind = kind === "rank" ? "rank" : "suit";
    const key = SORT_KEYS[this.sortKind];
    this.entries.sort((a, b) => key(a.card) - key(b.card));
    for (const e of this.entries) e.group = null;
    this.save();
    this.render();
  }

  /** Put cards into the given groups (lists of labels), in that order, the rest after. */
  arrange(groups, rest = null) {
    const pool = [...this.entries];
    const next = [];
    groups.forEach((group, g) => {
      for (const card of group.map(label)) {
        const i = pool.findIndex((e) => e.card === card);
        if (i >= 0) next.push({ ...pool.splice(i, 1)[0], group: g });
      }
    });
    const leftovers = rest
      ? rest.map(label).map((card) => {
          const i = pool.findIndex((e) => e.card === card);
          return i >= 0 ? pool.splice(i, 1)[0] : null;
        }).filter(Boolean)
      : [];
    for (const e of [...leftovers, ...pool]) next.push({ ...e, group: null });
    this.entries = next;
    this.sortKind = null;
    this.save();
    this.render();
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
    const nodes = this.entries.map((entry, index) => {
      const marks = this.marks.get(entry.card) || "";
      const extra = this.describe(entry.card);
      const lifted = entry.uid === this.liftedUid;
      const previous = this.entries[index - 1];
      const groupStart = index > 0 && (entry.group !== previous.group || (entry.group === null && previous.group !== null));
      const el = cardElement(entry.card, {
        tag: "button",
        extraClass: [
          "hand-card",
          lifted ? "lifted" : "",
          entry.fresh ? "fresh" : "",
          groupStart ? "group-start" : "",
          entry.group !== null ? "grouped" : "",
          marks,
        ].join(" "),
        name: extra ? `${cardName(entry.card)}, ${extra}` : cardName(entry.card),
        attrs: {
          "aria-pressed": lifted ? "true" : "false",
          tabindex: entry.uid === this.focusUid ? "0" : "-1",
          dataset: { card: entry.card, uid: String(entry.uid) },
        },
      });
      const old = this.nodes.get(entry.uid);
      if (old && old.dataset.card === entry.card) {
        old.className = el.className;
        for (const name of ["aria-label", "aria-pressed", "tabindex"]) old.setAttribute(name, el.getAttribute(name));
        return old;
      }
      this.bindPointer(el, entry.uid);
      this.nodes.set(entry.uid, el);
      return el;
    });
    const live = new Set(this.entries.map((e) => e.uid));
    for (const uid of [...this.nodes.keys()]) if (!live.has(uid)) this.nodes.delete(uid);
    this.placeNodes(nodes);
    this.element.setAttribute("aria-label", `Your hand, ${this.entries.length} cards`);
    this.layout();
    if (hadFocus) this.focusCurrent();
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
    if (!cards.length) return;
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
    entry.group = this.entries[Math.min(target, this.entries.length - 1)]?.group ?? null;
    this.entries.splice(target, 0, entry);
    this.sortKind = null;
    this.save();
    this.render();
    this.focusCurrent();
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
        // The card joins the group of the card now on its left.
        const index = this.entries.findIndex((e) => e.uid === uid);
        const neighbour = this.entries[index - 1] || this.entries[index + 1];
        const entry = entryOf();
        if (entry) entry.group = neighbour ? neighbour.group : null;
        this.focusUid = uid;
        this.suppressClickUntil = performance.now() + 400;
        this.save();
        this.render();
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
