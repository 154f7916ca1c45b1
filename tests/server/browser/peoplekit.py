"""Driving a table shared between people, each in their own browser context (separate cookies,
so separate profiles): the host sets the table up on "Play with friends", the others open the
invite link, pick a name and a seat (or watch), and everyone plays through their own page.

Moves are chosen by a simple strategy from the page's own ``legal`` list and sent through the
page's own ``send`` (the same path as its buttons, with its client ids and confirmations), so
that whole games stay short on a busy machine; the controls themselves are tested elsewhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from cardtable.server.protocol.state_frames import apply_patch

from .harness import DESKTOP, PageErrors
from .tablekit import answer_panel, panel_name

CARD_LABEL = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")

DEBUG_JS = """() => ({
  table: {...(document.querySelector('.table')?.dataset || {})},
  turn: document.querySelector('#turn-line')?.textContent,
  last: document.querySelector('#last-move')?.textContent,
  toasts: [...document.querySelectorAll('.toast')].map(t => t.textContent),
  legal: window.cardtable?.view?.message?.legal,
  pending: window.cardtable?.view?.pending,
  panel: document.querySelector('dialog#panel[open]')?.dataset.panel,
})"""

INFO_JS = """() => {
  const view = window.cardtable?.view;
  const table = document.querySelector('.table');
  const dialog = document.querySelector('dialog#panel');
  return {
    version: table && table.dataset.version ? Number(table.dataset.version) : -1,
    finished: table ? table.dataset.finished === 'true' : false,
    seat: view && view.message ? view.message.seat : null,
    toMove: view && view.message ? view.message.to_move : null,
    legal: view && view.message ? view.message.legal : [],
    pending: Boolean(view && view.pending),
    panel: dialog && dialog.open ? (dialog.dataset.panel || '') : null,
  };
}"""


@dataclass
class Person:
    """One person's page (in a context of its own) and the frames its websockets received."""

    name: str
    context: BrowserContext
    page: Page
    errors: PageErrors
    frames: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0

    def info(self) -> dict[str, Any]:
        """What the page's table shows now (version, seat, legal moves, open panel)."""
        data: dict[str, Any] = self.page.evaluate(INFO_JS)
        return data


def new_person(browser: Browser, name: str, viewport: ViewportSize | None = None) -> Person:
    """A fresh browser context (its own profile cookie) with one page that records every
    websocket frame it receives and fails the test on script errors."""
    context = browser.new_context(viewport=viewport or DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(20000)
    errors = PageErrors()
    person = Person(name, context, page, errors)
    watch_page(person, page)
    return person


def watch_page(person: Person, page: Page) -> None:
    """Collect script errors and websocket frames of ``page`` into ``person``."""
    page.on(
        "pageerror",
        lambda exc: person.errors.errors.append(f"{person.name}: page error: {exc}"),
    )
    page.on(
        "console",
        lambda message: (
            person.errors.errors.append(f"{person.name}: console: {message.text}")
            if message.type == "error"
            else None
        ),
    )

    def on_socket(socket: WebSocket) -> None:
        held: list[dict[str, Any]] = []  # the socket's last whole state, as the page holds it

        def on_frame(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            frame = json.loads(text)
            person.frames.append(frame)
            # The page asks for patches: each is followed here by the whole state it leads
            # to, so that the tests read every state as the page has it.
            kind = frame.get("type")
            if kind == "patch" and held and held[0]["version"] == frame["base"]:
                held[:] = [apply_patch(held[0], frame)]
                person.frames.append(held[0])
            elif kind == "state":
                held[:] = [frame]
            elif kind == "room" and held:
                held[:] = [{**held[0], "room": frame["room"]}]

        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)


def reopen(person: Person, url: str) -> Page:
    """Open the page again in the same context (the same profile), as after closing the tab."""
    page = person.context.new_page()
    page.set_default_timeout(20000)
    watch_page(person, page)
    person.page = page
    page.goto(url)
    return page


@contextmanager
def people(browser: Browser, names: list[str]) -> Iterator[list[Person]]:
    """A person per name, each in a context of their own; the test fails on script errors."""
    made = [new_person(browser, name) for name in names]
    try:
        yield made
    finally:
        problems = [e for person in made for e in person.errors.unexpected()]
        for person in made:
            person.context.close()
        assert not problems, f"the pages reported errors: {problems}"


def host_table(
    host: Person,
    url: str,
    game: str,
    seats: list[str],
    *,
    public: bool = False,
    spectators: bool = True,
    timer: int | None = None,
    grace: int | None = None,
    rules: Callable[[Page], None] | None = None,
) -> str:
    """Set up a shared table on "Play with friends" with the mouse and keyboard: ``seats`` gives
    each seat after the host's (``open`` or a computer level). Returns the invite address."""
    page = host.page
    page.goto(url)
    page.click("#play-with-friends")
    page.wait_for_selector(".friends-form")
    page.check(f"#friends-game-{game}")
    page.wait_for_selector(f"#friends-game-{game}:checked")
    page.fill("#friends-name", host.name)
    page.select_option("#friends-players", str(len(seats) + 1))
    for index, kind in enumerate(seats):
        page.select_option(f"#friends-seat-{index + 1}", kind)
    page.set_checked("#friends-public", public)
    page.set_checked("#friends-spectators", spectators)
    if timer is not None:
        page.select_option("#friends-timer", str(timer))
    if grace is not None:
        # A test may ask for a grace the menu does not offer (the server's limits still apply).
        page.evaluate(
            """g => { const s = document.querySelector('#friends-grace');
              if (![...s.options].some(o => o.value === String(g))) {
                s.append(new Option(g + ' s', String(g)));
              }
              s.value = String(g);
              s.dispatchEvent(new Event('change')); }""",
            grace,
        )
    if rules is not None:
        rules(page)
    page.click("#create-shared")
    page.wait_for_selector(".waiting-room #invite-link")
    return page.inner_text("#invite-link")


def join_table(
    person: Person, invite: str, *, seat: int | None = None, watch: bool = False
) -> None:
    """Open the invite link, give a name and sit down (at ``seat`` if given) or watch."""
    page = person.page
    page.goto(invite)
    page.wait_for_selector("#join-name")
    page.fill("#join-name", person.name)
    if watch:
        page.click("#join-watch")
    else:
        if seat is not None:
            page.check(f"#join-seat-{seat}")
        page.click("#join-sit")
    page.wait_for_url(re.compile(r"#/table/"))
    page.wait_for_selector(".waiting-room, .table[data-version]")


def table_url(person: Person) -> str:
    """The address of the table the person's page shows."""
    return person.page.url


def wait_all_at_table(everyone: list[Person]) -> None:
    """Wait until every page shows the dealt table."""
    for person in everyone:
        person.page.wait_for_selector(".table[data-version]")


def choose(legal: list[str], turns: int, min_turns: int, game: str) -> str | None:
    """A short game: draw and discard for ``min_turns`` turns, then end the deal as soon as the
    rules allow (declare, go out, stop, show; in Indian Rummy drop). Tie proposals are left
    alone, and votes are accepted."""
    if not legal:
        return None
    finishing = ("declare", "go out", "show", "stop", "confirm", "accept")
    if turns >= min_turns:
        for prefix in finishing:
            found = [a for a in legal if a.startswith(prefix)]
            if found:
                return found[0]
        if game == "indian-rummy" and "drop" in legal:
            return "drop"
    for prefix in ("confirm", "accept"):
        found = [a for a in legal if a.startswith(prefix)]
        if found:
            return found[0]
    for prefix in ("draw stock", "draw deck"):
        if prefix in legal:
            return prefix
    discards = [a for a in legal if a.startswith("discard")]
    if discards:
        return discards[-1]
    rest = [
        a
        for a in legal
        if a != "drop" and not a.startswith(("propose", "stop", "declare", "reject"))
    ]
    return (rest or legal)[0]


HAND_JS = "() => [...document.querySelectorAll('.hand .hand-card')].map(c => c.dataset.card)"


def hand_of(person: Person) -> list[str]:
    """The cards the person's page shows in their hand."""
    cards: list[str] = person.page.evaluate(HAND_JS)
    return cards


def wait_version(person: Person, version: int) -> None:
    """Wait until the person's page shows at least ``version``."""
    person.page.wait_for_function(
        "v => Number(document.querySelector('.table').dataset.version) >= v", arg=version
    )


def send_move(person: Person, notation: str) -> None:
    """Send a move through the page's own ``send`` (the path its buttons take)."""
    # Not awaited: a move the game asks about first (a drop) waits for the panel's answer.
    person.page.evaluate("n => { window.cardtable.view.send(n); }", notation)


def play_together(
    everyone: list[Person],
    game: str,
    *,
    min_turns: int = 2,
    max_rounds: int = 600,
    on_round: Callable[[], None] | None = None,
) -> None:
    """Play until every page of ``everyone`` (people seated at the table) shows the game over:
    whoever's turn it is moves through their own page; summaries are closed and questions
    confirmed on the way."""
    players = everyone
    for _ in range(max_rounds):
        if on_round is not None:
            on_round()
        infos = [(person, person.info()) for person in players]
        acted = False
        for person, info in infos:
            if info["panel"] is not None:
                answer_panel(person.page)
                acted = True
                continue
            if info["finished"] or info["pending"] or info["seat"] is None:
                continue
            mine = info["toMove"] == info["seat"]
            votes = [a for a in info["legal"] if a.startswith("accept")]
            if not mine and not votes:
                continue
            move = choose(info["legal"], person.turns, min_turns, game)
            if move is None:
                continue
            if mine:
                person.turns += 1
            send_move(person, move)
            wait_moved(person, info["version"])
            acted = True
        if acted:
            continue
        if all(info["finished"] for _, info in infos) and not any(
            panel_name(p.page) for p in players
        ):
            return
        wait_for_someone(players, infos)
    raise AssertionError(f"the game did not end within {max_rounds} rounds: {shown(everyone)}")


def wait_moved(person: Person, version: int) -> None:
    """After a move: the page moved past ``version``, opened a panel (a question or a summary),
    or was told no (its move is no longer pending)."""
    try:
        _wait_moved(person, version)
    except PlaywrightTimeoutError:
        raise AssertionError(f"the move was not answered: {shown([person])}") from None


def _wait_moved(person: Person, version: int) -> None:
    person.page.wait_for_function(
        """v => { const t = document.querySelector('.table');
          const d = document.querySelector('dialog#panel');
          return Number(t.dataset.version) > v || (d && d.open)
            || !window.cardtable.view.pending; }""",
        arg=version,
    )


def shown(everyone: list[Person]) -> str:
    """What each page shows, for a failure's message."""
    return "; ".join(f"{p.name}: {p.page.evaluate(DEBUG_JS)}" for p in everyone)


def wait_for_someone(players: list[Person], infos: list[tuple[Person, dict[str, Any]]]) -> None:
    """Nobody could act: wait on the page of whoever is to move (a computer player's move shows
    on every page as a new version)."""
    try:
        _wait_for_someone(players, infos)
    except PlaywrightTimeoutError:
        raise AssertionError(f"the table did not move on: {shown(players)}") from None


CHANGED_JS = """v => { const t = document.querySelector('.table');
  const d = document.querySelector('dialog#panel');
  const view = window.cardtable.view;
  return (d && d.open) || Number(t.dataset.version) > v || t.dataset.finished === 'true'
    || (t.dataset.myTurn === 'true' && !view.pending); }"""


def _wait_for_someone(players: list[Person], infos: list[tuple[Person, dict[str, Any]]]) -> None:
    freshest = max(infos, key=lambda pair: pair[1]["version"])
    to_move = freshest[1]["toMove"]
    # The person to move (their page may not have the newest state yet), else any page with
    # the newest state: a computer player's move shows there as a new version.
    waiter = next(
        (pair for pair in infos if pair[1]["seat"] is not None and pair[1]["seat"] == to_move),
        freshest,
    )
    waiter[0].page.wait_for_function(CHANGED_JS, arg=waiter[1]["version"])


def hidden_cards_of(frames: list[dict[str, Any]]) -> dict[int, set[str]]:
    """From one seat's state frames: the cards in its hand at each version."""
    hands: dict[int, set[str]] = {}
    for frame in frames:
        if frame.get("type") == "state" and frame.get("seat") is not None:
            hand = frame["view"].get("hand") or []
            hands[frame["version"]] = set(CARD_LABEL.findall(json.dumps(hand)))
    return hands
