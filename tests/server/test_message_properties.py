"""Properties of reading client frames: any text or bytes a client sends is either a
well-formed message (one of the protocol's models) or a ProtocolError with one of the
protocol's codes, never anything else."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.server.protocol.messages import (
    CLIENT_MODELS,
    CLIENT_TYPES,
    MAX_MESSAGE_BYTES,
    ActionMessage,
    ClientBase,
    ProtocolError,
    parse_client_message,
)

CODES = {"malformed", "unknown-type", "too-large", "bad-phrase"}
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def _read(raw: str | bytes) -> ClientBase | ProtocolError:
    try:
        return parse_client_message(raw)
    except ProtocolError as error:
        return error


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_any_frame_is_a_message_or_a_protocol_error(raw: str | bytes) -> None:
    outcome = _read(raw)
    if isinstance(outcome, ProtocolError):
        assert outcome.code in CODES and str(outcome)
    else:
        assert isinstance(raw, str) and type(outcome) in CLIENT_MODELS.values()


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_is_read_or_refused_by_its_shape(value: object) -> None:
    outcome = _read(json.dumps(value))
    is_known = isinstance(value, dict) and value.get("type") in CLIENT_TYPES
    if isinstance(outcome, ClientBase):
        assert is_known and type(outcome) is CLIENT_MODELS[value["type"]]  # type: ignore[index]
        if isinstance(outcome, ActionMessage):
            assert isinstance(outcome.version, int) and outcome.version >= 0
            assert outcome.action and outcome.action == outcome.action.strip()
    elif is_known:
        # Only a message with fields of its own can be refused, with its model's refusal.
        model = CLIENT_MODELS[value["type"]]  # type: ignore[index]
        assert set(model.model_fields) != {"type"}, value
        assert outcome.code in {code for code, _sentence in model.refusals.values()}
        assert str(outcome), value


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=1, max_size=40), st.integers(min_value=1, max_value=3 * MAX_MESSAGE_BYTES))
def test_frames_over_the_limit_are_too_large_whatever_they_hold(text: str, size: int) -> None:
    raw = json.dumps({"type": "ping", "pad": (text * size)[:size]})
    outcome = _read(raw)
    too_large = len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES
    assert isinstance(outcome, ProtocolError) == too_large
    if too_large:
        assert isinstance(outcome, ProtocolError) and outcome.code == "too-large"
