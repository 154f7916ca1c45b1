"""The ``groups`` message: a player's own groups labelled, and the solver's best arrangement.

The page keeps the player's arrangement of their hand (in the browser, per table and seat);
this module owns everything about it that needs the rules, so the page writes none of them:

* each of the player's groups labelled as the game's count reads it, with its points;
* cards the player has not placed yet (a card just drawn) put into a sensible group;
* the solver's own best arrangement (the one the count, and a declaration, use), which "Arrange
  for me" lays out, and whether the player's groups are that arrangement;
* with ``put_down`` (a declaration about to be made), the same for the cards that would be
  shown.

Only games whose melds a player arranges are served (:data:`ARRANGERS`). The arrangement is
advice and display only: a declaration is checked by the engine's solver, never by these
groups.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from cardtable.cards import Card, format_card, parse_card
from cardtable.games.indian_rummy import groups as indian_groups
from cardtable.melds.declaration import card_count, dr_best, meld_shape
from cardtable.server.protocol.messages import (
    BestGroupsJson,
    BestMeldJson,
    GroupsAnswer,
    GroupsBody,
    GroupsMessage,
    LabelledGroupJson,
    ProtocolError,
    groups_message,
)

if TYPE_CHECKING:
    from cardtable.server.table.owner import TableOwner

Partition = list[list[Card]]
Arranger = Callable[[Any, Partition, Card | None], GroupsBody]


def read_request(message: GroupsMessage) -> tuple[Partition, Card | None]:
    """The groups (card ids) and the put-down card of a ``groups`` message (its labels and
    bounds were checked when it was read,
    :data:`~cardtable.server.protocol.messages.MAX_GROUPS`).

    >>> read_request(GroupsMessage(type="groups", groups=[["5H", "6H"]]))
    ([[17, 18]], None)
    """
    groups = [[parse_card(label) for label in group] for group in message.groups]
    put_down = message.put_down
    return groups, None if put_down is None else parse_card(put_down)


def fit_to_hand(groups: Partition, hand: Sequence[Card]) -> tuple[Partition, list[Card]]:
    """The groups with only the cards the hand holds (as many copies as it holds), and the
    hand's cards no group names, in the hand's order: the page may be a move behind.

    >>> fit_to_hand([[1, 2, 99], [2, 5]], [5, 1, 2, 7])
    ([[1, 2], [5]], [7])
    """
    left = Counter(hand)
    kept: Partition = []
    for group in groups:
        mine = []
        for card in group:
            if left[card] > 0:
                left[card] -= 1
                mine.append(card)
        if mine:
            kept.append(mine)
    unplaced = []
    for card in hand:
        if left[card] > 0:
            left[card] -= 1
            unplaced.append(card)
    return kept, unplaced


def _labels(groups: Partition) -> list[list[str]]:
    return [[format_card(card) for card in group] for group in groups]


def indian_rummy(view: Any, groups: Partition, put_down: Card | None) -> GroupsBody:
    """Indian Rummy: labels and points as RULES.md 2.8 reads them, the solver's arrangement."""
    rules, wild = view.rules, view.wild_rank
    hand = list(view.hand)
    if put_down is not None and put_down not in hand:
        put_down = None
    mine, unplaced = fit_to_hand(groups, hand)
    mine = indian_groups.place(mine, unplaced, wild, rules)
    shown = mine
    if put_down is not None:
        # The cards that would be shown: the put-down card leaves whichever group holds it.
        shown = [list(group) for group in mine]
        for group in shown:
            if put_down in group:
                group.remove(put_down)
                break
        shown = [group for group in shown if group]
        hand.remove(put_down)
    evaluation = indian_groups.evaluate(shown, wild, rules)
    best = indian_groups.best_groups(hand, wild, rules) if hand else None
    ready = indian_groups.show_put_down(mine, wild, rules) if put_down is None else None
    counted = evaluation.to_json()
    best_json: BestGroupsJson | None = None
    if best is not None:
        made = best.to_json()
        best_json = BestGroupsJson(
            groups=made["groups"],
            loose=made["loose"],
            put_down=made["put_down"],
            points=made["points"],
            category=made["category"],
            valid_show=made["valid_show"],
            partition=_labels(best.partition()),
        )
    return GroupsBody(
        placed=_labels(mine),
        put_down=None if put_down is None else format_card(put_down),
        show_put_down=None if ready is None else format_card(ready),
        groups=counted["groups"],
        category=counted["category"],
        points=counted["points"],
        valid_show=counted["valid_show"],
        best=best_json,
        same_as_best=best is not None and indian_groups.same_groups(shown, best.partition()),
    )


def declaration_rummy(view: Any, groups: Partition, put_down: Card | None) -> GroupsBody:
    """Declaration Rummy: each group a meld or loose, the loose cards' count (RULES.md 3.7),
    and the count's own arrangement (``put_down`` has no meaning here and is ignored)."""
    hand = list(view.hand)
    mine, unplaced = fit_to_hand(groups, hand)
    # A card not placed yet joins a group it makes a meld of, else a group of its own.
    for card in unplaced:
        for group in mine:
            if meld_shape([*group, card]) is not None:
                group.append(card)
                break
        else:
            mine.append([card])
    labelled: list[LabelledGroupJson] = []
    for group in mine:
        shape = meld_shape(group)
        points = 0 if shape is not None else sum(card_count(card) for card in group)
        labelled.append(
            LabelledGroupJson(
                cards=[format_card(card) for card in group],
                label="loose" if shape is None else shape.kind,
                points=points,
                counts=False,
            )
        )
    count, melds, loose = dr_best(hand)
    partition = [list(meld) for meld in melds] + ([list(loose)] if loose else [])
    return GroupsBody(
        placed=_labels(mine),
        put_down=None,
        groups=labelled,
        category=None,
        points=sum(group["points"] for group in labelled),
        valid_show=None,
        best=BestGroupsJson(
            groups=[
                BestMeldJson(kind=_meld_kind(meld), cards=[format_card(card) for card in meld])
                for meld in melds
            ],
            loose=[format_card(card) for card in loose],
            put_down=None,
            points=count,
            partition=_labels(partition),
        ),
        same_as_best=indian_groups.same_groups(mine, partition),
    )


def _meld_kind(meld: Sequence[Card]) -> str:
    shape = meld_shape(meld)
    return "meld" if shape is None else shape.kind


ARRANGERS: Final[dict[str, Arranger]] = {
    "indian-rummy": indian_rummy,
    "declaration-rummy": declaration_rummy,
}
"""The games whose hands a player arranges into labelled groups, by registered name."""


async def answer(owner: TableOwner, seat: int, message: GroupsMessage) -> GroupsAnswer:
    """The ``groups`` answer for ``seat`` at ``owner``'s table, as it is now."""
    arranger = ARRANGERS.get(owner.setup.game)
    if arranger is None:
        raise ProtocolError("unknown-type", f"{owner.setup.game} hands are not arranged in groups")
    groups, put_down = read_request(message)
    version = owner.version
    view = owner.setup.engine.view(owner.state, seat)
    # The solver may take a few milliseconds (14 cards: one search per card put down).
    body = await asyncio.to_thread(arranger, view, groups, put_down)
    return groups_message(body, version=version, seq=message.seq)
