// @ts-check
// The one modal panel (a <dialog>) that menu items open, the live region, and alerts.

import { h, replaceChildren } from "./dom.js";

/** The page's one dialog. */
const panel = () => /** @type {HTMLDialogElement} */ (document.getElementById("panel"));
let onClose = null;

/** Open the panel with a title and content; returns the body element. */
export function openPanel(title, content, { wide = false, name = "", closed = null } = {}) {
  const dialog = panel();
  if (dialog.open) dialog.close();
  document.getElementById("panel-title").textContent = title;
  const body = document.getElementById("panel-body");
  replaceChildren(body, content);
  dialog.classList.toggle("wide", wide);
  dialog.dataset.panel = name;
  // Counts openings, so that one can tell a panel that replaced another one.
  dialog.dataset.opened = String(Number(dialog.dataset.opened || 0) + 1);
  onClose = closed;
  dialog.showModal();
  const focusTarget = /** @type {HTMLElement | null} */ (body.querySelector("[autofocus]") || dialog.querySelector("[data-close]"));
  focusTarget?.focus({ preventScroll: true });
  dialog.scrollTop = 0;
  return body;
}

export function closePanel() {
  const dialog = panel();
  if (dialog.open) dialog.close();
}

export function panelOpen() {
  return panel().open;
}

export function setupPanel() {
  const dialog = panel();
  dialog.addEventListener("click", (event) => {
    if (/** @type {Element} */ (event.target).closest("[data-close]")) dialog.close();
    // A click on the backdrop lands on the dialog element itself.
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener("close", () => {
    const callback = onClose;
    onClose = null;
    if (callback) callback();
  });
}

let lastAnnouncement = "";

/** Say `text` through the polite live region (repeated text is still announced). */
export function announce(text) {
  if (!text) return;
  const region = document.getElementById("announcer");
  const repeat = text === lastAnnouncement;
  lastAnnouncement = text;
  region.textContent = repeat ? `${text}\u00a0` : text;
}

/** A visible toast plus an assertive alert, for errors the player must notice. */
export function alertMessage(text, kind = "error") {
  document.getElementById("alerts").textContent = text;
  const toast = h("div", { class: `toast toast-${kind}`, role: "status" }, text);
  // An open dialog sits above the page: a toast for it is shown inside it, not hidden under it.
  const dialog = panel();
  (dialog.open ? dialog : document.body).append(toast);
  setTimeout(() => toast.classList.add("leaving"), 3200);
  setTimeout(() => toast.remove(), 3800);
}

/** A yes/no question in the panel; resolves true when confirmed. */
export function confirmPanel(title, text, yesText, noText = "Cancel", { more = null } = {}) {
  return new Promise((resolve) => {
    let answered = false;
    const yes = h("button", { type: "button", class: "btn primary" }, yesText);
    // Focus starts on the harmless answer, so a stray Enter does not end a game.
    const no = h("button", { type: "button", class: "btn", autofocus: true }, noText);
    yes.addEventListener("click", () => {
      answered = true;
      closePanel();
      resolve(true);
    });
    no.addEventListener("click", () => closePanel());
    openPanel(title, [h("p", {}, text), more, h("div", { class: "btn-row" }, yes, no)].filter(Boolean), {
      name: "confirm",
      closed: () => {
        if (!answered) resolve(false);
      },
    });
  });
}
