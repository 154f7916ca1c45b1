"""Concrete positions for bot and coach tests, one builder per game, turned into views."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from cardtable.cards import parse_cards
from cardtable.games.declaration_rummy.rules import Rules as DRRules
from cardtable.games.declaration_rummy.state import Phase as DRPhase
from cardtable.games.declaration_rummy.state import scenario as dr_scenario
from cardtable.games.indecision.engine import ENGINE as IND
from cardtable.games.indecision.rules import Rules as IndRules
from cardtable.games.indecision.state import Phase as IndPhase
from cardtable.games.indecision.state import State, Table, event
from cardtable.games.indian_rummy.rules import Rules as IRRules
from cardtable.games.indian_rummy.state import Phase as IRPhase
from cardtable.games.indian_rummy.state import scenario as ir_scenario
from cardtable.registry import get_engine
from engine_moves import decisions


def indecision(
    hands: Sequence[str],
    *,
    pile: str = "2C",
    to_act: int = 0,
    phase: IndPhase = IndPhase.DISCARD,
    had_turn: Sequence[int] = (0, 1),
    totals: Sequence[int] = (0, 0),
    rules: IndRules | None = None,
    events: Sequence[tuple[str, int, str]] = (),
) -> State:
    """An Indecision hand in progress: seat ``to_act`` holds ``hands[to_act]`` (six cards in
    the discard phase), the deck holds every card not placed; ``events`` adds public events
    ``(verb, seat, card)`` such as ``("take-discard", 1, "7H")``."""
    rules = rules or IndRules(players=len(hands))
    held = tuple(parse_cards(h) for h in hands)
    pile_cards = parse_cards(pile)
    used = {c for hand in held for c in hand} | set(pile_cards)
    deck = tuple(c for c in range(52) if c not in used)
    base = IND.new_game(rules, 0)
    table = Table(
        rules=rules,
        seed=0,
        dealer=len(hands) - 1,
        hand_number=1,
        totals=tuple(totals),
        cut_rounds=(),
        cutters=(),
        last_hand=None,
        winners=(),
        end_reason="",
        scorer=base.table.scorer,
    )
    log = [event("deal", len(hands) - 1)]
    for verb, seat, card in events:
        log.append(event(verb, seat, parse_cards(card)[0] if card else 0))
    drawn = held[to_act][-1] if phase is IndPhase.DISCARD else -1
    return State(
        table=table,
        phase=phase,
        chance_steps=1,
        hands=held,
        deck=deck,
        pile=pile_cards,
        to_act=to_act,
        turns=max(1, len(had_turn)),
        had_turn=sum(1 << s for s in had_turn),
        drawn=drawn,
        drawn_from_pile=False,
        events=tuple(log),
        counting=None,
    )


def indian(
    hands: Sequence[str],
    *,
    wild: str | None = "KH",
    pile: str = "2C",
    phase: IRPhase = IRPhase.DISCARD,
    drawn: str | None = None,
    turn: int = 0,
    has_drawn: Sequence[bool] | None = None,
    rules: IRRules | None = None,
    turns: int = 6,
) -> Any:
    """An Indian Rummy deal in progress (see its ``scenario``); in the discard phase the seat
    on turn holds 14 cards and ``drawn`` defaults to its last card."""
    rules = rules or IRRules(deals=1)
    if phase is IRPhase.DISCARD and drawn is None:
        drawn = hands[turn].split()[-1]
    return ir_scenario(
        rules,
        hands,
        pile=pile,
        wild_card=wild if rules.wild_joker_cut else None,
        dealer=(turn - 1) % rules.players,
        turn=turn,
        phase=phase,
        drawn=drawn,
        has_drawn=has_drawn if has_drawn is not None else (True,) * rules.players,
        turns=turns,
    )


def declaration(
    hands: Sequence[str],
    *,
    stock: str | None = None,
    pile: str = "",
    phase: DRPhase = DRPhase.PLAY,
    drawn: str | None = None,
    turn: int = 0,
    rules: DRRules | None = None,
    exhaustion: bool = False,
) -> Any:
    """A Declaration Rummy game in progress; the stock holds every unplaced regular card unless
    given (top last); in the play phase the seat on turn has drawn its last card."""
    rules = rules or DRRules(players=len(hands))
    if stock is None:
        placed: set[int] = set()
        for text in (*hands, pile):
            placed |= set(parse_cards(text, deck=None))
        # The rest of the regular cards, minus a few that would be in the pile unseen.
        stock_cards: Any = tuple(c for c in range(52) if c not in placed)
    else:
        stock_cards = stock
    if phase is DRPhase.PLAY and drawn is None:
        drawn = hands[turn].split()[-1]
    return dr_scenario(
        rules,
        hands,
        stock=stock_cards,
        pile=pile,
        dealer=(turn - 1) % rules.players,
        turn=turn,
        phase=phase,
        drawn=drawn or "",
        exhaustion=exhaustion,
        turns=4,
    )


def decision_states(
    game: str, rules: Any, seed: int, limit: int = 400, *, guide: Any = None, mix: float = 0.5
) -> list[Any]:
    """Every seat decision of one game played by random legal moves (seeded); with a ``guide``
    bot, a share ``mix`` of the moves are the guide's, so hands take shape as in real play
    (its moves never drop out)."""
    engine = get_engine(game)
    rng = random.Random(seed)

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        if guide is not None and rng.random() < mix:
            return guide.choose(engine.view(state, seat), legal, rng)
        calm = [a for a in legal if str(a) not in ("drop",)] if guide is not None else legal
        return (calm or legal)[rng.randrange(len(calm or legal))]

    game_start = engine.new_game(rules, seed)
    return [met.state for met in decisions(engine, game_start, choose, limit=limit)]


def default_rules(game: str, players: int = 2) -> Any:
    """The default preset of ``game`` for ``players`` seats (one deal per Indian Rummy game)."""
    rules = get_engine(game).presets()["default"]
    changes: dict[str, Any] = {"players": players}
    if game == "indian-rummy":
        changes["deals"] = 1
    return dataclasses.replace(rules, **changes)
