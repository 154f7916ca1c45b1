// @ts-check
// Who is at a shared table and how they are doing: connection and "reconnecting…" countdowns,
// the turn timer and time bank, quick messages beside a name, and the ticking of every clock on
// the page. Clocks are counted down here from the server's remaining times (the server decides
// when time is up; the page only shows it).

import { h } from "./dom.js";

/** The fixed quick messages: id (sent), words (shown) and, for a reaction shown as an emoji,
 * its name for the button. No free text: nothing to moderate. The server keeps the same set. */
export const PHRASES = [
  ["hello", "Hello!"],
  ["good-luck", "Good luck"],
  ["good-game", "Good game"],
  ["well-played", "Well played"],
  ["your-turn", "Your turn"],
  ["one-moment", "One moment"],
  ["thanks", "Thanks"],
  ["laugh", "\u{1F604}", "Laughing"],
  ["wow", "\u{1F62E}", "Wow"],
  ["phew", "\u{1F605}", "Phew"],
  ["love-it", "\u2764\uFE0F", "Love it"],
];

/** The words for a quick message's text: an emoji's name, else the text itself. */
export function phraseWords(text) {
  const found = PHRASES.find(([, shown]) => shown === text);
  return found?.[2] ?? text;
}

/** How long a quick message stays beside its sender's name. */
const QUICK_SHOWN_MS = 7000;

/** "1:05" for 65 000 ms (whole seconds, rounded up so that 0:00 means time is up). */
export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** "30 seconds", "2 minutes", "1 minute 30 seconds". */
export function durationText(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const parts = [];
  if (minutes) parts.push(`${minutes} minute${minutes === 1 ? "" : "s"}`);
  if (rest || !minutes) parts.push(`${rest} second${rest === 1 ? "" : "s"}`);
  return parts.join(" ");
}

/** The table's settings in words, for the waiting room and the join page. */
export function settingsLines(settings) {
  const s = settings || {};
  const timer = s.turn_seconds
    ? `${durationText(s.turn_seconds)} a turn${s.bank_seconds ? `, plus a time bank of ${durationText(s.bank_seconds)}` : ""}`
    : "No turn timer";
  return [
    ["Table", s.public ? "Public: listed among the public tables" : "Private: only people with the link"],
    ["Spectators", s.spectators === false ? "Not allowed" : "Allowed with the link"],
    ["Turn timer", timer],
    ["If someone drops", `Their seat is kept for ${durationText(s.grace_seconds ?? 120)}, then a computer player moves for them`],
  ];
}

/** A clock element that the ticker counts down: `deadline` is a `performance.now()` time. It is
 * drawn with its time at once: an empty clock filled in by the next tick would grow its seat
 * after the table was fitted to the window. */
function clockElement(className, deadline, format, extra = {}) {
  const el = h("span", {
    class: `clock ${className}`,
    dataset: { deadline: String(deadline), format, ...extra },
  }, "");
  paintClock(el, performance.now());
  return el;
}

/** The shape of a clock's text: its length and whether it is on the bank. A clock that changes
 * shape ("0:01" becoming "Time bank 1:00", "10:00" becoming "9:59") can change its seat's
 * width or height, and so what fits in the window. */
function clockShape(el) {
  return `${el.textContent.length}${el.classList.contains("on-bank") ? "b" : ""}`;
}

/** Write the time left on one clock element at `now`; true when the clock changed shape. */
function paintClock(el, now) {
  const before = clockShape(el);
  paintTime(el, now);
  return clockShape(el) !== before;
}

function paintTime(el, now) {
  const left = Number(el.dataset.deadline) - now;
  if (el.dataset.format === "turn") {
    const bank = Number(el.dataset.bank || 0);
    if (left > 0) {
      // The bank is its own part: a crowded phone seat shows the turn's time alone.
      el.replaceChildren(clockText(left), ...(bank > 0 ? [h("span", { class: "clock-bank" }, ` + bank ${clockText(bank)}`)] : []));
      el.classList.toggle("urgent", left + bank < 10000);
    } else {
      // A crowded phone seat shows the time alone (CSS): "Time bank 1:00" is wider than its tile.
      el.replaceChildren(h("span", { class: "bank-word" }, "Time bank "), clockText(bank + left));
      el.classList.add("on-bank");
      el.title = "Time bank";
      el.classList.toggle("urgent", bank + left < 10000);
    }
  } else {
    el.textContent = clockText(left);
  }
}

/**
 * The presence of one person's seat: a dot and a word (online, reconnecting with its countdown,
 * away, left), as an element and as words for the seat's accessible name. A crowded phone seat
 * shows the dot with one short word (`data-short`, none when online) or just the countdown.
 */
export function presenceOf(entry, receivedAt) {
  if (!entry || entry.kind !== "person") return null;
  const shown = (kind, word, short, ...rest) => h("span", { class: `presence ${kind}`, dataset: { short } },
    h("span", { class: "presence-word" }, word), ...rest);
  if (entry.left) {
    return { words: "left the table, a computer player plays for them", el: shown("left", "Left · computer plays", "left") };
  }
  if (entry.away) {
    return { words: "away, a computer player moves for them", el: shown("away", "Away · computer plays", "away") };
  }
  if (!entry.connected && entry.reconnecting_ms !== null && entry.reconnecting_ms !== undefined) {
    const deadline = receivedAt + entry.reconnecting_ms;
    return { words: "reconnecting", el: shown("reconnecting", "Reconnecting… ", "", clockElement("grace", deadline, "plain")) };
  }
  if (!entry.connected) return { words: "not connected", el: shown("offline", "Not connected", "offline") };
  return { words: "online", el: shown("online", "Online", "") };
}

/** The turn clock of the seat to move (null when the table has no timer or a bot moves). */
export function turnClock(room, seat, receivedAt) {
  const turn = room?.turn;
  if (!turn || turn.seat !== seat) return null;
  return clockElement("turn-clock", receivedAt + (turn.remaining_ms ?? 0), "turn", { bank: String(turn.bank_ms ?? 0) });
}

/**
 * Count every clock under `root` down; returns a function that stops the ticking. `onTick(now,
 * reshaped)` runs after each tick, `reshaped` true when a clock's text changed shape: the table
 * is fitted to the window again in the same task, so that no frame (and no script) ever sees
 * the page overflowing between the clock's change and a refit on the next frame.
 *
 * @param {Element} root
 * @param {(now: number, reshaped: boolean) => void} [onTick]
 */
export function startTicker(root, onTick = () => {}) {
  const tick = () => {
    const now = performance.now();
    let reshaped = false;
    for (const el of root.querySelectorAll(".clock[data-deadline]")) reshaped = paintClock(el, now) || reshaped;
    onTick(now, reshaped);
  };
  tick();
  const timer = setInterval(tick, 500);
  return () => clearInterval(timer);
}

/** Quick messages kept per seat for a few seconds, so that a redraw does not lose them. */
export class QuickMessages {
  constructor() {
    this.bySeat = new Map();
  }

  add(seat, text) {
    this.bySeat.set(seat, { text, until: Date.now() + QUICK_SHOWN_MS });
  }

  /** The bubble beside `seat`'s name, or null. */
  bubble(seat) {
    const entry = this.bySeat.get(seat);
    if (!entry || entry.until < Date.now()) return null;
    return h("span", { class: "quick-bubble", dataset: { seat: String(seat) } }, entry.text);
  }

  /** When the next bubble should disappear (ms from now), or null. */
  nextExpiry() {
    const now = Date.now();
    const times = [...this.bySeat.values()].map((e) => e.until - now).filter((t) => t > 0);
    return times.length ? Math.min(...times) : null;
  }
}

/**
 * The "Say…" menu: the fixed phrases (`send(id)` sends one; none for a spectator, whose menu is
 * "Messages…"), then a Mute switch per other person at the table, which hides their quick
 * messages on this page only (`people`: [{key, name, muted}], `onMute(key, muted)`).
 * @param {{ send?: ((id: string) => void) | null, people?: { key: string, name: string, muted: boolean }[],
 *   onMute?: (key: string, muted: boolean) => void }} [options]
 */
export function quickMenu({ send = null, people = [], onMute = () => {} } = {}) {
  const close = () => {
    menu.open = false;
    menu.querySelector("summary").focus({ preventScroll: true });
  };
  const button = ([id, text, words]) => h("button", {
    type: "button",
    class: `btn small${words ? " quick-emoji" : ""}`,
    dataset: { phrase: id },
    "aria-label": words ?? null,
    title: words ?? null,
    onclick: () => {
      send(id);
      close();
    },
  }, text);
  // The words two by two, then the reactions in a row of their own.
  const phrases = send
    ? h("div", { class: "quick-list", role: "group", "aria-label": "Quick messages" },
      PHRASES.filter((p) => !p[2]).map(button),
      h("span", { class: "quick-break", "aria-hidden": "true" }),
      PHRASES.filter((p) => p[2]).map(button))
    : null;
  const mutes = people.length
    ? h("div", { class: "quick-mutes", role: "group", "aria-label": "Mute quick messages" },
      h("p", { class: "quick-mutes-title" }, "Hide the quick messages of"),
      people.map((person) => h("button", {
        type: "button",
        class: "btn small ghost quick-mute",
        dataset: { mute: person.key },
        "aria-pressed": String(Boolean(person.muted)),
        "aria-label": `Mute ${person.name}`,
        onclick: (event) => {
          const pressed = event.currentTarget.getAttribute("aria-pressed") !== "true";
          event.currentTarget.setAttribute("aria-pressed", String(pressed));
          event.currentTarget.textContent = pressed ? `${person.name} (muted)` : person.name;
          onMute(person.key, pressed);
        },
      }, person.muted ? `${person.name} (muted)` : person.name)))
    : null;
  const menu = h("details", { class: "quick-menu" },
    h("summary", { class: "btn small ghost" }, send ? "Say…" : "Messages…",
      h("span", { class: "visually-hidden" }, send ? " a quick message" : " from the players")),
    h("div", { class: "quick-panel" }, phrases, mutes,
      // On a phone the menu covers its own Say… button, and there is no Escape key.
      h("button", { type: "button", class: "btn small ghost quick-close", onclick: () => close() }, "Close")));
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      event.stopPropagation();
      close();
    }
  });
  return menu;
}

/** The people whose quick messages this page hides, kept for the browser's session per table
 * (by seat and name: someone new in the seat is heard). */
export class Mutes {
  constructor(tableId) {
    this.key = `cardtable.muted.${tableId}`;
    try {
      this.set = new Set(JSON.parse(sessionStorage.getItem(this.key) || "[]"));
    } catch {
      this.set = new Set();
    }
  }

  static keyOf(seat, name) {
    return `${seat}:${name}`;
  }

  has(key) {
    return this.set.has(key);
  }

  toggle(key, muted) {
    if (muted) this.set.add(key);
    else this.set.delete(key);
    try {
      sessionStorage.setItem(this.key, JSON.stringify([...this.set]));
    } catch {
      // Storage disabled: the mute lasts as long as the page.
    }
  }
}
