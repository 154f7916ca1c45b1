"""``cardtable play GAME``: play a game in the terminal against computer seats.

The loop is the same for every game: the driver runs chance steps, computer seats choose from
their views, and the person types an action in the game's notation (or the number of a legal
action). ``?`` lists the legal actions, ``hint`` asks the coach, ``quit`` leaves (saving the
record when ``--save`` was given). A mistyped or illegal action gets a one-line answer naming
the problem and the game goes on from the same state. A move the game warns about (an
Indecision stop that would score 0, under ``warn_invalid_stop``) is played only once the person
confirms it, as in the browser.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cardtable import coach as coaching
from cardtable.cards import format_card
from cardtable.cli.common import bot_for, fail, move_warning_of, renderers
from cardtable.cli.records import save_record
from cardtable.cli.rule_flags import apply_rule_options, build_rules
from cardtable.driver import advance
from cardtable.errors import CardtableError
from cardtable.games.contract import TERMINAL
from cardtable.registry import AnyEngine, game_names, get_engine, get_spec, load, specs
from cardtable.replay import record_of

HELP_TEXT = (
    "Type an action in the game's notation (for example 'discard 7H', or 'discard 3' for the "
    "third card of your hand), or the number of a legal action. 'S' draws from the stock, 'D' "
    "takes the discard, '?' lists the legal actions, 'hint' asks the coach, 'quit' leaves."
)
# One-key draws, as in the browser: the first legal action with one of these notations.
SHORTCUTS = {
    "s": ("draw stock", "draw deck"),
    "d": ("draw pile", "take discard"),
}
# Verbs whose card may be given by its position in the hand.
CARD_VERBS = ("discard", "stop")


def resolve_shortcut(text: str, legal: Sequence[Any], hand: Sequence[int]) -> str:
    """Expand a one-key draw or a hand position (``discard 3``) into the game's notation."""
    lowered = text.strip().lower()
    if lowered in SHORTCUTS:
        for action in legal:
            if str(action) in SHORTCUTS[lowered]:
                return str(action)
        return text
    verb, _, rest = lowered.partition(" ")
    if verb in CARD_VERBS and rest.strip().isdigit():
        position = int(rest)
        if 1 <= position <= len(hand):
            return f"{verb} {format_card(hand[position - 1])}"
    return text


def _coach_lines(game: str, view: Any, legal: Sequence[Any], *, full: bool) -> list[str]:
    """The coach's hint (and with ``full`` its tips and warnings)."""
    suggestion = coaching.hint(game, view, legal)
    lines = [f"hint: {suggestion.action} — {suggestion.reason}"]
    if full:
        report = coaching.coach(game, view, legal)
        lines += [f"tip: {tip}" for tip in report.tips]
        lines += [f"warning: {warning}" for warning in report.warnings]
    return lines


class TerminalGame:
    """One person at ``human_seat`` against computer seats, on a Rich console."""

    def __init__(
        self,
        engine: AnyEngine,
        rules: Any,
        seed: int,
        *,
        human_seat: int,
        bot_level: str,
        console: Console,
        read_line: Callable[[str], str],
        coach: bool = False,
    ) -> None:
        self.engine = engine
        self.rules = rules
        self.seed = seed
        self.human = human_seat
        self.console = console
        self.read_line = read_line
        self.coach = coach
        players = engine.rules_of(engine.new_game(rules, seed)).players
        self.bots = {
            seat: bot_for(engine.name, bot_level) for seat in range(players) if seat != human_seat
        }
        self.names = [
            "You" if seat == human_seat else f"Computer {seat}" for seat in range(players)
        ]
        self.rng = random.Random(seed)
        self.log: list[tuple[int, Any]] = []
        self.render_view, self.render_summary = renderers(engine.name)
        self.move_warning = move_warning_of(engine.name)

    def _confirmed(self, warning: str) -> bool:
        """Show ``warning`` and ask whether to play the move anyway (no, unless ``y``)."""
        self.console.print(f"[yellow]{warning}[/yellow]")
        try:
            answer = self.read_line("Play it anyway? [y/N] ")
        except EOFError:
            return False
        return answer.strip().lower() in ("y", "yes")

    def _show_summary(self, state: Any, last: str | None) -> str | None:
        summary = self.render_summary(self.engine.view(state, self.human))
        if summary and summary != last:
            self.console.print(summary)
        return summary or last

    def _human_turn(self, state: Any) -> Any | None:
        """Read actions until one applies; ``None`` when the person quits."""
        engine = self.engine
        view = engine.view(state, self.human)
        legal = list(engine.legal_actions(state, self.human))
        self.console.print(self.render_view(view))
        if self.coach:
            for line in _coach_lines(engine.name, view, legal, full=True):
                self.console.print(f"[dim]{line}[/dim]")
        while True:
            try:
                text = self.read_line("> ").strip()
            except EOFError:
                return None
            if not text:
                continue
            lowered = text.lower()
            if lowered in ("quit", "exit", "q"):
                return None
            if lowered in ("?", "help", "legal"):
                self.console.print(HELP_TEXT)
                for index, action in enumerate(legal, 1):
                    self.console.print(f"  {index:>2}. {action}")
                continue
            if lowered in ("hint", "h"):
                for line in _coach_lines(engine.name, view, legal, full=False):
                    self.console.print(line)
                continue
            text = resolve_shortcut(text, legal, view.hand)
            if text.isdigit():
                index = int(text)
                if not 1 <= index <= len(legal):
                    self.console.print(f"no legal action number {index}: choose 1-{len(legal)}")
                    continue
                action = legal[index - 1]
            else:
                try:
                    action = engine.parse_action(text)
                except CardtableError as exc:
                    self.console.print(f"[red]{exc}[/red] (type ? for the legal actions)")
                    continue
            warning = self.move_warning(view, action) if self.move_warning else None
            if warning is not None and not self._confirmed(warning):
                self.console.print("Move not played.")
                continue
            try:
                new_state = engine.apply(state, action, self.human)
            except CardtableError as exc:
                self.console.print(f"[red]{exc}[/red]")
                continue
            self.log.append((self.human, action))
            return new_state

    def run(self) -> Any:
        """Play until the game ends or the person quits; return the last state."""
        engine = self.engine
        state = engine.new_game(self.rules, self.seed)
        last_summary: str | None = None
        while True:
            state, _ = advance(engine, state)
            last_summary = self._show_summary(state, last_summary)
            seat = engine.current_player(state)
            if seat == TERMINAL:
                break
            if seat == self.human:
                next_state = self._human_turn(state)
                if next_state is None:
                    self.console.print("You left the game.")
                    return state
                state = next_state
                continue
            legal = engine.legal_actions(state, seat)
            action = self.bots[seat].choose(engine.view(state, seat), legal, self.rng)
            self.console.print(f"[bold]{self.names[seat]}[/bold]: {action}")
            state = engine.apply_unchecked(state, action, seat)
            self.log.append((seat, action))
        result = engine.result(state)
        if result is not None:
            self.console.print(f"[bold]Game over.[/bold] {result.summary}")
        return state


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to ``app``."""

    @app.command("play")
    def play(
        game: Annotated[str, typer.Argument(help=", ".join(game_names()))],
        players: Annotated[int | None, typer.Option(help="number of players")] = None,
        seed: Annotated[
            int | None, typer.Option(help="seed of the deal (random if omitted)")
        ] = None,
        preset: Annotated[str | None, typer.Option(help="a named rule set")] = None,
        rule: Annotated[
            list[str] | None, typer.Option(help="rule option KEY=VALUE (repeatable)")
        ] = None,
        bots: Annotated[
            str, typer.Option(help="computer level: random, easy, normal, hard")
        ] = "normal",
        seat: Annotated[int, typer.Option(help="your seat number")] = 0,
        coach: Annotated[
            bool, typer.Option(help="show the coach's tips before each of your turns")
        ] = False,
        save: Annotated[
            Path | None, typer.Option(help="write the game record to this file")
        ] = None,
        cards: Annotated[
            int | None, typer.Option(help="Declaration Rummy: cards dealt to each")
        ] = None,
        optional: Annotated[
            str | None, typer.Option(help="Declaration Rummy: optional cards, e.g. W,C7,NM2")
        ] = None,
        variation: Annotated[
            str | None, typer.Option(help="Declaration Rummy: variations, e.g. gin,declare-bonus")
        ] = None,
    ) -> None:
        """Play a game in the terminal against computer players."""
        try:
            engine = get_engine(game)
            # A person plays: the engines' caps then never wipe points already earned.
            rules = engine.with_people_seated(
                rules_for_command(
                    engine, preset, players, list(rule or ()), cards, optional, variation
                )
            )
            if not 0 <= seat < rules.players:
                fail(f"seat must be 0-{rules.players - 1}, not {seat}")
            chosen_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
            session = TerminalGame(
                engine,
                rules,
                chosen_seed,
                human_seat=seat,
                bot_level=bots,
                console=Console(highlight=False),
                read_line=input,
                coach=coach,
            )
        except CardtableError as exc:
            fail(str(exc))
        session.run()
        if save is not None:
            save_record(record_of(engine.name, rules, chosen_seed, session.log), save)
            typer.echo(f"record saved to {save}")


def rules_for_command(
    engine: AnyEngine,
    preset: str | None,
    players: int | None,
    assignments: list[str],
    cards: int | None,
    optional: str | None,
    variation: str | None,
) -> Any:
    """Rules from the common options, with the game's own flags (``--cards``, ``--optional``,
    ``--variation``) where its spec takes them."""
    if cards is None and optional is None and variation is None:
        return build_rules(engine, preset=preset, players=players, assignments=assignments)
    spec = get_spec(engine.name)
    if spec.cli_rules is None:
        takers = [other.title for other in specs() if other.cli_rules is not None]
        fail(
            f"--cards, --optional and --variation are not options of {spec.title} "
            f"(only of {', '.join(takers)})"
        )
    base = load(spec.cli_rules)(
        players=players, cards=cards, optional=optional, variation=variation, preset=preset
    )
    return apply_rule_options(base, assignments)
