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

Medians over the runs; nothing fails on time. Reproduce::

    .venv/bin/python -m benchmarks.bench_page_load
    .venv/bin/python -m benchmarks.bench_page_load --runs 9
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


if __name__ == "__main__":
    main()
