"""One answer everywhere: the same 300 inputs go through the library (the ``loba_dsl`` facade), the CLI
(``loba ... --json``, in-process through Typer's CliRunner) and the service (Starlette's TestClient), for
check (120 melds), score (70 round files), arrange (60 hands) and replay (50 records), and no surface
answers differently from the others.

The inputs are drawn from a seeded generator over the shipped rulesets: cards from each ruleset's own deck
(with a share of mistakes: unknown cards, too many copies, nothing at all), round files built from dealt
hands, hands as the player stands (opened or not, and the round under contracts), records of seeded games
played for a few plies by random legal moves (some with an illegal move put in).  What is compared:

- an answer: the whole JSON object (the service's ``elapsed_ms``, a timing, left out);
- an error: each problem's code, message, hint, line, column and length (the CLI exits 2, the service
  answers 422, the library raises a ``LobaError``); the file a problem names is the surface's own name for
  the text (``<stdin>``, ``<sheet>``) and is not compared.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner
from starlette.testclient import TestClient

import loba_dsl as loba
from loba_cli.main import app
from loba_service import Limits, create_app

SEED = 21
CHECK_RULESETS = ["menos", "picos", "mas-pagat", "sin-jokers", "chinchon", "uruguay", "gin"]
SCORE_RULESETS = ["menos", "mas", "mas-pagat", "bazas", "contrato", "chinchon", "pierna-de-cuatro"]
ARRANGE_RULESETS = ["menos", "mas", "picos", "bazas", "contrato", "chinchon", "mas-pagat"]
REPLAY_RULESETS = ["menos", "mas", "picos", "chinchon", "mas-pagat", "bazas"]
PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


@functools.cache
def ruleset(name: str) -> loba.Ruleset:
    return loba.load(name)


@functools.cache
def solver(name: str) -> loba.Solver:
    return loba.Solver(ruleset(name))


def card_names(name: str) -> list[str]:
    rs = ruleset(name)
    deck = rs.deck
    return [deck.name(c) for c in range(len(deck.names)) if deck.limit(c) > 0]


def deal(rnd: random.Random, name: str, n: int) -> list[str]:
    """``n`` different physical cards of the ruleset's deck (copies counted)."""
    rs = ruleset(name)
    pack = [rs.deck.name(c) for c in range(len(rs.deck.names)) for _ in range(rs.deck.limit(c))]
    return rnd.sample(pack, n)


# ---------------------------------------------------------------- the inputs


def check_inputs(rnd: random.Random) -> Iterator[tuple[str, str]]:
    for i in range(120):
        name = CHECK_RULESETS[i % len(CHECK_RULESETS)]
        kind = rnd.random()
        if kind < 0.55:
            text = " ".join(deal(rnd, name, rnd.randint(3, 6)))
        elif kind < 0.75:  # a run or a set, often legal
            cards = card_names(name)
            start = rnd.randrange(len(cards) - 4)
            text = " ".join(cards[start:start + rnd.randint(3, 5)]) if rnd.random() < 0.5 else " ".join(
                c for c in cards if c[:-1] == cards[start][:-1])
        elif kind < 0.85:  # a mistake: an unknown card among good ones
            good = deal(rnd, name, 3)
            good.insert(rnd.randrange(4), rnd.choice(["Z♠", "11♥", "JOKR", "A", "♠", "x"]))
            text = " ".join(good)
        elif kind < 0.95:  # more copies than the deck holds
            card = rnd.choice(card_names(name))
            text = " ".join([card] * (ruleset(name).deck.limit(card_code(name, card)) + 1))
        else:
            text = rnd.choice(["", "   ", " , "])
        yield name, text


def card_code(name: str, card: str) -> int:
    return ruleset(name).notation().parse_codes(card)[0]


def score_inputs(rnd: random.Random) -> Iterator[tuple[str, str]]:
    for i in range(70):
        name = SCORE_RULESETS[i % len(SCORE_RULESETS)]
        rs = ruleset(name)
        n = rnd.randint(2, 4)
        cards = rs.deal.cards_for(n)
        pack = deal(rnd, name, n * (cards + 1))
        lines = []
        if name == "contrato":
            lines.append(f"round: {rnd.randint(1, 3)}")
        out_seat = rnd.randrange(n) if rnd.random() < 0.7 else None
        for seat in range(n):
            hand = " ".join(pack[seat * (cards + 1):(seat + 1) * (cards + 1)])
            arranged = loba.arrange_hand(solver(name), hand, opened=True, discard=True)
            melds = [" ".join(rs.deck.names_of(m.cards)) for m in arranged.arrangement.melds]
            left = " ".join(rs.deck.names_of(arranged.arrangement.left))
            went_out = seat == out_seat and arranged.can_go_out
            lines.append(f"player {PLAYERS[seat]}" + (": went out" if went_out else ""))
            if melds:
                lines.append("  table: " + " | ".join(melds))
            if left and not went_out:
                lines.append("  hand: " + left)
        text = "\n".join(lines) + "\n"
        if rnd.random() < 0.1:  # a mistake: a card no deck has
            text = text.replace("hand: ", "hand: Z♠ ", 1) if "hand: " in text else text + "player Eva\n  hand: Z♠\n"
        yield name, text


def built_hand(rnd: random.Random, name: str) -> str:
    """A run of three, a set of three and one card more: a hand that goes out where nothing else is asked."""
    deck = ruleset(name).deck
    n_ranks, n_suits = len(deck.ranks), len(deck.suits)
    r, s = rnd.randrange(1, n_ranks - 3), rnd.randrange(n_suits)
    run = [deck.code(r + k, s) for k in range(3)]
    other = rnd.choice([x for x in range(1, n_ranks - 1) if abs(x - r) > 3])
    suits = rnd.sample(range(n_suits), 3)
    same = [deck.code(other, t) for t in suits]
    extra = deck.code(rnd.randrange(n_ranks), rnd.randrange(n_suits))
    cards = [*run, *same, extra]
    rnd.shuffle(cards)
    return " ".join(deck.name(c) for c in cards)


def arrange_inputs(rnd: random.Random) -> Iterator[tuple[str, str, bool, int | None]]:
    for i in range(60):
        name = ARRANGE_RULESETS[i % len(ARRANGE_RULESETS)]
        opened = rnd.random() < 0.4
        round_number = rnd.randint(1, 4) if name == "contrato" and not opened else None
        if name == "contrato" and not opened and i % 3 == 0:
            round_number = None  # the round left out: an error on every surface
        hand = built_hand(rnd, name) if i % 2 == 0 else " ".join(deal(rnd, name, rnd.randint(5, 10)))
        yield name, hand, opened, round_number


def replay_inputs(rnd: random.Random) -> Iterator[str]:
    for i in range(50):
        name = REPLAY_RULESETS[i % len(REPLAY_RULESETS)]
        rs = ruleset(name)
        n = max(rs.players.min, min(rs.players.max, rnd.randint(2, 4)))
        players = PLAYERS[:n]
        table = loba.Table.deal(rs, players, players[-1], rnd.randrange(10_000))
        for _ in range(rnd.randint(0, 40)):
            if table.to_move is None:
                break
            moves = list(table.legal())
            if not moves:
                break
            table.play(rnd.choice(moves))
        record = json.loads(loba.dump_record(table.record()))
        if rnd.random() < 0.2 and record["rounds"][-1]["moves"]:  # an illegal move put in: another player's
            move = record["rounds"][-1]["moves"][-1]
            move["player"] = next(p for p in players if p != move.get("player"))
        yield json.dumps(record, ensure_ascii=False)


# ---------------------------------------------------------------- the surfaces


Answer = tuple[str, Any]
"""("ok", the JSON object) or ("error", the problems as (code, message, hint, line, column, length))."""


def problems(items: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    out = []
    for p in items:
        where = p.get("location") or p
        out.append((p.get("code"), p.get("message"), p.get("hint"), where.get("line"), where.get("column"),
                    where.get("length")))
    return out


def library(fn: Callable[..., Any], *args: Any) -> Answer:
    try:
        return "ok", json.loads(json.dumps(fn(*args), ensure_ascii=False))
    except loba.LobaError as e:
        return "error", problems(e.to_dict()["errors"])  # type: ignore[arg-type]


@functools.cache
def command() -> Any:
    """The ``loba`` command as click runs it, built once (Typer builds it again on every ``invoke`` of the app)."""
    import typer.main

    return typer.main.get_command(app)


def cli(*args: str, input: str | None = None) -> Answer:
    result = CliRunner().invoke(command(), list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    doc = json.loads(result.stdout.splitlines()[0])
    if result.exit_code == 2:
        return "error", problems(doc["errors"])
    assert result.exit_code in (0, 1), (args, result.exit_code, result.stdout)
    return "ok", doc


def service(client: TestClient, path: str, body: dict[str, Any]) -> Answer:
    r = client.post(path, json=body)
    if r.status_code == 422:
        return "error", problems(r.json()["errors"])
    assert r.status_code == 200, (path, body, r.status_code, r.text)
    doc = r.json()
    doc.pop("elapsed_ms", None)
    return "ok", doc


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(solvers=1))) as c:
        yield c


def agree(what: str, answers: dict[str, Answer]) -> None:
    lib = answers["library"]
    for surface, answer in answers.items():
        assert answer == lib, f"{what}: {surface} answers differently from the library:\n{answer}\n{lib}"


# ---------------------------------------------------------------- the tests


def test_check_answers_the_same_everywhere(client: TestClient) -> None:
    kinds = set()
    for name, text in check_inputs(random.Random(SEED)):
        answers = {
            "library": library(lambda t, n: loba.check(t, ruleset(n), source="<cards>").to_dict(), text, name),
            "cli": cli("check", text, "-r", name, "--json"),
            "service": service(client, "/v1/check", {"cards": text, "ruleset": name}),
        }
        agree(f"check {text!r} under {name}", answers)
        kinds.add((answers["library"][0], answers["library"][1].get("valid") if answers["library"][0] == "ok"
                   else None))
    assert kinds == {("ok", True), ("ok", False), ("error", None)}  # legal, not legal and bad input all seen


def test_score_answers_the_same_everywhere(client: TestClient) -> None:
    seen = set()
    for name, text in score_inputs(random.Random(SEED)):
        rs = ruleset(name)
        answers = {
            "library": library(lambda t, r: loba.score_round_sheet(loba.read_round(t, r, source="<sheet>"),
                                                                   r).to_dict(), text, rs),
            "cli": cli("score", "-", "-r", name, "--json", input=text),
            "service": service(client, "/v1/score/round", {"sheet": text, "ruleset": name}),
        }
        agree(f"score under {name}:\n{text}", answers)
        seen.add(answers["library"][0])
    assert seen == {"ok", "error"}


def test_arrange_answers_the_same_everywhere(client: TestClient) -> None:
    seen = set()
    for name, hand, opened, round_number in arrange_inputs(random.Random(SEED)):
        args = ["arrange", hand, "-r", name, "--json"] + (["--opened"] if opened else []) + (
            ["--round", str(round_number)] if round_number is not None else [])
        body: dict[str, Any] = {"cards": hand, "ruleset": name, "opened": opened}
        if round_number is not None:
            body["round"] = round_number
        answers = {
            "library": library(lambda n, h, o, r: loba.arranged_hand_dict(loba.arrange_hand(
                solver(n), h, opened=o, round_number=r), ruleset(n)), name, hand, opened, round_number),
            "cli": cli(*args),
            "service": service(client, "/v1/arrange", body),
        }
        agree(f"arrange {hand!r} under {name} (opened {opened}, round {round_number})", answers)
        seen.add((answers["library"][0], answers["library"][1].get("can_go_out")
                  if answers["library"][0] == "ok" else None))
    assert ("ok", True) in seen and ("ok", False) in seen and ("error", None) in seen


def test_replay_answers_the_same_everywhere(client: TestClient) -> None:
    seen = set()
    for text in replay_inputs(random.Random(SEED)):
        answers = {
            "library": library(lambda t: loba.replay(loba.load_record(t)).to_dict(), text),
            "cli": cli("replay", "-", "--json", input=text),
            "service": service(client, "/v1/games/replay", {"record": json.loads(text)}),
        }
        agree(f"replay {text[:200]}", answers)
        seen.add(answers["library"][1]["valid"] if answers["library"][0] == "ok" else None)
    assert seen >= {True, False}
