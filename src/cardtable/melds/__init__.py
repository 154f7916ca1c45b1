"""Pure, game-agnostic meld solvers over card ints (layer 2: they import only ``cards`` and
``errors``).

Submodules:

* :mod:`cardtable.melds.indian`: the exact rummy partition search with two decks, printed
  jokers and a wild rank (Indian Rummy: sequences, pure sequences, sets, valid shows).
* :mod:`cardtable.melds.gin`: standard gin rummy deadwood, a preset that checks the search
  style against other engines (OpenSpiel, RLCard) on identical hands.
* :mod:`cardtable.melds.declaration`: Declaration Rummy's melds and its optional cards.
* :mod:`cardtable.melds.indecision`: the Indecision combination scorer.

Import the submodule you need; only :func:`gin_deadwood` is re-exported here.

>>> from cardtable.cards import parse_cards
>>> gin_deadwood(parse_cards("AS 2S 3S 7H 7D 7C 9C 10C KD QH"))
39
"""

from cardtable.melds.gin import gin_deadwood

__all__ = ["gin_deadwood"]
