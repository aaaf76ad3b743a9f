"""Text that is not UTF-8 gets one wording from every command and endpoint: where the bad byte is
(``source:line:column``), which byte, and its offset, with the hint to save the text as UTF-8.

The bytes: ``A♣ 2♣`` (``♣`` is the three bytes E2 99 A3 in UTF-8), a newline, then ``7`` and the byte FF, which
is never part of UTF-8 (RFC 3629 §1): offsets 0-3 ``A♣``, 4 the space, 5-8 ``2♣``, 9 the newline, 10 ``7``,
11 the bad byte, on line 2, column 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from cli_runner import run
from starlette.testclient import TestClient

import loba_dsl as loba
from loba_service import Limits, create_app

BAD = "A♣ 2♣\n".encode() + b"7\xff\n"
MESSAGE = "not UTF-8 text (bad byte 0xff at byte offset 11)"
HINT = "save it as UTF-8"


def headline(source: str) -> str:
    return f"{source}:2:2: error: {MESSAGE} ({HINT})"


@pytest.mark.parametrize("args", [
    ("check", "--file", "{f}"), ("arrange", "--file", "{f}"), ("score", "{f}"), ("match", "{f}"),
    ("validate", "{f}"), ("show", "{f}"), ("check", "A♣", "--ruleset", "{f}"), ("replay", "{f}"),
    ("moves", "{f}"), ("check", "-"), ("arrange", "-"), ("score", "-"), ("match", "-"), ("validate", "-"),
    ("replay", "-"),
])
def test_every_command_says_the_same(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(BAD)
    argv = [a.replace("{f}", str(path)) for a in args]
    result = run(*argv, input=BAD if "-" in argv else None)
    assert result.exit_code in (1, 2)  # validate: invalid (1); every other command: bad input (2)
    source = "<stdin>" if "-" in argv else str(path)
    assert headline(source) in result.stderr.splitlines(), result.stderr


def test_the_library_says_the_same() -> None:
    with pytest.raises(loba.LobaError) as err:
        loba.decode_utf8(BAD, "hand.txt")
    assert err.value.headline() == headline("hand.txt")
    with pytest.raises(loba.RulesetError) as bad_ruleset:
        loba.loads(BAD, source="house.yaml")
    assert bad_ruleset.value.headline() == headline("house.yaml")
    with pytest.raises(loba.LobaError) as bad_record:
        loba.load_record(BAD, source="game.json")
    assert bad_record.value.headline() == headline("game.json")


def test_every_endpoint_says_the_same() -> None:
    client = TestClient(create_app(Limits(solvers=1)))
    json_body = b'{"cards": "A\xe2\x99\xa3 2\xe2\x99\xa3\n7\xff"}'  # the bad byte at offset 22, line 1
    for path in ("/v1/check", "/v1/score/round", "/v1/arrange", "/v1/games/check"):
        r = client.post(path, content=json_body, headers={"content-type": "application/json"})
        assert r.status_code == 422, (path, r.text)
        error = r.json()["errors"][0]
        assert error["message"] == "not UTF-8 text (bad byte 0xff at byte offset 22)", (path, error)
        assert error["hint"] == HINT and error["location"]["file"] == "<body>"
    r = client.post("/v1/rulesets/validate", content=BAD, headers={"content-type": "application/yaml"})
    assert r.status_code == 422
    error = r.json()["errors"][0]
    assert (error["message"], error["hint"]) == (MESSAGE, HINT)
    assert error["location"] == {"file": "<yaml>", "line": 2, "column": 2, "length": 1}
    r = client.post("/v1/check/batch", content=BAD, headers={"content-type": "application/x-ndjson"})
    assert r.status_code == 422 and r.json()["errors"][0]["message"] == MESSAGE
    assert json.loads(r.text)["errors"][0]["location"]["line"] == 2
