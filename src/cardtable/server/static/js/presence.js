// Who is at a shared table and how they are doing: connection and "reconnecting…" countdowns,
// the turn timer and time bank, quick messages beside a name, and the ticking of every clock on
// the page. Clocks are counted down here from the server's remaining times (the server decides
// when time is up; the page only shows it).

import { h } from "./dom.js";

/** The fixed quick messages: id (sent) and words (shown). No free text: nothing to moderate. */
export const PHRASES = [
  ["good-game", "Good game"],
  ["well-played", "Well played"],
  ["your-turn", "Your turn"],
  ["one-moment", "One moment"],
  ["thanks", "Thanks"],
];

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

/** Write the time left on one clock element at `now`. */
function paintClock(el, now) {
  const left = Number(el.dataset.deadline) - now;
  if (el.dataset.format === "turn") {
    const bank = Number(el.dataset.bank || 0);
    if (left > 0) {
      // The bank is its own part: a crowded phone seat shows the turn's time alone.
      el.replaceChildren(clockText(left), ...(bank > 0 ? [h("span", { class: "clock-bank" }, ` + bank ${clockText(bank)}`)] : []));
      el.classList.toggle("urgent", left + bank < 10000);
    } else {
      el.textContent = `Time bank ${clockText(bank + left)}`;
      el.classList.add("on-bank");
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

/** Count every clock under `root` down; returns a function that stops the ticking. */
export function startTicker(root, onTick = () => {}) {
  const tick = () => {
    const now = performance.now();
    for (const el of root.querySelectorAll(".clock[data-deadline]")) paintClock(el, now);
    onTick(now);
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

/** The "Say…" menu with the fixed phrases; `send(id)` sends one. */
export function quickMenu(send) {
  const menu = h("details", { class: "quick-menu" },
    h("summary", { class: "btn small ghost" }, "Say…", h("span", { class: "visually-hidden" }, " a quick message")),
    h("div", { class: "quick-list", role: "group", "aria-label": "Quick messages" },
      PHRASES.map(([id, text]) => h("button", {
        type: "button",
        class: "btn small",
        dataset: { phrase: id },
        onclick: () => {
          send(id);
          menu.open = false;
          menu.querySelector("summary").focus({ preventScroll: true });
        },
      }, text))));
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      event.stopPropagation();
      menu.open = false;
      menu.querySelector("summary").focus({ preventScroll: true });
    }
  });
  return menu;
}
