// @ts-check
// Fitting the table to the window: every card size on the table is a base size (CSS, from the
// window's width and height) times --fit; after each render and resize, --fit is lowered step
// by step until the page needs no scrolling, and raised again when room comes back.

const STEPS = [1, 0.92, 0.85, 0.78, 0.72, 0.66, 0.6, 0.55, 0.5];

function overflows() {
  const doc = document.documentElement;
  return doc.scrollHeight > window.innerHeight + 0.5 || doc.scrollWidth > window.innerWidth + 0.5;
}

/**
 * Choose the largest --fit for `table` with which the page fits the window. `relayout` runs
 * after each change (the hand spreads its cards for the new card size).
 */
export function fitTable(table, relayout = () => {}) {
  if (!table || !table.isConnected) return 1;
  let chosen = STEPS[STEPS.length - 1];
  for (const step of STEPS) {
    table.style.setProperty("--fit", String(step));
    relayout();
    if (!overflows()) {
      chosen = step;
      break;
    }
  }
  table.style.setProperty("--fit", String(chosen));
  table.dataset.fit = String(chosen);
  return chosen;
}

/** Refit on window resizes and whenever a row of the table changes its height after a render
 * (a seat's clock filled in, a line wrapping), at most once a frame; returns a function that
 * stops watching. Fitting again gives the same --fit for the same content, so the rows' own
 * changes from a refit settle at once. */
export function watchFit(table, relayout) {
  let queued = false;
  const refit = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fitTable(table, relayout);
    });
  };
  window.addEventListener("resize", refit);
  const rows = new ResizeObserver(refit);
  for (const row of table.querySelectorAll(".opponents, .status-lines, .my-area, .result-banner")) rows.observe(row);
  return () => {
    window.removeEventListener("resize", refit);
    rows.disconnect();
  };
}

/** Mark the page as keyboard-driven (shows key letters) until the next touch. */
export function trackKeyboard() {
  const body = document.body;
  if (window.matchMedia("(hover: hover) and (pointer: fine)").matches) body.classList.add("keyboard");
  document.addEventListener("keydown", (event) => {
    if (!event.ctrlKey && !event.metaKey) body.classList.add("keyboard");
  }, true);
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "touch") body.classList.remove("keyboard");
  }, true);
}
