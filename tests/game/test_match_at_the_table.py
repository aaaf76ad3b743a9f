"""A whole match at the table: rounds played through ``Table`` and ``Match``, the match rules between them.

Every figure comes from the rules: menos (docs/rules.md §1; seed 004) counts the cards left in hand (Joker 25,
Ace 15, J/Q/K 10, 2-10 face value), eliminates at a total of 101 or more (004:40), lets an eliminated player
re-enter right after that round at the highest total among the players still in, at most twice (004:41),
and the last player standing wins (004:42); the player who went out deals the next round (004:25) and the
dealer's right plays first (004:24).  mas (§2) scores each meld's cards and +5 a meld for going out, others
lose their hand's value, and the first to reach 150 at the end of a round ends the match, the highest total
winning (004:47).

Each round is dealt as written below: the players before the one who goes out draw a card from the stock
and discard it; then that player draws, puts down 7♠ 7♥ 7♦, 4♣ 5♣ 6♣ and 9♠ 9♥ 9♦, and discards the last
card.  Everybody else keeps the hand dealt.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from cli_runner import run

from loba_dsl.game import Match, MatchRefused, RandomPlayer, Scripted, Table
from loba_dsl.game.record import dumps, loads
from loba_dsl.game.referee import deck_cards, first_seat, step
from loba_dsl.game.replay import replay
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset

PLAYERS = ("Ana", "Beto", "Carla", "Dora")
OUT = "7♠ 7♥ 7♦ 4♣ 5♣ 6♣ 9♠ 9♥ 9♦"  # three melds: the hand of the player who goes out
L24 = "2♠ 2♥ 2♦ 2♣ 3♠ 3♥ 3♦ 3♣ 4♠"  # 2+2+2+2+3+3+3+3+4 = 24 (rules.md §1)
M48 = "4♦ 4♦ 5♠ 5♠ 5♥ 5♥ 6♦ 6♦ 8♥"  # 4+4+5+5+5+5+6+6+8 = 48
H90 = "K♠ K♥ K♦ K♣ Q♠ Q♥ Q♦ Q♣ J♠"  # 9 x 10 = 90
J170 = "JOKER JOKER JOKER JOKER A♠ A♥ A♦ A♣ K♠"  # 4 x 25 + 4 x 15 + 10 = 170
PASS = "10♣ 10♦ 10♥"  # the stock's first cards: drawn and discarded by the players before the one going out


def codes(rs: Ruleset, text: str) -> list[int]:
    return list(rs.notation().parse_codes(text))


def deal_round(t: Table | None, rs: Ruleset, dealer: str, goer: str, others: dict[str, str]) -> tuple[Table, Match]:
    """Deal the next round (or the first, ``t`` None) as the module says, and a match of scripted players."""
    playing = PLAYERS if t is None else t.playing()
    hands = {goer: OUT, **others}
    assert set(hands) == set(playing)
    n, d = len(playing), playing.index(dealer)
    order = [playing[(first_seat(rs, d, n) + k * step(rs)) % n] for k in range(n)]
    before = order[:order.index(goer)]
    passes = PASS.split()[:len(before)]
    top = [*passes, "8♠"]
    rest = Counter(deck_cards(rs))
    dealt = [codes(rs, hands[p]) for p in playing]
    for h in dealt:
        rest.subtract(h)
    rest.subtract(codes(rs, " ".join(top)))
    upcard = codes(rs, "10♠")[0]
    rest[upcard] -= 1
    assert all(v >= 0 for v in rest.values())
    stock = codes(rs, " ".join(top)) + sorted(rest.elements())
    if t is None:
        t = Table.from_deal(rs, PLAYERS, dealer, dealt, upcard, stock)
    else:
        assert PLAYERS[t.next_dealer()] == dealer  # rules.md §1: the player who went out deals
        t.next_round(dealt, upcard, stock)
    lines = {p: [f"{p} draws stock", f"{p} discards {c}"] for p, c in zip(before, passes, strict=True)}
    lines[goer] = [f"{goer} draws stock", f"{goer} melds 7♠ 7♥ 7♦", f"{goer} melds 4♣ 5♣ 6♣",
                   f"{goer} melds 9♠ 9♥ 9♦", f"{goer} discards 8♠"]
    return t, Match(t, {p: Scripted(lines.get(p, [])) for p in PLAYERS})


def totals(t: Table) -> dict[str, int]:
    return {s.name: s.total for s in t.standings().players}


def test_a_menos_match_to_its_winner(tmp_path: Path) -> None:
    rs = load("menos")
    # Round 1: Dora deals, her right (Carla) plays first and goes out.
    t, m = deal_round(None, rs, "Dora", "Carla", {"Ana": L24, "Beto": L24, "Dora": H90})
    m.play_round()
    out = t.outcome()
    assert out is not None and out.scores == {"Ana": 24, "Beto": 24, "Carla": 0, "Dora": 90}
    assert t.reentry_offers() == () and totals(t) == {"Ana": 24, "Beto": 24, "Carla": 0, "Dora": 90}
    # Round 2: Carla (who went out) deals; Beto, her right, goes out.  Dora reaches 90 + 48 = 138 >= 101.
    t, m = deal_round(t, rs, "Carla", "Beto", {"Ana": L24, "Carla": L24, "Dora": M48})
    m.play_round()
    assert totals(t) == {"Ana": 48, "Beto": 24, "Carla": 24, "Dora": 138}
    (offer,) = t.reentry_offers()
    # 004:41: she may re-enter at the highest total among the players still in: Ana's 48.
    assert (offer.player, offer.total, offer.score, offer.reentry, offer.limit) == ("Dora", 138, 48, 1, 2)
    with pytest.raises(MatchRefused):
        t.next_round()  # not before the re-entry is decided
    m.players["Dora"] = Scripted([], {"Dora": True})
    m.decide_reentries()
    assert totals(t)["Dora"] == 48 and t.playing() == PLAYERS
    # Round 3: Beto deals; Ana goes out.  Beto: 24 + 170 = 194, eliminated; offered 72 (Dora's 48 + 24).
    t, m = deal_round(t, rs, "Beto", "Ana", {"Beto": J170, "Carla": L24, "Dora": L24})
    m.play_round()
    assert totals(t) == {"Ana": 48, "Beto": 194, "Carla": 48, "Dora": 72}
    assert [(o.player, o.score) for o in t.reentry_offers()] == [("Beto", 72)]
    t.reenter("Beto", accept=False)  # a refused re-entry: Beto is out of the match
    assert t.playing() == ("Ana", "Carla", "Dora")
    # Round 4, without Beto: Ana deals, her right among the players still in is Dora, who goes out.
    t, m = deal_round(t, rs, "Ana", "Dora", {"Ana": H90, "Carla": H90})
    assert t.rounds[-1].players == ("Ana", "Carla", "Dora") and t.to_move == "Dora"
    m.play_round()
    assert totals(t) == {"Ana": 138, "Beto": 194, "Carla": 138, "Dora": 72}
    assert [(o.player, o.score) for o in t.reentry_offers()] == [("Ana", 72), ("Carla", 72)]
    assert not t.standings().over  # the match waits for their answers
    m.players.update(Ana=Scripted([], {}), Carla=Scripted([], {}))
    m.decide_reentries()
    m_over = t.standings()
    # 004:42: the last player standing wins.
    assert m_over.over and m_over.winners == ("Dora",)
    with pytest.raises(MatchRefused, match="the match is over"):
        t.next_round()
    # The record holds the decisions and the standings, and replays to the same match.
    rec = t.record()
    assert rec["rounds"][1]["reentries"] == [{"player": "Dora", "accepted": True, "score": 48}]
    assert rec["rounds"][2]["reentries"] == [{"player": "Beto", "accepted": False}]
    assert rec["rounds"][3]["players"] == ["Ana", "Carla", "Dora"] and rec["winner"] == ["Dora"]
    standing = {s["name"]: (s["total"], s["status"], s["reentries"]) for s in rec["rounds"][3]["standings"]}
    assert standing == {"Ana": (138, "eliminated", 0), "Beto": (194, "eliminated", 0),
                        "Carla": (138, "eliminated", 0), "Dora": (72, "in", 1)}
    again = replay(loads(dumps(rec), ruleset=rs))
    assert again.valid and again.match is not None and again.match.winners == ("Dora",)
    path = tmp_path / "match.json"
    path.write_text(dumps(rec), encoding="utf-8")
    r = run("replay", str(path))
    assert r.exit_code == 0 and "winner: Dora" in r.stdout and "Beto is eliminated at 194" in r.stdout
    assert "Dora re-enters at 48 (re-entry 1)" in r.stdout
    assert run("deal", "--next", str(path), "--seed", "1").exit_code == 2  # no round after the end


def test_deal_next_asks_for_the_reentry_and_leaves_out_who_refused(tmp_path: Path) -> None:
    rs = load("menos")
    t, m = deal_round(None, rs, "Dora", "Carla", {"Ana": L24, "Beto": L24, "Dora": H90})
    m.play_round()
    t, m = deal_round(t, rs, "Carla", "Beto", {"Ana": L24, "Carla": L24, "Dora": M48})
    m.play_round()
    path = tmp_path / "game.json"
    path.write_text(dumps(t.record()), encoding="utf-8")
    r = run("deal", "--next", str(path), "--seed", "5")
    assert r.exit_code == 2 and "Dora (at 48) may re-enter" in r.stderr
    shown = run("replay", str(path))
    assert "Dora may re-enter at 48 (re-entry 1 of at most 2)" in shown.stdout
    r = run("deal", "--next", str(path), "--seed", "5", "--stay-out", "Dora")
    assert r.exit_code == 0 and "Dora is out of the match" in r.stderr
    rec = json.loads(r.stdout)
    assert rec["rounds"][1]["reentries"] == [{"player": "Dora", "accepted": False}]
    assert rec["rounds"][2]["players"] == ["Ana", "Beto", "Carla"]
    assert sorted(rec["rounds"][2]["deal"]["hands"]) == ["Ana", "Beto", "Carla"]
    r = run("deal", "--next", str(path), "--seed", "5", "--reenter", "Dora")
    assert r.exit_code == 0 and json.loads(r.stdout)["rounds"][2].get("players") is None  # all four play
    # An older record deals Dora in without a decision: her re-entry, as the rules allow it.
    older = json.loads(r.stdout)
    del older["rounds"][1]["reentries"]
    again = replay(loads(json.dumps(older), ruleset=rs))
    assert again.valid and again.table is not None and again.table.rounds[1].reentries == [("Dora", True)]
    # ... but a round that deals in a player who refused is refused, naming the match rule.
    refused = json.loads(json.dumps(older))
    refused["rounds"][1]["reentries"] = [{"player": "Dora", "accepted": False}]
    bad = replay(loads(json.dumps(refused), ruleset=rs))
    assert not bad.valid and bad.error is not None and bad.error["rule"] == "match.eliminate_at"
    assert "deals Dora, who is out of the match" in bad.error["message"]


def test_the_target_ends_a_mas_match() -> None:
    rs = load("mas")
    # rules.md §2: the three melds score 21 + 15 + 27 = 63, and +5 each for going out: 78.  The others lose
    # their hand: 24 and 90.
    t, m = deal_round(None, rs, "Dora", "Carla", {"Ana": L24, "Beto": L24, "Dora": H90})
    m.play_round()
    out = t.outcome()
    assert out is not None and out.scores == {"Ana": -24, "Beto": -24, "Carla": 78, "Dora": -90}
    # Round 2: Carla deals; Beto, Ana and Dora draw and discard; Carla goes out again: 156 >= 150.
    t, m = deal_round(t, rs, "Carla", "Carla", {"Ana": L24, "Beto": M48, "Dora": L24})
    m.play_round()
    done = t.standings()
    assert totals(t) == {"Ana": -48, "Beto": -72, "Carla": 156, "Dora": -114}
    assert done.over and done.winners == ("Carla",) and "reached 150 in round 2" in done.how
    with pytest.raises(MatchRefused):
        t.next_round()


def test_a_raised_target_plays_on() -> None:
    rs = load("mas")
    # 004:47: "For longer sessions, raise the target to 200 or 300".
    t, m = deal_round(None, rs, "Dora", "Carla", {"Ana": L24, "Beto": L24, "Dora": H90})
    t.target = 200  # as Table.deal(..., target=200) would set it
    m.play_round()
    t, m = deal_round(t, rs, "Carla", "Carla", {"Ana": L24, "Beto": M48, "Dora": L24})
    m.play_round()
    assert not t.standings().over and t.playing() == PLAYERS and t.record()["target"] == 200


def match_oracle(rs: Ruleset, rec: dict[str, object]) -> None:
    """Recompute a menos match from its record's round scores and decisions by rules.md §1 alone."""
    total = dict.fromkeys(PLAYERS, 0)
    used = dict.fromkeys(PLAYERS, 0)
    still_in = set(PLAYERS)
    rounds = rec["rounds"]
    assert isinstance(rounds, list)
    for i, rnd in enumerate(rounds):
        playing = rnd.get("players", list(PLAYERS))
        assert set(playing) == still_in, f"round {i + 1} is played by the players still in"
        if "result" not in rnd:
            break
        for p, s in rnd["result"]["scores"].items():
            total[p] += s
        out = {p for p in still_in if total[p] >= 101}  # 004:40
        still_in -= out
        for e in rnd.get("reentries", []):
            assert e["player"] in out and used[e["player"]] < 2  # right after that round, at most twice
            if e["accepted"]:
                assert still_in, "a re-entry needs a player still in"
                total[e["player"]] = max(total[p] for p in still_in)  # 004:41
                used[e["player"]] += 1
                still_in.add(e["player"])
        for e in rnd.get("standings", []):
            assert e["total"] == total[e["name"]]
    if rec.get("winner"):
        if len(still_in) == 1:
            assert rec["winner"] == sorted(still_in)
        else:  # everybody left went out of the match in one round: the lowest total wins (004:42)
            assert not still_in


def test_a_random_match_follows_the_match_rules() -> None:
    rs = load("menos")
    players = {p: RandomPlayer(random.Random(i), reenter_odds=0.7) for i, p in enumerate(PLAYERS)}
    m = Match(Table.deal(rs, PLAYERS, "Dora", seed=20), players)
    for _ in range(3):
        m.play_round()
        m.decide_reentries()
        if m.standings.over:
            break
        m.table.next_round()
    match_oracle(rs, m.table.record())


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_random_matches_to_their_winner_follow_the_match_rules(seed: int) -> None:
    rs = load("menos")
    players = {p: RandomPlayer(random.Random(seed * 10 + i), reenter_odds=0.6) for i, p in enumerate(PLAYERS)}
    m = Match.deal(rs, players, "Dora", seed)
    final = m.play()
    assert final.over and final.winners
    rec = m.table.record()
    match_oracle(rs, rec)
    assert replay(loads(dumps(rec), ruleset=rs)).match.winners == final.winners  # type: ignore[union-attr]
