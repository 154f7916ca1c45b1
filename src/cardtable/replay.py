"""Game records: the versioned JSON form of ``(game, rules, seed, actions)`` and its replay.

A record holds seat actions only, each as ``[seat, notation]``; chance steps are recomputed
from the seed, so a record replays to the identical state. Records are what storage keeps and
what ``cardtable replay FILE`` reads (files are read and written by the CLI, not here).

Version 2 adds the optional ``fairness`` object of a provably fair deal (commitment, the
players' contributions and, after the game, the revealed server seed: :mod:`cardtable.fairness`)
and the optional ``result`` the game ended with as recorded (checked by ``cardtable verify``);
version 1 records, which have neither, still load.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cardtable.errors import CardtableError, RecordError
from cardtable.fairness import FairDeal, commitment_of, derive_seed
from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine
from cardtable.registry import canonical_name, get_engine

RECORD_VERSION: Final = 2
READABLE_VERSIONS: Final = (1, 2)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game as data: game name, rules (JSON form), seed and seat actions, and for a
    provably fair deal its ``fairness`` data; ``result`` is the recorded ending (the JSON of
    :class:`~cardtable.games.contract.GameResult`), if any."""

    game: str
    rules: dict[str, Any]
    seed: int
    actions: tuple[tuple[int, str], ...] = field(default=())
    fairness: FairDeal | None = None
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data, with its format version."""
        data: dict[str, Any] = {
            "format": "cardtable-record",
            "version": RECORD_VERSION,
            "game": self.game,
            "rules": self.rules,
            "seed": self.seed,
            "actions": [[seat, text] for seat, text in self.actions],
        }
        if self.fairness is not None:
            data["fairness"] = self.fairness.to_json()
        if self.result is not None:
            data["result"] = self.result
        return data

    def dumps(self) -> str:
        """The record as a JSON string."""
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record from JSON data, checking its shape and version."""
        if not isinstance(data, dict) or data.get("format") != "cardtable-record":
            raise RecordError("not a cardtable game record (no 'format': 'cardtable-record')")
        if data.get("version") not in READABLE_VERSIONS:
            raise RecordError(
                f"record version {data.get('version')!r} is not supported "
                f"(this cardtable reads versions 1 to {RECORD_VERSION})"
            )
        try:
            game = canonical_name(str(data["game"]))
            rules = data["rules"]
            seed = data["seed"]
            raw_actions = data["actions"]
        except KeyError as exc:
            raise RecordError(f"record is missing the field {exc.args[0]!r}") from None
        if not isinstance(rules, dict) or not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("record 'rules' must be an object and 'seed' a whole number")
        if not isinstance(raw_actions, list):
            raise RecordError("record 'actions' must be a list of [seat, action] pairs")
        actions: list[tuple[int, str]] = []
        for index, entry in enumerate(raw_actions):
            if (
                not isinstance(entry, list)
                or len(entry) != 2
                or not isinstance(entry[0], int)
                or not isinstance(entry[1], str)
            ):
                raise RecordError(f"action {index} must be a [seat, notation] pair, not {entry!r}")
            actions.append((entry[0], entry[1]))
        fairness = data.get("fairness")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("record 'result' must be an object")
        return cls(
            game=game,
            rules=rules,
            seed=seed,
            actions=tuple(actions),
            fairness=None if fairness is None else FairDeal.from_json(fairness),
            result=result,
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record from a JSON string."""
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None


def record_of(game: str, rules: Any, seed: int, actions: Sequence[tuple[int, Any]]) -> GameRecord:
    """Build a record from engine objects (rules dataclass, action objects)."""
    engine = get_engine(game)
    return GameRecord(
        game=engine.name,
        rules=engine.rules_to_json(rules),
        seed=seed,
        actions=tuple((seat, str(action)) for seat, action in actions),
    )


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One seat action of a replay with the states around it (chance steps already done)."""

    index: int
    seat: int
    action: Any
    before: Any
    after: Any
    chance_before: int = 0
    """How many chance steps (shuffles, cuts, deals) were taken just before this action."""


def replay_steps(record: GameRecord) -> Iterator[ReplayStep]:
    """Replay a record step by step through the checked apply.

    Raises :class:`RecordError` naming the action that does not apply.
    """
    engine = get_engine(record.game)
    try:
        rules = engine.rules_from_json(record.rules)
    except CardtableError as exc:
        raise RecordError(f"record rules are invalid: {exc}") from None
    yield from replay_actions(engine, engine.new_game(rules, record.seed), record.actions)


def replay_actions(
    engine: AnyEngine, state: Any, actions: Sequence[tuple[int, str]]
) -> Iterator[ReplayStep]:
    """The replay loop every stored game goes through: from ``state``, each ``(seat,
    notation)`` action in turn through the checked apply, with the chance steps due before it.

    Raises :class:`RecordError` naming the action that does not apply.
    """
    for index, (seat, text) in enumerate(actions):
        chance = 0
        while engine.current_player(state) == CHANCE:
            state = engine.chance_step(state)
            chance += 1
        if engine.current_player(state) == TERMINAL and not engine.legal_actions(state, seat):
            raise RecordError(f"action {index} ({text!r}) comes after the game ended")
        try:
            action = engine.parse_action(text)
            after = engine.apply(state, action, seat)
        except CardtableError as exc:
            raise RecordError(
                f"action {index} by seat {seat} ({text!r}) does not apply: {exc}"
            ) from None
        yield ReplayStep(
            index=index, seat=seat, action=action, before=state, after=after, chance_before=chance
        )
        state = after


def replay(record: GameRecord) -> Any:
    """The state a record leads to (with any chance steps that follow its last action)."""
    engine = get_engine(record.game)
    state = None
    for step in replay_steps(record):
        state = step.after
    if state is None:
        state = engine.new_game(engine.rules_from_json(record.rules), record.seed)
    while engine.current_player(state) == CHANCE:
        state = engine.chance_step(state)
    return state


@dataclass(frozen=True, slots=True)
class Verification:
    """What :func:`verify_record` checked: ``ok`` and one line per check (``checks``), or the
    first ``problem`` found, in a sentence naming it."""

    ok: bool
    checks: tuple[str, ...]
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"ok": self.ok, "checks": list(self.checks), "problem": self.problem}


def verify_record(record: GameRecord) -> Verification:
    """Check a finished game's record from its revealed values: the server seed matches the
    commitment, the game seed is the one derived from it and the contributions, every action
    replays from that seed (every shuffle, cut and deal recomputed), and the game ends as the
    record says it did (winners and scores), when it says."""
    checks: list[str] = []
    fair = record.fairness
    if fair is None:
        return Verification(False, (), "the record has no fairness data (no commitment)")
    if fair.server_seed is None:
        return Verification(False, (), "the server seed has not been revealed in this record")
    if commitment_of(fair.server_seed) != fair.commitment:
        return Verification(
            False,
            (),
            "the commitment does not match the revealed server seed: "
            f"SHA-256 of the seed is {commitment_of(fair.server_seed)}, "
            f"the record says {fair.commitment}",
        )
    checks.append(f"commitment {fair.commitment} is the SHA-256 of the revealed server seed")
    derived = derive_seed(fair.server_seed, fair.contributions)
    if derived != record.seed:
        return Verification(
            False,
            tuple(checks),
            f"the game seed {record.seed} is not the one derived from the server seed and "
            f"the {len(fair.contributions)} contribution(s), which is {derived}",
        )
    checks.append(
        f"game seed {derived} derived from the server seed and "
        f"{len(fair.contributions)} contribution(s)"
    )
    chance = actions = 0
    state: Any = None
    try:
        for step in replay_steps(record):
            chance += step.chance_before
            actions += 1
            state = step.after
        engine = get_engine(record.game)
        if state is None:
            state = engine.new_game(engine.rules_from_json(record.rules), record.seed)
        while engine.current_player(state) == CHANCE:
            state = engine.chance_step(state)
            chance += 1
        result = engine.result(state)
    except CardtableError as exc:
        return Verification(False, tuple(checks), f"the record does not replay: {exc}")
    checks.append(
        f"{chance} shuffle(s), cut(s) and deal(s) recomputed from that seed; "
        f"{actions} action(s) replayed, every one legal"
    )
    if result is None:
        return Verification(False, tuple(checks), "the record replays but the game is not over")
    recorded = record.result
    if recorded is not None and (
        list(recorded.get("winners", [])) != list(result.winners)
        or list(recorded.get("scores", [])) != list(result.scores)
    ):
        return Verification(
            False,
            tuple(checks),
            f"the record says the game ended '{recorded.get('summary', '?')}', but replayed "
            f"from the seed it ends '{result.summary}'",
        )
    checks.append(f"the game ends as recorded: {result.summary}")
    return Verification(True, tuple(checks))
