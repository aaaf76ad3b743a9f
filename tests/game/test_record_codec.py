"""The record codec: ``loads``/``dumps`` of one type, records kept compatible, hostile files refused.

``loba-record/1`` may gain keys but never lose or rename one: a record written before the match keys
(per-round ``result``, ``standings``, ``reentries``, ``players``) replays to the same scores.  A record is
read bounded: at most ``MAX_BYTES``, nested at most ``MAX_DEPTH`` deep, from a regular file only, with
player names that print.  Each hostile input is an exit 2 with one clear message, never a traceback.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from cli_runner import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from menos_round import played_round

from loba_dsl.game import GameRecord, RecordError, Table, TableCache, record_digest
from loba_dsl.game.record import MAX_BYTES, dumps, load, loads
from loba_dsl.game.replay import from_record, replay
from loba_dsl.game.simulate import play_round
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load as load_ruleset
from loba_dsl.rules.model import Ruleset

SCORES = {"Ana": 84, "Beto": 0, "Carla": 68}  # rules.md §1, worked out in tests/menos_round.py


@pytest.fixture(scope="module")
def menos() -> Ruleset:
    return load_ruleset("menos")


def test_loads_and_dumps_are_one_codec(menos: Ruleset) -> None:
    text = dumps(played_round(menos).record())
    rec = loads(text)
    assert isinstance(rec, GameRecord)
    assert dumps(rec) == text  # a record read and written again is the same text
    assert dumps(loads(dumps(rec))) == text
    assert loads(text.encode("utf-8")).to_dict() == rec.to_dict()


def test_a_record_from_before_the_match_keys_means_the_same(menos: Ruleset) -> None:
    rec = played_round(menos).record()
    old = json.loads(json.dumps(rec))
    for rnd in old["rounds"]:
        for key in ("result", "standings", "dealer"):
            rnd.pop(key, None)
    again = replay(loads(json.dumps(old), ruleset=menos))
    assert again.valid and again.rounds[0].scores == SCORES and again.totals == SCORES
    # keys the format does not know are kept, as they were
    old["note"] = {"written by": "an app"}
    old["rounds"][0]["comment"] = "a good round"
    back = loads(json.dumps(old), ruleset=menos).to_dict()
    assert back["note"] == {"written by": "an app"} and back["rounds"][0]["comment"] == "a good round"


def test_hostile_records_are_refused_clearly(menos: Ruleset, tmp_path: Path) -> None:
    rec = played_round(menos).record()
    deep = '{"format": "loba-record/1", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    for text, words in ((deep, "nested deeper"), ("[" * 100_000, "nested deeper"),
                        (json.dumps({**rec, "note": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}),
                         "nested deeper")):
        with pytest.raises(RecordError, match=words):
            loads(text, ruleset=menos)
        path = tmp_path / "deep.json"
        path.write_text(text, encoding="utf-8")
        for command in ("replay", "moves"):
            r = run(command, str(path))
            assert r.exit_code == 2 and words in r.stderr and r.stdout == ""
        assert run("deal", "--next", str(path), "--seed", "1").exit_code == 2
    with pytest.raises(RecordError, match="MAX_BYTES"):
        loads(" " * (MAX_BYTES + 1))
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(MAX_BYTES + 1)
    assert run("replay", str(big)).exit_code == 2
    # a device and a FIFO are not read (the FIFO would block a reader for ever)
    r = run("replay", "/dev/zero")
    assert r.exit_code == 2 and "not a regular file" in r.stderr
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    r = run("replay", str(fifo))
    assert r.exit_code == 2 and "not a regular file" in r.stderr
    with pytest.raises(RecordError):
        load(fifo)
    # a name with a lone surrogate (valid JSON: "\ud800") cannot be printed: refused when read
    bad = json.dumps({**rec, "players": ["Ana\ud800", "Beto", "Carla"]})
    path = tmp_path / "name.json"
    path.write_text(bad, encoding="utf-8")
    for command in ("moves", "replay"):
        r = run(command, str(path))
        assert r.exit_code == 2 and "surrogate" in r.stderr
    control = json.dumps({**rec, "players": ["Ana\x1b[2J", "Beto", "Carla"]})
    with pytest.raises(RecordError, match="control characters"):
        loads(control, ruleset=menos)


def test_stdin_and_an_empty_file(menos: Ruleset, tmp_path: Path) -> None:
    text = dumps(played_round(menos).record())
    assert run("replay", "-", input=text).exit_code == 0
    assert run("replay", "-", input="").exit_code == 2
    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    r = run("replay", str(empty))
    assert r.exit_code == 2 and "empty" in r.stderr


# ---------------------------------------------------------------- resuming instead of replaying


def resumed_equals_replayed(name: str, seed: int, plies: int) -> None:
    rs = load_ruleset(name)
    n = max(rs.players.min, min(4, rs.players.max))
    players = ["Ana", "Beto", "Carla", "Dora"][:n]
    t = Table.deal(rs, players, players[-1], seed)
    cache = TableCache(size=4)
    rng = random.Random(seed)
    key = cache.put(t)
    for _ in range(plies):
        # each call: resume the table of the record so far, play one move, keep the new table
        resumed = cache.get(key, rs)
        assert resumed is not None and resumed.state == t.state
        if resumed.state.phase.value == "over":
            break
        play_round(resumed, rng, max_plies=1)
        key = cache.put(resumed)
        t = resumed
    full = from_record(loads(dumps(t.record()), ruleset=rs))
    assert full.rounds[-1].states == t.rounds[-1].states
    assert [r.scores for r in full.results] == [r.scores for r in t.results]
    assert full.digest == t.digest == record_digest(t.record())
    assert cache.resume(t.record(), rs).state == t.state


@pytest.mark.parametrize("name", ["menos", "mas-pagat", "contrato"])
def test_resuming_gives_the_state_a_full_replay_gives(name: str) -> None:
    resumed_equals_replayed(name, seed=5, plies=60)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(shipped_names()), seed=st.integers(0, 10**6), plies=st.integers(0, 150))
def test_resuming_gives_the_state_a_full_replay_gives_property(name: str, seed: int, plies: int) -> None:
    resumed_equals_replayed(name, seed, plies)


def test_a_snapshot_does_not_change_when_its_table_plays_on(menos: Ruleset) -> None:
    t = Table.deal(menos, ["Ana", "Beto", "Carla"], "Carla", seed=3)
    cache = TableCache()
    key = cache.put(t)
    first = cache.get(key, menos)
    assert first is not None
    play_round(first, random.Random(1), max_plies=40)
    second = cache.get(key, menos)
    assert second is not None and second.ply == 0 and second.state == t.state and first.ply > 0
    assert cache.get("0" * 64, menos) is None
    # the digest changes with every move, and a record's digest is the table's
    assert first.digest != key and record_digest(first.record()) == first.digest


def test_the_cache_holds_at_most_max_states_round_states(menos: Ruleset) -> None:
    """A count of entries does not bound the memory (a table holds a state per ply): the states do."""
    rng = random.Random(4)
    tables = []
    for seed in range(3):  # three games of 10, 20 and 30 plies: 11, 21 and 31 states (one before each move, then
        t = Table.deal(menos, ["Ana", "Beto", "Carla"], "Carla", seed=seed)  # the current one)
        play_round(t, rng, max_plies=10 * (seed + 1))
        assert t.ply == 10 * (seed + 1) and sum(len(log.states) for log in t.rounds) == t.ply + 1
        tables.append(t)
    cache = TableCache(size=256, max_states=50)
    keys = [cache.put(t) for t in tables]
    # 11 + 21 fit in 50; adding 31 goes over, so the oldest (11) goes, then 21 + 31 = 52 still over: 21 goes too
    assert cache.states == 31 and len(cache) == 1
    assert cache.get(keys[2], menos) is not None
    assert cache.get(keys[0], menos) is None and cache.get(keys[1], menos) is None
    # a table heavier than the whole bound is not kept at all, and nothing is evicted for it
    big = TableCache(size=256, max_states=30)
    assert big.put(tables[2]) == keys[2] and len(big) == 0 and big.states == 0
    big.put(tables[0])
    assert big.put(tables[2]) == keys[2] and len(big) == 1 and big.get(keys[0], menos) is not None
    # keeping the same table again does not count it twice
    big.put(tables[0])
    assert big.states == 11
