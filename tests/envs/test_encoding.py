"""The observation vectors hold what their documented segments say."""

from __future__ import annotations

from cardtable.driver import advance
from cardtable.envs import game_spec


def _segment(game: str, players: int, seed: int, name: str) -> tuple[list[float], object]:
    spec = game_spec(game)
    engine = spec.engine
    state, _ = advance(engine, engine.new_game(spec.make_rules(players=players), seed))
    seat = engine.current_player(state)
    view = engine.view(state, seat)
    layout = spec.layout_for(players)
    vector = spec.encoder(view, layout)
    start = layout.offsets[name]
    size = dict(layout.segments)[name]
    return [float(x) for x in vector[start : start + size]], view


def test_hand_segment_counts_each_card_of_the_hand() -> None:
    for game in ("indecision", "indian-rummy", "declaration-rummy"):
        cells, view = _segment(game, 3, 5, "hand")
        hand = view.hand  # type: ignore[attr-defined]
        assert cells == [float(hand.count(card)) for card in range(len(cells))]


def test_layout_segments_tile_the_vector_without_gaps() -> None:
    for game in ("indecision", "indian-rummy", "declaration-rummy"):
        layout = game_spec(game).layout_for(4)
        end = 0
        for name, size in layout.segments:
            assert layout.offsets[name] == end
            end += size
        assert end == layout.size
        assert len(layout.describe()) == len(layout.segments)


def test_to_act_segment_marks_the_observer_when_it_is_on_turn() -> None:
    cells, _ = _segment("declaration-rummy", 4, 2, "to_act")
    assert cells == [1.0, 0.0, 0.0, 0.0, 0.0]
