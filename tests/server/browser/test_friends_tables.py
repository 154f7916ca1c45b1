"""Tables shared between people, each through their own page in a browser context of their own
(separate cookies, so separate profiles): setting a table up on "Play with friends", the invite
link, the waiting room and its host controls, whole hands of each game with two people and a
computer player, closing the page and coming back within the grace or after it, watching (no
hidden card in any frame a spectator receives), quick messages, leaving, the lobby of public
tables, the rematch, and Declaration Rummy with six people."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from cardtable.server.settings import Settings

from .harness import DESKTOP, PHONE, LiveServer, Servers
from .peoplekit import (
    CARD_LABEL,
    Person,
    hand_of,
    hidden_cards_of,
    host_table,
    join_table,
    people,
    play_together,
    reopen,
    send_move,
    table_url,
    wait_all_at_table,
    wait_moved,
    wait_version,
)
from .tablekit import open_house_rules, set_rule, settle

pytestmark = pytest.mark.browser

SEED = 20261201


@pytest.fixture
def live(servers: Servers) -> LiveServer:
    """A server dealing from a fixed seed, with timers a tenth as long (a grace of 10 s lasts
    one second)."""
    return servers.start(Settings(rate_limits=False, test_seed=SEED, shared_time_scale=0.1))


def shoot(page: Page, shots: Path, name: str) -> None:
    """Screenshots of the page at desktop and phone sizes."""
    sizes: list[tuple[str, ViewportSize]] = [
        ("desktop", {"width": 1280, "height": 800}),
        ("phone", PHONE),
    ]
    for label, size in sizes:
        page.set_viewport_size(size)
        settle(page)
        page.screenshot(path=str(shots / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def seat_of(person: Person) -> int:
    """The seat the person's page plays."""
    seat: int = person.page.evaluate("() => window.cardtable.view.room.you.seat")
    return seat


def house_rules(values: dict[str, Any]) -> Callable[[Page], None]:
    """Set house rules on the host's form (the same controls as on the start screen); the key
    ``preset`` chooses a named set first."""

    def setter(page: Page) -> None:
        open_house_rules(page)
        for name, value in values.items():
            if name == "preset":
                page.select_option("#preset", value)
            else:
                set_rule(page, name, value)

    return setter


# One hand is the whole game: Indecision to a low target, one deal of Indian Rummy, one game of
# Declaration Rummy.
ONE_HAND: dict[str, dict[str, Any]] = {
    "indecision": {"target_score": 8},
    "indian-rummy": {"preset": "single-deal"},
    "declaration-rummy": {},
}


@pytest.mark.parametrize("game", ["indecision", "indian-rummy", "declaration-rummy"])
def test_two_people_and_a_computer_player_finish_a_hand(
    live: LiveServer, browser: Browser, shots: Path, game: str
) -> None:
    with people(browser, ["Ann", "Bob"]) as (ann, bob):
        invite = host_table(
            ann, live.url, game, ["open", "normal"], rules=house_rules(ONE_HAND[game])
        )
        assert "#/join/" in invite
        # The token is only ever in the fragment: never in a path or a query the server logs.
        assert "?" not in invite and invite.index("#") < invite.index("/join/")
        room = ann.page.locator(".waiting-room")
        expect(room.locator(".room-seat[data-kind=open]")).to_have_count(1)
        expect(ann.page.locator("#start-shared")).to_be_disabled()
        if game == "indecision":
            shoot(ann.page, shots, "friends-waiting-room-host")

        join_table(bob, invite)
        expect(room.locator(".room-seat[data-kind=person]")).to_have_count(2)
        expect(room).to_contain_text("Bob")
        expect(ann.page.locator("#start-shared")).to_be_enabled()
        if game == "indecision":
            shoot(bob.page, shots, "friends-waiting-room-guest")
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob])

        # Each page names the other person and the computer player beside their seats.
        expect(ann.page.locator(".seat.opponent", has_text="Bob")).to_have_count(1)
        expect(bob.page.locator(".seat.opponent", has_text="Ann")).to_have_count(1)
        bob_at_ann = ann.page.locator(".seat.opponent", has_text="Bob")
        expect(bob_at_ann.locator(".presence")).to_have_text("Online")
        assert seat_of(ann) != seat_of(bob)

        # A quick message shows beside the sender's name on the other page.
        bob.page.click(".quick-menu > summary")
        bob.page.click(".quick-list [data-phrase=well-played]")
        bubble = ann.page.locator(".seat.opponent", has_text="Bob").locator(".quick-bubble")
        expect(bubble).to_have_text("Well played")
        expect(ann.page.locator("#announcer")).to_contain_text("Bob says: Well played")
        if game == "indecision":
            shoot(ann.page, shots, "friends-table-quick-message")

        play_together([ann, bob], game, min_turns=2)
        for person in (ann, bob):
            expect(person.page.locator(".result-banner")).to_be_visible()
            expect(person.page.locator("#rematch-yes")).to_be_visible()
        # Both pages played the same table; every move of each person was their own.
        assert ann.page.url == bob.page.url
        assert ann.turns >= 1 and bob.turns >= 1


def test_waiting_room_host_controls_and_the_join_page(
    live: LiveServer, browser: Browser, shots: Path
) -> None:
    # A name that looks like markup is shown as the characters typed, never as markup.
    with people(browser, ["Ann", "Bob", "<b>Cy</b>"]) as (ann, bob, cy):
        invite = host_table(ann, live.url, "declaration-rummy", ["open", "open", "easy"])
        bob.page.goto(invite)
        bob.page.wait_for_selector("#join-name")
        expect(bob.page.locator(".join-form")).to_contain_text(
            "Ann invites you to Declaration Rummy"
        )
        expect(bob.page.locator(".join-seat.free")).to_have_count(2)
        shoot(bob.page, shots, "friends-join-page")
        # A name the rules refuse is said clearly and nothing changes.
        bob.page.fill("#join-name", "   ")
        bob.page.click("#join-sit")
        expect(bob.page.locator("#join-name")).to_have_attribute("aria-invalid", "true")
        expect(bob.page.locator(".toast")).to_contain_text("name")
        bob.page.fill("#join-name", "Bob")
        bob.page.check("#join-seat-2")
        bob.page.click("#join-sit")
        bob.page.wait_for_selector(".waiting-room")
        assert "/join/" not in bob.page.url
        room = ann.page.locator(".waiting-room")
        expect(room.locator(".room-seat[data-seat='2']")).to_contain_text("Bob")

        # The host puts a computer player on the empty seat, takes it out again, and removes Bob.
        ann.page.select_option("#room-level-1", "hard")
        ann.page.click(".room-seat[data-seat='1'] button:has-text('Add computer')")
        expect(room.locator(".room-seat[data-seat='1']")).to_contain_text("computer player, Hard")
        expect(ann.page.locator("#start-shared")).to_be_enabled()
        ann.page.click(".room-seat[data-seat='1'] button:has-text('Take out')")
        expect(room.locator(".room-seat[data-seat='1'][data-kind=open]")).to_have_count(1)
        ann.page.click(".room-seat[data-seat='2'] button:has-text('Remove')")
        ann.page.click("dialog#panel .btn.primary")
        expect(bob.page.locator(".table-missing")).to_contain_text("not available")
        expect(room.locator(".room-seat[data-kind=open]")).to_have_count(2)
        # Removing Bob replaced the invite link: the host's page shows the new one.
        expect(ann.page.locator("#invite-link")).not_to_have_text(invite)
        invite = ann.page.inner_text("#invite-link")

        # Someone else joins as a spectator and then takes a free seat before the start.
        join_table(cy, invite, watch=True)
        expect(cy.page.locator(".waiting-room")).to_contain_text("You are watching")
        expect(room).to_contain_text("1 watching")
        cy.page.click(".room-seat[data-seat='1'] button:has-text('Sit here')")
        expect(room.locator(".room-seat[data-seat='1'] .room-name")).to_have_text("<b>Cy</b>")
        expect(room.locator(".room-seat[data-seat='1'] b")).to_have_count(0)
        ann.page.select_option("#room-level-2", "easy")
        ann.page.click(".room-seat[data-seat='2'] button:has-text('Add computer')")
        ann.page.click("#start-shared")
        wait_all_at_table([ann, cy])
        expect(cy.page.locator(".seat.opponent", has_text="Ann")).to_have_count(1)
        cy_seat = ann.page.locator(".seat.opponent[data-seat='1'] .seat-name")
        expect(cy_seat).to_have_text("<b>Cy</b>")
        expect(ann.page.locator(".seat.opponent b")).to_have_count(0)
        # The start page lists the game among the games in progress, as one with friends.
        ann.page.goto(live.url)
        expect(ann.page.locator(".resume")).to_contain_text("Declaration Rummy with friends")


def test_closing_the_page_mid_turn_and_coming_back_within_the_grace(
    live: LiveServer, browser: Browser
) -> None:
    with people(browser, ["Ann", "Bob"]) as (ann, bob):
        invite = host_table(
            ann,
            live.url,
            "indecision",
            ["open"],
            grace=300,
            timer=300,
            rules=house_rules(ONE_HAND["indecision"]),
        )
        join_table(bob, invite)
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob])
        # The turn timer runs on the page of the person to move and beside their seat elsewhere.
        first = ann if ann.info()["toMove"] == ann.info()["seat"] else bob
        other = bob if first is ann else ann
        expect(first.page.locator(".my-clock .turn-clock")).to_have_text(re.compile(r"\d:\d\d"))
        at_other = other.page.locator(f".seat.opponent[data-seat='{seat_of(first)}'] .turn-clock")
        expect(at_other).to_contain_text("bank")
        url = table_url(bob)
        # Play until it is Bob's turn, then close his page before he moves.
        for _ in range(20):
            info = bob.info()
            if info["toMove"] == info["seat"]:
                break
            ann_info = ann.info()
            move = next(a for a in ann_info["legal"] if a.startswith(("draw", "discard")))
            send_move(ann, move)
            wait_moved(ann, ann_info["version"])
            wait_version(bob, ann_info["version"] + 1)
        before = bob.info()
        assert before["toMove"] == before["seat"]
        hand_before = hand_of(bob)
        bob.page.close()
        seat_el = ann.page.locator(f".seat.opponent[data-seat='{before['seat']}']")
        expect(seat_el.locator(".presence.reconnecting")).to_contain_text("Reconnecting…")
        expect(seat_el.locator(".clock.grace")).to_have_text(re.compile(r"^[01]:\d\d$"))

        # Reopening the invite link (as on another device of the same profile) resumes the seat.
        page = reopen(bob, invite)
        page.wait_for_url(url)
        page.wait_for_selector(".table[data-version]")
        after = bob.info()
        # The same seat, the same position, the same hand: nothing was played or lost.
        assert after["seat"] == before["seat"] and after["version"] == before["version"]
        assert sorted(hand_of(bob)) == sorted(hand_before)
        expect(seat_el.locator(".presence")).to_have_text("Online")
        move = next(a for a in after["legal"] if a.startswith("draw"))
        send_move(bob, move)
        wait_moved(bob, after["version"])
        # The page may be told the move's state before it draws it (a queued state is drawn
        # after the one on the screen): wait for it drawn, then check it is the only one.
        wait_version(bob, after["version"] + 1)
        assert bob.info()["version"] == after["version"] + 1
        # The move was applied once: exactly one new version on the other page too.
        wait_version(ann, after["version"] + 1)
        assert ann.info()["version"] == after["version"] + 1


def test_away_past_the_grace_a_computer_player_moves_then_the_seat_is_reclaimed(
    live: LiveServer, browser: Browser, shots: Path
) -> None:
    with people(browser, ["Ann", "Bob"]) as (ann, bob):
        invite = host_table(ann, live.url, "indecision", ["open"], grace=10)
        join_table(bob, invite)
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob])
        url = table_url(bob)
        bob_seat = seat_of(bob)
        start = bob.info()["version"]
        bob.page.close()
        seat_el = ann.page.locator(f".seat.opponent[data-seat='{bob_seat}']")
        expect(seat_el.locator(".presence.away")).to_be_visible()
        expect(ann.page.locator("#announcer")).to_contain_text("Bob is away")
        # Ann plays on; the computer player answers for Bob (a move of his seat marked auto).

        def bot_moved_for_bob() -> bool:
            frames = [f for f in ann.frames if f.get("type") == "state" and f["version"] > start]
            return any(
                (f.get("last_action") or {}).get("seat") == bob_seat
                and (f.get("last_action") or {}).get("auto") == "away"
                for f in frames
            )

        for _ in range(30):
            if bot_moved_for_bob():
                break
            info = ann.info()
            if info["finished"]:
                break
            if info["toMove"] == info["seat"]:
                move = next(a for a in info["legal"] if a.startswith(("draw", "discard")))
                send_move(ann, move)
                wait_moved(ann, info["version"])
            else:
                wait_version(ann, info["version"] + 1)
        moves = [
            (f["version"], f.get("last_action")) for f in ann.frames if f.get("type") == "state"
        ]
        assert bot_moved_for_bob(), f"no move was made for the away seat: {moves}"
        page = reopen(bob, url)
        page.wait_for_selector(".table[data-version]")
        assert seat_of(bob) == bob_seat
        note = page.locator(".away-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text("You were away:")
        expect(note).to_contain_text("played for you")
        shoot(page, shots, "friends-you-were-away")
        expect(seat_el.locator(".presence")).to_have_text("Online")
        page.click(".away-note button")
        expect(note).to_be_hidden()


def test_a_spectator_never_receives_a_hidden_card_and_sees_no_hand(
    live: LiveServer, browser: Browser, shots: Path
) -> None:
    with people(browser, ["Ann", "Bob", "Eve"]) as (ann, bob, eve):
        invite = host_table(ann, live.url, "declaration-rummy", ["open"])
        join_table(bob, invite)
        join_table(eve, invite, watch=True)
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob, eve])
        expect(eve.page.locator(".table.spectating")).to_have_count(1)
        expect(eve.page.locator(".hand .hand-card")).to_have_count(0)
        expect(eve.page.locator(".actions button")).to_have_count(0)
        expect(eve.page.locator(".me-info")).to_contain_text("Watching")
        expect(eve.page.locator(".seat.opponent")).to_have_count(2)
        expect(eve.page.locator(".seat.opponent", has_text="Ann")).to_have_count(1)
        shoot(eve.page, shots, "friends-spectator")
        play_together([ann, bob], "declaration-rummy", min_turns=4)
        eve.page.wait_for_selector(".table[data-finished=true]")

        hands = [hidden_cards_of(ann.frames), hidden_cards_of(bob.frames)]
        # What the people could see of each other's cards at each version (a card taken from
        # the discard pile is public): a spectator may see exactly that, never more.
        public: dict[int, set[str]] = {}
        for frames in (ann.frames, bob.frames):
            for frame in frames:
                if frame.get("type") == "state":
                    view = {k: v for k, v in frame["view"].items() if k != "hand"}
                    seen = CARD_LABEL.findall(json.dumps(view))
                    public.setdefault(frame["version"], set()).update(seen)
        assert eve.frames, "the spectator's page received no frame"
        version: int | None = None
        checked_states = 0
        for frame in eve.frames:
            if frame.get("type") == "state":
                assert frame["seat"] is None and frame["legal"] == []
                assert not frame["view"].get("hand")
                if frame.get("result") is not None:
                    # The game is over: hands are shown to everyone.
                    version = None
                    continue
                version = frame["version"]
                checked_states += 1
            elif frame.get("type") == "patch":
                # A patch is checked against what was hidden at the version it leads to (the
                # whole state it leads to follows it in the frames, checked as above).
                ended = frame["set"].get("result") is not None
                version = None if ended else frame["version"]
            if version is None:
                continue
            secret = set().union(*(seat_hands.get(version, set()) for seat_hands in hands))
            secret -= public.get(version, set())
            leaked = set(CARD_LABEL.findall(json.dumps(frame))) & secret
            kind = frame.get("type")
            assert not leaked, f"a spectator frame ({kind}) holds hidden cards {leaked}"
        assert checked_states >= 4


def test_leaving_a_table_hands_the_seat_to_a_computer_player(
    live: LiveServer, browser: Browser
) -> None:
    with people(browser, ["Ann", "Bob"]) as (ann, bob):
        invite = host_table(
            ann, live.url, "indecision", ["open"], rules=house_rules(ONE_HAND["indecision"])
        )
        join_table(bob, invite)
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob])
        bob_seat = seat_of(bob)
        bob.page.click(".table-tools .leave")
        dialog = bob.page.locator("dialog#panel[open]")
        expect(dialog).to_contain_text("Leave this table?")
        expect(dialog).to_contain_text("computer player")
        dialog.locator(".btn", has_text="Stay").click()
        expect(bob.page.locator(".table")).to_be_visible()
        # The menu never abandons a table shared with people: its item leaves, asked the same way.
        bob.page.click("#menu-button")
        menu_item = bob.page.locator("[data-menu=abandon]")
        expect(menu_item).to_have_text("Leave this table")
        menu_item.click()
        expect(dialog).to_contain_text("Leave this table?")
        dialog.locator(".btn", has_text="Stay").click()
        expect(bob.page.locator(".table")).to_be_visible()
        bob.page.click(".table-tools .leave")
        bob.page.click("dialog#panel .btn.primary")
        bob.page.wait_for_selector(".start-screen")
        seat_el = ann.page.locator(f".seat.opponent[data-seat='{bob_seat}']")
        expect(seat_el.locator(".presence.left")).to_be_visible()
        play_together([ann], "indecision", min_turns=2)
        expect(ann.page.locator(".result-banner")).to_be_visible()


def test_lobby_and_rematch(live: LiveServer, browser: Browser, shots: Path) -> None:
    with people(browser, ["Ann", "Bob"]) as (ann, bob):
        host_table(
            ann,
            live.url,
            "indecision",
            ["open"],
            public=True,
            rules=house_rules(ONE_HAND["indecision"]),
        )
        bob.page.goto(live.url + "#/lobby")
        row = bob.page.locator(".lobby-table tbody tr", has_text="Ann")
        expect(row).to_contain_text("Indecision")
        expect(row).to_contain_text("1 of 2 seats free")
        shoot(bob.page, shots, "friends-lobby")
        row.locator("a", has_text="Join").click()
        bob.page.wait_for_selector("#join-name")
        bob.page.fill("#join-name", "Bob")
        bob.page.click("#join-sit")
        bob.page.wait_for_selector(".waiting-room")
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob])
        first = ann.page.url
        play_together([ann, bob], "indecision", min_turns=1)
        ann.page.click("#rematch-yes")
        expect(ann.page.locator(".rematch-status")).to_contain_text("Waiting for Bob")
        expect(bob.page.locator(".rematch-status")).to_contain_text("Ann wants a rematch")
        shoot(bob.page, shots, "friends-rematch-offer")
        bob.page.click("#rematch-yes")
        for person in (ann, bob):
            person.page.wait_for_url(lambda url: url != first and "#/table/" in url)
        assert ann.page.url == bob.page.url
        wait_all_at_table([ann, bob])
        # The same people in the same seats, a fresh deal.
        expect(ann.page.locator(".seat.opponent", has_text="Bob")).to_have_count(1)
        assert ann.info()["finished"] is False


def test_declaration_rummy_with_six_people(live: LiveServer, browser: Browser, shots: Path) -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eli", "Fay"]
    with people(browser, names) as everyone:
        host, guests = everyone[0], everyone[1:]
        invite = host_table(host, live.url, "declaration-rummy", ["open"] * 5)
        for guest in guests:
            join_table(guest, invite)
        expect(host.page.locator(".room-seat[data-kind=person]")).to_have_count(6)
        host.page.click("#start-shared")
        wait_all_at_table(everyone)
        expect(host.page.locator(".seat.opponent")).to_have_count(5)
        shoot(guests[2].page, shots, "friends-six-people")
        play_together(everyone, "declaration-rummy", min_turns=1)
        for person in everyone:
            expect(person.page.locator(".result-banner")).to_be_visible()
