"""The card tokenizer, the deck spellings' check and the shipped-name check without regular expressions
(issue 22: start-up) split and accept exactly what the regular expressions they replace did.

The expressions below are the definitions the code kept until then (tokens: runs of characters that are
neither white space nor one of the dashes ``,-‐‑–``; shipped names ``[a-z0-9][a-z0-9-]{0,63}``).
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from loba_dsl.cards.notation import _DASHES, _is_word, _tokens
from loba_dsl.rules.sources import _shipped_name

TOKEN = re.compile(rf"[^\s{re.escape(_DASHES)}]+")
SHIPPED = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
# White space of every kind Unicode has, the dashes, card-like text and anything else.
PIECES = st.sampled_from([" ", "\t", "\u00a0", "\u2003", "\u3000", "\x1c", "\x85", ",", "-", "\u2010", "\u2011",
                          "\u2013", "\u2014", "A♣", "10", "JOKER", "7 picas"])
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=20).map("".join)


@given(TEXT)
def test_tokens_are_the_regular_expressions_matches(line: str) -> None:
    expected = [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(line)]
    assert [(t.group(), t.start(), t.end()) for t in _tokens(line)] == expected
    assert _is_word(line) == bool(TOKEN.fullmatch(line))


@given(st.one_of(st.text(alphabet="abcz09-A_.", max_size=70), st.text(max_size=8)))
def test_shipped_names_are_the_regular_expressions(name: str) -> None:
    assert _shipped_name(name) == bool(SHIPPED.fullmatch(name))
