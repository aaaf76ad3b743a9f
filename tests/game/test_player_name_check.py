"""A player's name is refused for exactly the characters the record format forbids (issue 22 replaced the
regular expression ``[\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff]`` that said so, compiled at every start-up)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loba_dsl.game.moves import RecordError, check_player_name

FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
CHARACTERS = st.one_of(st.characters(), st.sampled_from(["\x00", "\x1f", "\x7f", "\x9f", "\xa0", "\ud800", "\udfff",
                                                         "\u200b", "\u2028", "é", "♣"]))


@given(st.lists(CHARACTERS, min_size=1, max_size=8).map("".join))
def test_refused_exactly_for_control_characters_and_lone_surrogates(name: str) -> None:
    name = "a" + name + "z"  # no outer space: only the characters are in question
    if FORBIDDEN.search(name):
        with pytest.raises(RecordError, match="control characters or unpaired surrogates"):
            check_player_name(name)
    else:
        assert check_player_name(name) == name
