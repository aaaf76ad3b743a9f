"""What a table does between rounds: scoring a round that has ended, the hands shown at its end, and the
match rules (:mod:`loba_dsl.game.standings`): who is out, who may re-enter, who plays and deals next, the end.

:class:`BetweenRounds` is the part of :class:`~loba_dsl.game.table.Table` that works on the rounds it
has kept (:class:`~loba_dsl.game.round_log.RoundLog`), never on a move.
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError
from loba_dsl.game import outcome as scoring
from loba_dsl.game import partial, referee
from loba_dsl.game.moves import UNKNOWN, Draw, card_code
from loba_dsl.game.referee import IllegalMove
from loba_dsl.game.round_log import RoundLog
from loba_dsl.game.standings import ReentryOffer, Standings, standings
from loba_dsl.game.state import Phase, RoundState
from loba_dsl.rules.model import NextDealer, Ruleset
from loba_dsl.scoring.model import MatchRound, PlayerPoints, PlayerRound


class MatchRefused(LobaError):
    """Something the match rules do not allow now: a round after the end, a re-entry not offered, a round
    dealt before the re-entries are decided or to a player who is out."""

    code = "match"


class BetweenRounds:
    """The rounds a table has kept, and what the rules make of them between two rounds."""

    rs: Ruleset
    players: tuple[str, ...]
    rounds: list[RoundLog]
    results: list[scoring.RoundResult]
    target: int | None
    ruleset_ref: str
    seed: int | None
    _match: tuple[tuple[int, int], Standings] | None

    @property
    def state(self) -> RoundState:
        return self.rounds[-1].states[-1]

    # ------------------------------------------------------------ the end of a round

    def _score(self, log: RoundLog) -> None:
        s = log.states[-1]
        hands = tuple(log.shown.get(p, h) for p, h in zip(s.players, s.hands, strict=True))
        if any(UNKNOWN in h for h in hands):
            return  # a hand-dealt round: the scores wait for the hands to be shown
        melds: list[list[tuple[Card, ...]]] = [[] for _ in s.players]
        for m in s.melds:
            melds[m.owner].append(m.cards)
        log.result = scoring.score(self.rs, players=s.players, melds=melds, hands=hands, went_out=s.went_out,
                                   all_at_once=s.all_at_once, stock_out=s.stock_out, round_number=s.round_number)
        self.results.append(log.result)
        self._match = None

    def show(self, player: str, cards: Sequence[Card]) -> None:
        """At the end of a hand-dealt round: the cards ``player`` holds, where the record did not know them all."""
        log = self.rounds[-1]
        s = log.states[-1]
        if s.phase is not Phase.OVER:
            raise LobaError(f"round {len(self.rounds)} has not ended: hands are shown when it is over")
        if player not in s.players:
            raise LobaError(f"'{player}' does not play round {len(self.rounds)}")
        if log.result is not None or player in log.shown:
            raise LobaError(f"{player}'s hand is already known")
        hand = s.hands[s.players.index(player)]
        cards = tuple(card_code(self.rs, c, f"{player}'s hand") for c in cards)
        rest = list(cards)
        for c in hand:
            if c != UNKNOWN:
                if c not in rest:
                    raise LobaError(f"{player} showed {' '.join(self.rs.deck.names_of(cards))}, but holds "
                                    f"{self.rs.deck.name(c)} by the record")
                rest.remove(c)
        if len(cards) != len(hand):
            raise LobaError(f"{player} holds {len(hand)} card(s), but {len(cards)} were shown")
        over = partial.over_the_deck(self.rs, s, tuple(rest))
        if over:
            raise IllegalMove(Draw(player, "stock"), over)
        log.shown[player] = cards
        self._score(log)

    def _unscored(self) -> str:
        s = self.state
        log = self.rounds[-1]
        who = [f"{p}'s hand holds {h.count(UNKNOWN)} unknown card(s)" for p, h in zip(s.players, s.hands, strict=True)
               if UNKNOWN in h and p not in log.shown]
        return "; ".join(who) + " (show them: the round's \"shown\" in a record, Table.show)"

    def outcome(self) -> scoring.RoundResult | None:
        """The current round's result once it is over and scored (as ``loba score`` would), else ``None``."""
        return self.rounds[-1].result if self.state.phase is Phase.OVER else None

    def totals(self) -> dict[str, int]:
        """Every round's scores added up (without the match's re-entries: see :meth:`standings`)."""
        out = dict.fromkeys(self.players, 0)
        for r in self.results:
            for name, points in r.scores.items():
                out[name] += points
        return out

    # ------------------------------------------------------------ the match

    def standings(self) -> Standings:
        """The match after the rounds scored so far: totals, eliminations, re-entries, offers, the winner."""
        key = (len(self.results), sum(len(r.reentries) for r in self.rounds))
        if self._match is not None and self._match[0] == key:
            return self._match[1]
        rounds: list[MatchRound] = []
        decisions: list[list[tuple[str, bool]]] = []
        for log in self.rounds:
            if log.result is None:
                break
            rounds.append(self._match_round(log))
            decisions.append(log.reentries)
        got = standings(self.rs, self.players, rounds, decisions, self.target)
        self._match = (key, got)
        return got

    def _match_round(self, log: RoundLog) -> MatchRound:
        r = log.result
        assert r is not None
        s = log.states[-1]
        if self.rs.match.instant_win is None:  # the points are all the match rules need
            return MatchRound(tuple(PlayerPoints(p.name, p.score, p.went_out) for p in r.players), r.round_number,
                              r.stock_out)
        melds: list[list[tuple[Card, ...]]] = [[] for _ in s.players]
        for m in s.melds:
            melds[m.owner].append(m.cards)
        hands = [log.shown.get(p, h) for p, h in zip(s.players, s.hands, strict=True)]
        return MatchRound(tuple(PlayerRound(p.name, tuple(melds[i]), hands[i], p.went_out, p.all_at_once)
                                for i, p in enumerate(r.players)), r.round_number, r.stock_out)

    def reentry_offers(self) -> tuple[ReentryOffer, ...]:
        """The re-entries waiting for a decision (right after the round that eliminated the player)."""
        if not self.rounds or self.rounds[-1].result is None:
            return ()
        return self.standings().offers

    def reenter(self, player: str, accept: bool = True) -> ReentryOffer:
        """Decide an offered re-entry (``accept=False``: the player stays out); the offer decided."""
        offer = next((o for o in self.reentry_offers() if o.player == player), None)
        if offer is None:
            m = self.standings() if self.results else None
            why = "the match is over" if m is not None and m.over else "no re-entry is offered to them now"
            raise MatchRefused(f"{player} cannot decide a re-entry: {why} (match.reentry)")
        self.rounds[-1].reentries.append((player, accept))
        self._match = None
        return offer

    # ------------------------------------------------------------ who plays next

    def playing(self) -> tuple[str, ...]:
        """Who plays the next round, in seating order; refused while a round is on, while re-entries wait
        for a decision, and once the match is over."""
        if self.rounds and self.state.phase is not Phase.OVER:
            raise LobaError(f"round {len(self.rounds)} has not ended yet")
        if self.rounds and self.rounds[-1].result is None:
            raise MatchRefused(f"round {len(self.rounds)} has ended, but its scores cannot be counted: "
                               + self._unscored())
        if not self.rounds:
            return self.players
        m = self.standings()
        if m.offers:
            waiting = ", ".join(f"{o.player} (at {o.score})" for o in m.offers)
            raise MatchRefused(f"decide the re-entries first: {waiting} may re-enter (match.reentry); "
                               "Table.reenter(player, accept)")
        if m.over:
            raise MatchRefused(f"the match is over: {', '.join(m.winners)} won ({m.how}); no round is dealt "
                               "after it")
        return m.playing

    def next_dealer(self) -> int:
        """The seat (in :attr:`players`) that deals the next round: ``deal.next_dealer`` among the players
        still in (the player who went out, if they play on; else the deal passes on to the next player in)."""
        s = self.state
        playing = self.playing()
        if self.rs.deal.next_dealer is NextDealer.WENT_OUT and s.went_out is not None \
                and s.players[s.went_out] in playing:
            return self.players.index(s.players[s.went_out])
        n, d, step = len(self.players), self.players.index(s.players[s.dealer]), referee.step(self.rs)
        return next((d + k * step) % n for k in range(1, n + 1) if self.players[(d + k * step) % n] in playing)
