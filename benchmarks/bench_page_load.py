"""Page load in a real browser: what the page weighs and how soon a table can be played.

uvicorn serves the real app (SQLite in a temporary directory, computer players moving at once)
from a background thread, started and driven as the browser tests do it: headless Chromium
(Debian's ``/usr/bin/chromium``, driven by Playwright) opens it in a fresh browser context each
run, so nothing comes from the cache.

1. **Page weight.** Requests the start page makes and their bytes (the resource timing API's
   decoded body sizes: HTML, CSS, JavaScript modules, icon, and the JSON of ``/api/games`` and
   ``/api/profile``).
2. **Start screen.** Milliseconds from navigation to DOMContentLoaded, and to the start screen's
   form being drawn from the games' rules schemas.
3. **First interactive table.** Milliseconds from the click on "Deal" to the table showing the
   player's hand as buttons (the websocket's first state rendered), per game.
4. **"Play" to a playable table, cold.** In a fresh context per game: the start page, then one
   click on the game tile's "Play"; timed inside the page (a mutation observer notes the first
   frame with the hand's cards, so the driver's polling adds nothing), with the deal's
   animation finished as a second figure, and the bytes of everything the page has loaded by
   then (the first table's page weight), set against the 300 ms goal.

Medians over the runs; nothing fails on time. Reproduce::

    .venv/bin/python -m benchmarks.bench_page_load
    .venv/bin/python -m benchmarks.bench_page_load --runs 9

To compare with an earlier checkout, serve that checkout's code with this script:
``git worktree add ../before <commit>`` then
``PYTHONPATH=../before/src .venv/bin/python -m benchmarks.bench_page_load``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright
from tests.server.browser.harness import CHROMIUM, CHROMIUM_ARGS, DESKTOP, LiveServer

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
GOAL_MS = 300.0
"""The first table should be playable this soon after "Play" (the goal set for the card art)."""
RESOURCES_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  const kind = (name) => {
    const path = new URL(name).pathname;
    return path.startsWith('/api/') ? 'json' : path.split('.').pop();
  };
  const byKind = {html: nav.decodedBodySize};
  for (const r of resources) byKind[kind(r.name)] = (byKind[kind(r.name)] || 0) + r.decodedBodySize;
  const counts = {html: 1};
  for (const r of resources) counts[kind(r.name)] = (counts[kind(r.name)] || 0) + 1;
  return {
    requests: resources.length + 1,
    bytes: nav.decodedBodySize + resources.reduce((sum, r) => sum + r.decodedBodySize, 0),
    dom: nav.domContentLoadedEventEnd,
    byKind,
    counts,
  };
}"""


def one_run(browser: Browser, url: str) -> dict[str, Any]:
    """Load the start page in a fresh context, then deal each game once."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(".start-form")
    start_ready: float = page.evaluate("() => performance.now()")
    loaded: dict[str, Any] = page.evaluate(RESOURCES_JS)
    tables: dict[str, float] = {}
    for game in GAMES:
        page.goto(url)
        page.wait_for_selector(".start-form")
        page.click(f"label[for=game-{game}]")
        page.wait_for_selector(f"#game-{game}:checked")
        page.evaluate(
            "() => document.getElementById('start-button')"
            ".addEventListener('click', () => { window.__dealt = performance.now(); })"
        )
        page.click("#start-button")
        page.wait_for_selector(".table[data-version] .hand .hand-card")
        tables[game] = page.evaluate("() => performance.now() - window.__dealt")
    context.close()
    return {"start": start_ready, **loaded, "tables": tables}


PLAY_WATCH_JS = """() => {
  window.__play = null; window.__ready = null;
  document.addEventListener('click', (event) => {
    if (event.target.closest('[data-play]')) window.__play = performance.now();
  }, true);
  new MutationObserver(() => {
    if (window.__ready === null && window.__play !== null
        && document.querySelector('.table[data-version] .hand .hand-card')) {
      window.__ready = performance.now();
    }
  }).observe(document.body, {childList: true, subtree: true, attributes: true});
}"""

SETTLED_JS = """async () => {
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  return performance.now();
}"""


def play_cold(browser: Browser, url: str, game: str) -> dict[str, float]:
    """A fresh context: the start page, one click on the game's "Play", the table playable."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(f"[data-play={game}]")
    page.evaluate(PLAY_WATCH_JS)
    page.click(f"[data-play={game}]")
    page.wait_for_selector(".table[data-version] .hand .hand-card")
    page.wait_for_function("() => window.__ready !== null")
    settled: float = page.evaluate(SETTLED_JS)
    timing: dict[str, float] = page.evaluate("() => ({play: __play, ready: __ready})")
    weight: dict[str, Any] = page.evaluate(RESOURCES_JS)
    context.close()
    return {
        "playable": timing["ready"] - timing["play"],
        "settled": settled - timing["play"],
        "bytes": float(weight["bytes"]),
        "requests": float(weight["requests"]),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh page loads to measure")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium is needed at {CHROMIUM} (CARDTABLE_CHROMIUM overrides it)")
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(f"sqlite:///{Path(folder) / 'bench.db'}")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                one_run(browser, server.url)  # warm the server's caches (catalogue, engines)
                runs = [one_run(browser, server.url) for _ in range(args.runs)]
                cold = {
                    game: [play_cold(browser, server.url, game) for _ in range(args.runs)]
                    for game in GAMES
                }
                browser.close()
        finally:
            server.stop()
    first = runs[0]
    print(f"page load in headless Chromium, median of {args.runs} fresh contexts")
    print(
        f"  page weight        {first['requests']} requests, "
        f"{statistics.median(r['bytes'] for r in runs) / 1024:.1f} KiB decoded"
    )
    for kind, size in sorted(first["byKind"].items(), key=lambda item: -item[1]):
        print(f"    {kind:<5} {first['counts'][kind]:3d} files {size / 1024:7.1f} KiB")
    dom = statistics.median(r["dom"] for r in runs)
    start = statistics.median(r["start"] for r in runs)
    print(f"  DOMContentLoaded   {dom:7.1f} ms")
    print(f"  start screen drawn {start:7.1f} ms")
    for game in GAMES:
        table = statistics.median(r["tables"][game] for r in runs)
        print(f"  Deal -> {game:<18} table playable {table:7.1f} ms ({table / start:.2f}x start)")
    print(f'"Play" to a playable table, a fresh context each (goal {GOAL_MS:.0f} ms)')
    for game in GAMES:
        playable = statistics.median(r["playable"] for r in cold[game])
        settled = statistics.median(r["settled"] for r in cold[game])
        kib = statistics.median(r["bytes"] for r in cold[game]) / 1024
        requests = statistics.median(r["requests"] for r in cold[game])
        print(
            f"  {game:<18} playable {playable:6.1f} ms ({playable / GOAL_MS:.2f}x goal), "
            f"deal animation done {settled:6.1f} ms, page weight {requests:.0f} requests "
            f"{kib:.1f} KiB"
        )


if __name__ == "__main__":
    main()
