"""``loba simulate`` (bots playing many seeded games, their figures) and ``loba play`` (a person against bots).

Registered on :data:`loba_cli.app.app`; :mod:`loba_cli.main` gathers it with the other command modules.
Both are thin layers over the library: :func:`loba_dsl.simulate` and its text, and a
:class:`loba_dsl.Table` played move by move (the person's moves typed, the bots' chosen by
:func:`loba_dsl.make_bot`), the record written at the end.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from loba_cli.app import JsonOpt, RulesetOpt, app
from loba_cli.common import dumps as _dumps
from loba_cli.common import emit as _emit
from loba_cli.common import fail as _fail
from loba_cli.common import guard as _guard
from loba_cli.common import json_mode as _json_mode
from loba_cli.common import load_ruleset as _load
from loba_dsl import DEFAULT_RULESET

SEATS = ("Ana", "Beto", "Carla", "Dora", "Eva", "Fede", "Gala", "Hugo")
"""The bots' names at ``loba play``'s table."""
BotsOpt = Annotated[str, typer.Option("--bots", help="The bots, one per seat, in seating order: "
                                                     "random, greedy or search (e.g. greedy,greedy,search).")]


def _progress_bar(total: int, label: str) -> tuple[Callable[[int], None] | None, Callable[[], None]]:
    """A rich progress bar on stderr when it is a terminal (none on a pipe): (advance, close)."""
    if not sys.stderr.isatty():
        return None, lambda: None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(file=sys.stderr), transient=True)
    task = bar.add_task(label, total=total)
    bar.start()

    def advance(n: int) -> None:
        bar.update(task, advance=n)

    return advance, bar.stop


@app.command("simulate")
def simulate_cmd(
    ruleset: RulesetOpt = DEFAULT_RULESET,
    vs: Annotated[str | None, typer.Option("--vs", metavar="RULESET", help="Play the same seeded games under this "
                                           "ruleset too and report the differences.")] = None,
    matches: Annotated[int, typer.Option("--matches", "-n", help="How many games: whole matches (or rounds with "
                                         "--rounds).")] = 100,
    rounds: Annotated[bool, typer.Option("--rounds", help="Play single rounds instead of whole matches.")] = False,
    bots: BotsOpt = "greedy,greedy,greedy",
    seed: Annotated[int, typer.Option("--seed", help="The run's seed: the same seed gives the same figures.")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", "-w", min=1, help="Processes (default: all cores).")]
    = None,
    executor: Annotated[str, typer.Option("--executor", help="processes (this machine) or dask (a cluster).")]
    = "processes",
    address: Annotated[str | None, typer.Option("--address", metavar="tcp://HOST:8786",
                                                help="The Dask scheduler (with --executor dask).")] = None,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Worlds the search bot samples per "
                                                "decision of its play-outs (default 8; where lower scores are better "
                                                "its endgame lookahead decides instead).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Bots play many seeded games; the figures with 95% intervals (and, with --vs, the differences).

    Rounds per match, turns per round, how often the stock runs out, the mean round score, wins by seat and
    by bot, eliminations and re-entries per match.  The same --seed gives the same figures, whatever the
    executor and the number of workers.
    """
    _json_mode(as_json)
    from loba_dsl import bot_names, simulate, simulation_text

    names = _guard(lambda: bot_names(bots))
    left = _guard(lambda: _load(ruleset))
    right = _guard(lambda: _load(vs)) if vs is not None else None
    if matches < 1:
        _fail(f"error: --matches must be 1 or more, not {matches}")
    advance, close = _progress_bar(matches, "rounds" if rounds else "matches")
    try:
        report = _guard(lambda: simulate(left, games=matches, bots=names, seed=seed, match=not rounds, vs=right,
                                         executor=executor, workers=workers, address=address, progress=advance,
                                         search_samples=samples))
    finally:
        close()
    _emit(_dumps(report.to_dict()) if as_json else simulation_text(report))


# ---------------------------------------------------------------- loba play


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file beside it, then renamed)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Quit(Exception):
    """The person asked to stop (``q``, end of input)."""


class Terminal:
    """The person's side of the table: the table shown, moves asked for and read (numbers or notation)."""

    def __init__(self, table: Any, name: str, lang: str, ask: Callable[[str], str], say: Callable[[str], None]
                 ) -> None:
        self.table = table
        self.name = name
        self.lang = lang
        self.ask = ask
        self.say = say

    def _cards(self, cards: Any) -> str:
        rs = self.table.rs
        deck = rs.deck

        def key(c: int) -> tuple[int, int]:
            return (99, 99) if deck.is_joker(c) else (deck.suit_of(c), deck.rank_of(c))

        return " ".join(deck.names_of(sorted(cards, key=key))) or "(none)"

    def show(self) -> None:
        t = self.table
        v = t.view(self.name)
        names = t.rs.deck.names
        totals = {s.name: s.total for s in v.standings} if v.standings else dict.fromkeys(t.players, 0)
        self.say("")
        self.say(f"— round {v.round}, {v.to_move} to {'draw' if v.phase.value == 'draw' else 'play'} "
                 f"(dealer {v.dealer}) —")
        self.say("scores: " + ", ".join(f"{p} {totals.get(p, 0)}" for p in t.players))
        self.say("hands: " + ", ".join(f"{p} {n} card(s)" for p, n in zip(v.players, v.hand_sizes, strict=True))
                 + f"; stock {v.stock_size}")
        pile = " ".join(names[c] for c in v.pile[:8]) + (" …" if len(v.pile) > 8 else "")
        self.say(f"discard pile ({len(v.pile)}): {pile or '(empty)'}" + ("  (top first)" if v.pile else ""))
        if v.melds:
            self.say("table:")
            for m in v.melds:
                self.say(f"  {m.number}. {m.owner}'s {m.kind}: {' '.join(names[c] for c in m.cards)}")
        else:
            self.say("table: no melds yet")
        self.say(f"your hand ({len(v.hand)}): {self._cards(v.hand)}")

    def move(self, legal: list[Any]) -> Any:
        """Ask until the person names a legal move (a number of the list, or a move in the notation)."""
        from loba_dsl import LobaError, format_move, parse_move

        t = self.table
        rs = t.rs
        self.show()
        self.say("your moves:")
        for i, m in enumerate(legal, 1):
            self.say(f"  {i:>2}. {format_move(m, rs, self.lang)}")
        while True:
            try:
                text = self.ask("your move (a number, or a move such as "
                                f"'{format_move(legal[-1], rs, self.lang)}'; q to stop): ").strip()
            except EOFError:
                raise _Quit from None
            if text.lower() in ("q", "quit", "exit"):
                raise _Quit
            if not text:
                self.say("type the number of a move from the list, or the move itself")
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                self.say(f"there is no move {k}: choose 1 to {len(legal)}")
                continue
            line = text if text.startswith(self.name + " ") else f"{self.name} {text}"
            try:
                move = parse_move(line, rs, players=t.players)
            except LobaError as e:
                self.say(f"that is not a move: {e.message}")
                continue
            if move.player != self.name:
                self.say(f"you play for {self.name}, not {move.player}")
                continue
            verdict = t.check(move)
            if not verdict.ok:
                self.say("not allowed: " + "; ".join(r.text() for r in verdict.reasons))
                continue
            return move

    def reenter(self, offer: Any) -> bool:
        while True:
            try:
                text = self.ask(f"you are out at {offer.total}; re-enter at {offer.score}? [y/n]: ").strip().lower()
            except EOFError:
                raise _Quit from None
            if text in ("y", "yes", "s", "si", "sí"):
                return True
            if text in ("n", "no"):
                return False
            self.say("answer y or n")


def _play_match(table: Any, person: Terminal, bots: dict[str, Any]) -> None:
    """Play on until the match is over (or the person stops): bots move by themselves, events are told.

    A round proved never to end (``loba_dsl.game.stalemate.never_ends``, docs/rules.md §7) is stopped there, as
    ``Match.play_round`` stops it: unscored, the match over with it, the person told why.
    """
    from loba_dsl import RoundNeverEnds, format_event, match_text, proved_endless

    t = table
    rs = t.rs
    say = person.say
    while True:
        while t.state.phase.value != "over":
            if proved_endless(rs, t.state):
                say(RoundNeverEnds(t.round_number, t.state).message)
                return
            who = t.to_move
            legal = list(t.legal())
            if not legal:
                say(f"{who} has no legal move: the last put-down is taken back")
                t.undo()
                continue
            move = person.move(legal) if who == person.name else bots[who].move(t.view(who), legal)
            for e in t.play(move):
                if who != person.name or e.kind not in ("drew",):
                    say(format_event(e, rs, person.lang))
                else:
                    say(format_event(e, rs, person.lang).replace(f"{who} drew", "you drew"))
        result = t.outcome()
        say("")
        if result is not None:
            say(f"round {t.round_number} is over: " + ", ".join(f"{p} {s}" for p, s in result.scores.items()))
        while True:
            offers = t.reentry_offers()
            if not offers:
                break
            o = offers[0]
            accept = person.reenter(o) if o.player == person.name else bool(bots[o.player].reenter(o))
            t.reenter(o.player, accept)
            say(f"{o.player} {'re-enters' if accept else 'stays out'}")
        st = t.standings()
        say(match_text(st.result).rstrip("\n"))
        if st.over:
            say(f"the match is over: {', '.join(st.winners)} won")
            return
        t.next_round()


@app.command("play")
def play_cmd(
    ruleset: RulesetOpt = DEFAULT_RULESET,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=8, help="Players at the table, you "
                                         "included.")] = 3,
    bots: Annotated[str, typer.Option("--bots", help="The bots in the other seats, in order (cycled): random, "
                                      "greedy or search.")] = "greedy",
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "You",
    seed: Annotated[int | None, typer.Option("--seed", help="The deal's seed (default: a random one).")] = None,
    record: Annotated[str | None, typer.Option("--record", metavar="FILE", help="Write the game's loba-record/1 "
                                               "record here at the end (written whole or not at all).")] = None,
    lang: Annotated[str, typer.Option("--lang", help="The words of the moves: en or es.")] = "en",
) -> None:
    """Play a match in the terminal against bots: your hand sorted, the legal moves numbered.

    Type a move's number or the move itself ('discards K♦', 'melds 7♠ 7♥ 7♦'); q stops (the record is
    still written).
    """
    from loba_dsl import Table, bot_names, dump_record, make_bot

    rs = _guard(lambda: _load(ruleset))
    kinds = _guard(lambda: bot_names(bots))
    if lang not in ("en", "es"):
        _fail(f"error: --lang is en or es, not '{lang}'")
    if not rs.players.allows(players):
        _fail(f"error: {rs.name} is played by {rs.players.min} to {rs.players.max} players, not {players}")
    others = [s for s in SEATS if s != name][:players - 1]
    names = [name, *others]
    deal_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    table = _guard(lambda: Table.deal(rs, names, names[-1], deal_seed))
    if ruleset.endswith((".yaml", ".yml")):
        table.ruleset_ref = Path(ruleset).name
    rng = random.Random(deal_seed)
    seated = {n: make_bot(kinds[i % len(kinds)], random.Random(rng.getrandbits(64)),
                          **({"seconds": 2.0} if kinds[i % len(kinds)] == "search" else {}))
              for i, n in enumerate(others)}

    def ask(prompt: str) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    person = Terminal(table, name, lang, ask, say)
    say(f"{rs.name}: you ({name}) against " + ", ".join(f"{n} ({kinds[i % len(kinds)]})"
                                                         for i, n in enumerate(others)) + f"; seed {deal_seed}")
    try:
        _guard(lambda: _play_match(table, person, seated))
    except _Quit:
        say("stopped")
    if record is not None:
        try:
            write_atomically(record, dump_record(table.record()))
        except OSError as e:
            _fail(f"error: cannot write the record to {record}: {e.strerror or e}")
        say(f"the record is in {record}")
    raise typer.Exit(0)
