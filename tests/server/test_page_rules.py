"""The page renders, the server knows the rules: no game rule is written again in the page's
JavaScript (src/cardtable/server/static/js).

Each check names what the server now sends in its place: the structured moves of the state
message (no notation is parsed in the page), the stop's warning, Indian Rummy's jokers and card
points, Declaration Rummy's deal sizes and unmelded points, the move sentences and the computer
players' names. A rule copied back into a module fails here with the module and the line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.games.declaration_rummy.rules import DEAL_SIZES
from cardtable.server.people.names import BOT_NAMES

JS = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "server" / "static" / "js"
MODULES = sorted(JS.rglob("*.js"))
LABEL_MODULES = {JS / "cards.js", JS / "speech.js"}
"""The modules that read and draw card labels (a label is data, not a rule: ``7H`` is drawn
as a seven of hearts, with a court picture from the jack up, and spoken as "seven of hearts")."""
GAME_MODULES = [module for module in MODULES if module not in LABEL_MODULES]


def _lines(path: Path) -> list[tuple[int, str]]:
    """The module's code lines without their comments (a comment may name a rule it does not
    apply): comment lines (``//``, and the ``/** … */`` blocks, whose lines start with ``*``)
    are left out, and a ``//`` comment after code is cut off."""
    lines = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.lstrip().startswith(("//", "/*", "*")):
            continue
        lines.append((number, re.sub(r"\s//\s.*$", "", line)))
    return lines


def _offences(pattern: re.Pattern[str], modules: list[Path] = MODULES) -> list[str]:
    return [
        f"{path.relative_to(JS)}:{number}: {line.strip()}"
        for path in modules
        for number, line in _lines(path)
        if pattern.search(line)
    ]


def test_the_page_has_modules_to_scan() -> None:
    assert JS / "table.js" in MODULES and JS / "games" / "indian_rummy.js" in MODULES


def test_no_notation_is_parsed_in_the_page() -> None:
    # The moves come structured (kind, cards, number): no regex for verbs or card tokens in a
    # notation, no splitting a notation into words.
    verbs = re.compile(r"/\^?\(?(draw|discard|stop|declare|take|drop)\b")
    assert _offences(verbs) == []
    tokens = re.compile(r"\[2-9AJQKT?\]|\[SHDC\]")
    assert _offences(tokens, GAME_MODULES) == []
    split = re.compile(r"(action|notation)\.(split|startsWith)\(")
    assert _offences(split) == []
    assert _offences(re.compile(r"\bparseAction\b")) == []


def test_no_card_value_table_is_in_the_page() -> None:
    # Indian Rummy's loose points and Declaration Rummy's unmelded points come with the hands.
    values = re.compile(r"\b(cardValue|countValue|cardPoints)\b|\bJ:\s*1[01]\b|rank\s*>=\s*10")
    assert _offences(values, GAME_MODULES) == []


def test_no_joker_rule_is_in_the_page() -> None:
    # The seat's jokers (and whether the pile's top is one) are the state's `own.jokers`.
    jokers = re.compile(r"\bisJoker\b|\.rank\s*===\s*rank\b|wildRank\(ctx\.view\)")
    assert _offences(jokers) == []


def test_no_stop_check_is_in_the_page() -> None:
    # A stop that would score 0 carries the server's warning, which reads the table's options.
    stop = re.compile(r"\bstopProblems\b|\binRun\b|cards score|had a turn")
    assert _offences(stop) == []


def test_no_deal_size_table_is_in_the_page() -> None:
    # The bounds of `cards_dealt` by player count are the rules schema's `bounds_by`.
    entries = "|".join(
        rf"{players}:\s*\[\s*{low},\s*{high}\s*\]" for players, (low, high) in DEAL_SIZES.items()
    )
    assert _offences(re.compile(rf"\bDEAL_SIZES\b|{entries}")) == []


def test_no_computer_player_name_is_in_the_page() -> None:
    # The names come with the seats (and the catalogue's `computer_names`).
    names = re.compile(r"[\"'`](" + "|".join(map(re.escape, BOT_NAMES)) + r")[\"'`]")
    assert _offences(names) == []


@pytest.mark.parametrize("phrase", ["drew from the", "took the discard", "laid down", "went out"])
def test_no_move_sentence_is_in_the_page(phrase: str) -> None:
    # The last move's sentence is the state's `last_action.said`, the server's own words.
    assert _offences(re.compile(re.escape(phrase), re.I)) == []


def test_only_the_base_module_says_the_last_move() -> None:
    defining = {
        path.relative_to(JS).as_posix() for path in MODULES if "moveText(" in path.read_text()
    }
    callers = {"table_views.js"}
    assert defining - callers == {"games/base.js"}
    base = (JS / "games" / "base.js").read_text()
    assert "return last.said" in base


def test_no_drop_cost_is_chosen_in_the_page() -> None:
    # What a drop costs (the first drop before the seat draws, the middle drop after) is the
    # move's `cost` and `cost_words`: the page neither reads the drop rules nor picks between
    # them on whether the seat has drawn, and writes no default cost of its own.
    rules = re.compile(r"\b(first_drop|middle_drop)\b|\bhas_drawn\b")
    assert _offences(rules) == []
    costs = re.compile(r"[Dd]rop\w*\s*\?\?\s*\d")
    assert _offences(costs) == []


def test_no_rule_default_is_written_in_the_page() -> None:
    # A rule's value comes with the table's rules (the view's `rules`) or its schema's
    # default (`rules_schema`): a rule read with a number of the page's own behind it
    # (`rules?.wrong_show_penalty ?? 80`, `values.match_wins ?? 2`) restates the rule.
    defaults = re.compile(r"\b(rules\??\.\w+|values\.\w+)\s*\?\?\s*[1-9]")
    assert _offences(defaults) == []
