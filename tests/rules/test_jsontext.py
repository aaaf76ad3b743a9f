"""loba_dsl.jsontext reads and writes exactly what json does (issue 22: a cached start-up imports neither
json nor re).  The expected values are json's own answers for the same input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loba_dsl import jsontext

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text())
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=5), inner, max_size=4)),
                      max_leaves=20)


def _outcome(function: Any, *args: Any, **kwargs: Any) -> str:
    try:
        return repr(function(*args, **kwargs))
    except Exception as e:  # the error is part of what must agree
        return f"{type(e).__name__}: {e}"


@given(VALUES, st.sampled_from([(", ", ": "), (",", ":")]), st.booleans())
def test_dumps_is_jsons(value: Any, separators: tuple[str, str], allow_nan: bool) -> None:
    assert _outcome(jsontext.dumps, value, separators=separators, allow_nan=allow_nan) == _outcome(
        json.dumps, value, ensure_ascii=False, separators=separators, allow_nan=allow_nan)


@given(VALUES)
def test_loads_reads_what_json_wrote(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert _outcome(jsontext.loads, text) == _outcome(json.loads, text)
    assert _outcome(jsontext.loads, text.encode("utf-8", "surrogatepass")) == _outcome(
        json.loads, text.encode("utf-8", "surrogatepass"))


PIECES = st.sampled_from(['{"a": ', "[", "]", "}", ",", " ", "\n", "1", "-0.5e3", '"é"', "null", "NaN", "tru", '"\\u',
                          "\x00", "x"])


@given(st.lists(PIECES, max_size=12).map("".join))
def test_loads_answers_and_fails_as_json_does(text: str) -> None:
    assert _outcome(jsontext.loads, text) == _outcome(json.loads, text)


@pytest.mark.parametrize("raw", [b'\xef\xbb\xbf{"a": 1}', '{"a": 1}'.encode("utf-16"), b"[1, 2]", b"\xff", b""])
def test_bytes_as_json_reads_them(raw: bytes) -> None:
    assert _outcome(jsontext.loads, raw) == _outcome(json.loads, raw)
