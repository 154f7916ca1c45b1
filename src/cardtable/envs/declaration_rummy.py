"""Declaration Rummy as the research environments see it: its action table, observation and
OpenSpiel facts (the ``research`` part of the game's spec).

Actions (138): ``0`` draw stock, ``1`` take extra, ``2`` decline, ``3`` declare, ``4`` go out,
``5`` four sevens, ``6`` propose tie, ``7`` accept tie, ``8`` reject tie, ``9`` drop, ``10``
next game (unchanged rules), ``11 + c`` discard ``c`` (``c`` in 0..62), ``74 + k - 1`` take
the top ``k`` discards (``k`` 1..64; more than one only with the Spread-Out Discard-Pile). A
``next game`` that changes the rules has no number.

Observation (63 card ids): ``hand``, ``drawn``, ``discard_top``, ``discard_pile`` (only
with the Spread-Out Discard-Pile, where the table shows it), ``discarded`` and ``known``
(n x 63 each, **presence** 0/1 rather than counts: the view's sets of cards each seat discarded
since the deal and took face up without discarding since), ``stock_level`` and ``pile_level``
(one-hot 0-5: the no-counting rule leaves only the stack's look), ``phase``, ``draw_kind``,
``to_act``, ``turn``, ``dealer`` (relative), ``hand_sizes`` (/ 10), ``dropped``, ``exhaustion``,
``tie_proposers`` (n: seats that proposed a tie this turn), ``tie_accepted`` (n), ``tie_pending``
(n), ``match_wins`` (n, / wins needed).
No exact pile or stock size and no count of discards appears, so the vector keeps the rule.

"""

from __future__ import annotations

from typing import Final

from cardtable.games.declaration_rummy import actions as dr
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import DrawKind
from cardtable.games.declaration_rummy.state import Phase as DeclarationPhase
from cardtable.games.declaration_rummy.view import DeclarationRummyView

from .actions import ActionIndex
from .encoding import Layout, Vector, Writer, rel, rotate
from .spec import GameSpec

MAX_TAKE: Final = 64
"""Most cards a spread pile can hold: every card of the largest pack (52 + 12 optional)."""

ACTIONS: Final = ActionIndex(
    "declaration-rummy",
    (
        dr.DRAW_STOCK,
        dr.TAKE_EXTRA,
        dr.DECLINE,
        dr.DECLARE,
        dr.GO_OUT,
        dr.FOUR_SEVENS,
        dr.PROPOSE_TIE,
        dr.ACCEPT_TIE,
        dr.REJECT_TIE,
        dr.DROP,
        dr.NEXT_GAME,
        *dr.DISCARDS,
        dr.TAKE_DISCARD,
        *(dr.TakeDiscard(k) for k in range(2, MAX_TAKE + 1)),
    ),
)


# --- Observation ---------------------------------------------------------------------------------

DECLARATION_RUMMY_CARDS: Final = 63
"""Card ids of the pack: 0..51, then the optional and special cards."""
_DECLARATION_PHASES: Final = tuple(DeclarationPhase)
_DRAW_KINDS: Final = tuple(DrawKind)


def declaration_rummy_layout(players: int) -> Layout:
    """The Declaration Rummy vector's segments for ``players`` seats."""
    c, n = DECLARATION_RUMMY_CARDS, players
    return Layout(
        [
            ("hand", c), ("drawn", c), ("discard_top", c), ("discard_pile", c),
            ("discarded", n * c), ("known", n * c), ("stock_level", 6), ("pile_level", 6),
            ("phase", len(_DECLARATION_PHASES)), ("draw_kind", len(_DRAW_KINDS)),
            ("to_act", n + 1), ("turn", n + 1), ("dealer", n + 1), ("hand_sizes", n),
            ("dropped", n), ("exhaustion", 1), ("tie_proposers", n), ("tie_accepted", n),
            ("tie_pending", n), ("match_wins", n),
        ]
    )  # fmt: skip


def encode_declaration_rummy(view: DeclarationRummyView, layout: Layout) -> Vector:
    """The Declaration Rummy vector of ``view`` (see the module docstring)."""
    rules = view.rules
    n, me, c = rules.players, view.seat, DECLARATION_RUMMY_CARDS
    w = Writer(layout.size)
    w.cards(view.hand, c)
    w.cards(view.drawn, c)
    w.one(view.discard_top, c)
    w.cards(view.discard_pile or (), c)
    # The view's public history since the deal: per seat, sets of cards (its no-counting form).
    for k in range(n):
        w.cards(view.discarded_by((me + k) % n), c)
    for k in range(n):
        w.cards(view.held_by((me + k) % n), c)
    w.one(view.stock_level, 6)
    w.one(view.pile_level, 6)
    w.one(_DECLARATION_PHASES.index(view.phase), len(_DECLARATION_PHASES))
    w.one(_DRAW_KINDS.index(view.draw_kind), len(_DRAW_KINDS))
    w.one(rel(view.to_act, me, n), n + 1)
    w.one(rel(view.turn, me, n), n + 1)
    w.one(rel(view.dealer, me, n), n + 1)
    w.values([size / 10 for size in rotate(view.hand_sizes, me)])
    w.values([1.0 if d else 0.0 for d in rotate(view.dropped, me)])
    w.values([1.0 if view.exhaustion else 0.0])
    proposers = set(view.tie_proposers)
    w.values([1.0 if (me + k) % n in proposers else 0.0 for k in range(n)])
    vote = view.vote
    accepted = set(vote.accepted) if vote is not None else set()
    pending = set(vote.pending) if vote is not None else set()
    w.values([1.0 if (me + k) % n in accepted else 0.0 for k in range(n)])
    w.values([1.0 if (me + k) % n in pending else 0.0 for k in range(n)])
    wins = max(1, rules.match_wins)
    w.values([won / wins for won in rotate(view.match_wins, me)])
    return w.done()


def max_game_length(rules: Rules) -> int:
    """Each game of the match: every seat's turn up to the turn cap, the deal and the end."""
    games = int(rules.match_game_cap) if rules.match else 1
    return games * (int(rules.turn_cap) * (2 + int(rules.players)) + int(rules.players) + 2)


RESEARCH: Final = GameSpec(
    name="declaration-rummy",
    title="Declaration Rummy",
    actions=ACTIONS,
    layout_for=declaration_rummy_layout,
    encoder=encode_declaration_rummy,
    default_players=4,
    max_game_length=max_game_length,
)
"""Declaration Rummy's research spec, named by its registry declaration."""
