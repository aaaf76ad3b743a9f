"""The ``loba`` commands that read cards, files and rulesets: a thin layer over the :mod:`loba_dsl` facade.

Exit codes: 0 ok (legal meld, valid ruleset), 1 a finding (not legal, invalid
ruleset), 2 bad input or usage.  Data goes to stdout, diagnostics to stderr.
The commands register themselves on :data:`loba_cli.app.app`; the game commands (replay, deal, moves)
and ``serve`` live in their own modules, and :mod:`loba_cli.main` gathers them all.
The library is imported inside the commands, so that ``loba --help`` and
each command pay only for what they use.  The entry point is
:func:`loba_cli.main.main`, which runs plain ``loba check`` invocations without
importing this module at all (:mod:`loba_cli.fast`, issue 11).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from loba_cli.app import JsonOpt, LangOpt, RulesetOpt, app
from loba_cli.common import DEFAULT_RULESET, check_command, error_json, read_text
from loba_cli.common import batch_file as _batch_file
from loba_cli.common import dumps as _dumps
from loba_cli.common import emit as _emit
from loba_cli.common import fail as _fail
from loba_cli.common import guard as _guard
from loba_cli.common import joined as _joined
from loba_cli.common import json_mode as _json_mode
from loba_cli.common import load_ruleset as _load
from loba_cli.common import read_lines as _lines

__all__ = ["ARRANGE_SECONDS", "Progress"]

ARRANGE_SECONDS = 10.0
"""`loba arrange --time-limit`'s default: seconds per hand."""


# ---------------------------------------------------------------- check


@app.command()
def check(
    words: Annotated[
        list[str] | None,
        typer.Argument(metavar="CARDS", help="The cards, e.g. \"A♣ 2♣ JOKER\" (quoted or not); '-' reads one meld "
                       "per line from stdin."),
    ] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
    file: Annotated[
        str | None, typer.Option("--file", "-f", help="Check one meld per line of this file ('-': stdin).")
    ] = None,
    opening: Annotated[
        bool, typer.Option("--opening", help="CARDS is a first lay-down (melds split by '|'): does it reach "
                           "the ruleset's opening minimum?")
    ] = False,
    contract: Annotated[
        int | None, typer.Option("--contract", metavar="ROUND", help="CARDS is a lay-down (melds split by '|'): "
                                 "does it fulfil this round's contract?")
    ] = None,
) -> None:
    """Say whether CARDS form one legal meld, which kind, what each wild stands for, and why not."""
    raise typer.Exit(check_command(words, ruleset, lang, as_json, file, opening, contract))


# ---------------------------------------------------------------- score, match


def _cards_or_file(arg: str) -> tuple[str, str]:
    """``loba score "A♠ K♦"``: an argument that names no file but reads as cards is the hand itself."""
    if arg != "-" and not os.path.exists(arg) and (any(ch.isspace() or ch in _SUIT_MARKS for ch in arg)):
        return arg, "<cards>"
    return read_text(arg, "round (or the cards of a hand)")


_SUIT_MARKS = "♠♥♦♣♤♡♢♧🃏"


@app.command()
def score(
    file: Annotated[str, typer.Argument(help="A round file, or just the cards of one hand ('-': stdin).")],
    ruleset: RulesetOpt = DEFAULT_RULESET,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Score one round: each player's score with meld points, hand value and bonus."""
    _json_mode(as_json)
    from loba_dsl import read_round, round_text, score_round_sheet

    text, source = _cards_or_file(file)
    rs = _guard(lambda: _load(ruleset))
    result = _guard(lambda: score_round_sheet(read_round(text, rs, source=source, lang=lang), rs))
    _emit(_dumps(result.to_dict()) if as_json else round_text(result))


@app.command()
def match(
    file: Annotated[str, typer.Argument(help="A match file: rounds and re-entries ('-': stdin).")],
    ruleset: RulesetOpt = DEFAULT_RULESET,
    target: Annotated[
        int | None, typer.Option("--target", help="Target score for rulesets that end at a target (150, 200, 300).")
    ] = None,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play a whole match: standings after every round, eliminations, re-entries, the winner."""
    _json_mode(as_json)
    from loba_dsl import match_text, play_match_sheet, read_match

    text, source = read_text(file, "match")
    rs = _guard(lambda: _load(ruleset))
    result = _guard(lambda: play_match_sheet(read_match(text, rs, source=source, lang=lang), rs, target=target))
    _emit(_dumps(result.to_dict()) if as_json else match_text(result))


# ---------------------------------------------------------------- arrange


@app.command()
def arrange(
    words: Annotated[
        list[str] | None, typer.Argument(metavar="CARDS", help="The hand, e.g. \"A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠\" "
                                         "(quoted or not); '-' reads one per line.")
    ] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
    file: Annotated[
        str | None, typer.Option("--file", "-f", help="One hand per line of this file ('-': stdin).")
    ] = None,
    discard: Annotated[
        bool, typer.Option("--discard", help="The hand has just drawn: choose the best discard first (exact).")
    ] = False,
    opened: Annotated[
        bool, typer.Option("--opened", help="The player has already opened (put cards down in an earlier turn): "
                           "the ruleset's opening minimum or contract no longer applies, nor "
                           "turn.go_out_on_first_lay_down (default: not yet opened).")
    ] = False,
    round_number: Annotated[
        int | None, typer.Option("--round", metavar="N", min=1, help="The round being played (a ruleset with "
                                 "contracts puts down round N's contract first).")
    ] = None,
    time_limit: Annotated[
        float, typer.Option("--time-limit", min=0.001, help="Seconds each hand's search may take; past it the "
                            "hand is an error (exit 2), never a guess.")
    ] = ARRANGE_SECONDS,
) -> None:
    """The best arrangement of a hand into melds: what is left, its value, the score, whether it can go out.

    Under a ruleset with an opening minimum (bazas) or contracts (contrato), a player who has not opened
    can put down only a lay-down that meets them; --opened lifts that, --round N names the contract.
    """
    _json_mode(as_json)
    cards = _joined(words)
    file = _batch_file(cards, file, "give the hand to arrange, or --file")
    advice: dict[str, Any] = {"opened": opened, "round_number": round_number}
    rs = _guard(lambda: _load(ruleset))
    solver = _guard(lambda: _solver(rs, time_limit))
    if file is None:
        assert cards is not None
        with Progress(sys.stderr).ticking():
            text = _guard(lambda: _arrange_one(cards, rs, solver, lang, as_json, discard, "<cards>", 1, **advice))
        _emit(text)
        return
    worst = 0
    source = "<stdin>" if file == "-" else file
    from loba_dsl import LobaError

    progress = Progress(sys.stderr)
    lines: Iterable[str] = _lines(file)
    if progress.on and not (file == "-" and sys.stdin.isatty()):  # a file or a pipe: count the hands first
        lines = list(lines)
        progress.total = sum(1 for line in lines if _is_hand_line(line))
    for number, line in enumerate(lines, start=1):
        if not _is_hand_line(line):
            continue
        try:
            with progress.ticking():
                text = _arrange_one(line.rstrip("\n"), rs, solver, lang, as_json, discard, source, number, **advice)
            _emit(text)
        except LobaError as e:
            worst = 2
            if as_json:
                _emit(_dumps({"input": line.rstrip("\n"), "ruleset": rs.name, **error_json(e)}))
            sys.stderr.write(e.render() + "\n")
        progress.step()
    progress.clear()
    raise typer.Exit(worst)


def _is_hand_line(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


class Progress:
    """A one-line note on stderr while ``arrange`` works, only when stderr is a terminal (never on a pipe).

    In batch mode :meth:`step` shows "arranged N/TOTAL hands"; :meth:`ticking` shows the seconds a hand has
    taken once it has taken more than ``after`` seconds.  The note is erased before anything is written to
    stdout or stderr, so it never ends up in the output.
    """

    def __init__(self, stream: TextIO, *, total: int | None = None, after: float = 1.0) -> None:
        self.stream = stream
        self.total = total
        self.after = after
        self.done = 0
        isatty = getattr(stream, "isatty", None)
        self.on = bool(isatty()) if callable(isatty) else False
        self._shown = False
        self._lock = threading.Lock()

    def _draw(self, text: str) -> None:
        with self._lock:
            self.stream.write("\r" + text + "\x1b[K")
            self.stream.flush()
            self._shown = True

    def clear(self) -> None:
        """Erase the note, if one is shown."""
        with self._lock:
            if self._shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self._shown = False

    def _counted(self) -> str:
        return f"arranged {self.done}/{self.total} hands" if self.total is not None else f"arranged {self.done} hands"

    def step(self) -> None:
        """One more hand done."""
        self.done += 1
        if self.on and (self.total is None or self.done < self.total):
            self._draw(self._counted())

    @contextlib.contextmanager
    def ticking(self) -> Iterator[None]:
        """While the body runs: after ``after`` seconds, the seconds it has taken; the note is erased after."""
        if not self.on:
            yield
            return
        stop = threading.Event()
        start = time.monotonic()
        batch = self.done > 0 or self.total is not None

        def tick() -> None:
            if stop.wait(self.after):
                return
            while not stop.is_set():
                seconds = f"{time.monotonic() - start:.0f} s"
                self._draw(f"{self._counted()}; this one {seconds}" if batch else f"arranging... {seconds}")
                stop.wait(0.5)

        thread = threading.Thread(target=tick, daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
            self.clear()


def _solver(rs: Any, seconds: float) -> Any:
    from loba_dsl import Solver

    return Solver(rs, budget=seconds)


def _arrange_one(text: str, rs: Any, solver: Any, lang: str | None, as_json: bool, discard: bool, source: str,
                 line: int, *, opened: bool = False, round_number: int | None = None) -> str:
    from loba_dsl import arrange_hand, arranged_hand_dict, arranged_hand_text

    hand = arrange_hand(solver, text, opened=opened, round_number=round_number, lang=lang, source=source,
                        line=line, discard=discard)
    return _dumps(arranged_hand_dict(hand, rs)) if as_json else arranged_hand_text(hand, rs)


# ---------------------------------------------------------------- diff


@app.command("diff")
def diff_cmd(
    a: Annotated[str, typer.Argument(help="A ruleset: a shipped name or a .yaml file.")],
    b: Annotated[str, typer.Argument(help="The ruleset to compare it with.")],
    deals: Annotated[
        int, typer.Option("--deals", min=0, help="Also deal and solve N random hands under each ruleset.")
    ] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the dealt hands (same seed, same figures).")] = 1,
    matches: Annotated[
        int, typer.Option("--matches", min=0, help="Also let bots play N seeded matches under each ruleset "
                          "(the same seeds) and compare the figures (see loba simulate).")
    ] = 0,
    bots: Annotated[str, typer.Option("--bots", help="The bots of --matches, one per seat.")] = "greedy,greedy,greedy",
    no_witnesses: Annotated[bool, typer.Option("--no-witnesses", help="Only the rules, no examples.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """How two variants differ: the rules, the smallest examples that behave differently, and play figures.

    Exit 0 when the rulesets behave the same, 1 when they differ, 2 on bad input.
    """
    _json_mode(as_json)
    from loba_dsl import diff, diff_text

    left = _guard(lambda: _load(a))
    right = _guard(lambda: _load(b))
    witnesses = not no_witnesses
    if matches:
        hook = _simulated_play(matches, bots, deals, seed)
        report = _guard(lambda: diff(left, right, witnesses=witnesses, stats=hook))
        _emit(_dumps(report.to_dict()) if as_json else diff_text(report).rstrip("\n"))
        raise typer.Exit(0 if report.same else 1)
    if deals and sys.stderr.isatty():
        with typer.progressbar(length=2 * deals, label="dealing and solving", file=sys.stderr) as bar:
            report = _guard(lambda: diff(left, right, witnesses=witnesses, deals=deals, seed=seed,
                                         progress=bar.update))
    else:
        report = _guard(lambda: diff(left, right, witnesses=witnesses, deals=deals, seed=seed))
    _emit(_dumps(report.to_dict()) if as_json else diff_text(report).rstrip("\n"))
    raise typer.Exit(0 if report.same else 1)


def _simulated_play(matches: int, bots: str, deals: int, seed: int) -> Any:
    """The statistics hook of ``diff --matches``: simulated matches under both rulesets (and the dealt hands of
    ``--deals``, where asked), as the rows of the report's table (± one standard error)."""
    from loba_dsl import bot_names, play_stats, simulate

    names = _guard(lambda: bot_names(bots))

    def hook(a: Any, b: Any) -> dict[str, Any]:
        rows: list[dict[str, Any]] = []
        out: dict[str, Any] = {}
        if deals:
            dealt = play_stats(a, b, deals=deals, seed=seed).to_dict()
            rows.extend(dealt.pop("figures"))
            out["deals"] = dealt["deals"]
        if sys.stderr.isatty():
            with typer.progressbar(length=matches, label="playing matches", file=sys.stderr) as bar:
                sim = simulate(a, vs=b, games=matches, bots=names, seed=seed, progress=bar.update)
        else:
            sim = simulate(a, vs=b, games=matches, bots=names, seed=seed)
        for f in sim.figures:
            ea, eb = f.sides
            rows.append({"name": f"{f.name} (played)", "a": ea.value, "b": eb.value, "spread_a": ea.se,
                         "spread_b": eb.se, "diff": None if f.diff is None else f.diff.value,
                         "se": None if f.diff is None else f.diff.se, "unit": f.unit})
        out.update({"matches": matches, "bots": ",".join(names), "seed": seed, "same deals": sim.paired,
                    "unfinished": list(sim.unfinished), "±": "one standard error", "figures": rows})
        return out

    return hook


# ---------------------------------------------------------------- rulesets, show, validate


@app.command("rulesets")
def rulesets_cmd(as_json: JsonOpt = False) -> None:
    """List the shipped rulesets with a one-line description."""
    _json_mode(as_json)
    from loba_dsl import catalogue_dict, shipped_names

    rulesets = _guard(lambda: [_load(name) for name in shipped_names()])
    if as_json:  # the object GET /v1/rulesets answers
        _emit(_dumps(catalogue_dict(rulesets, DEFAULT_RULESET)))
        return
    rows = [(rs.name, rs.description) for rs in rulesets]
    width = max(len(n) for n, _ in rows)
    for name, description in rows:
        default = " (default)" if name == DEFAULT_RULESET else ""
        _emit(f"{name:<{width}}  {description}{default}")


@app.command()
def show(
    name: Annotated[str, typer.Argument(help="A shipped ruleset name or a .yaml file.")],
    origin: Annotated[bool, typer.Option("--origin", help="Say which file:line each value comes from.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Print a ruleset as resolved (after `extends` and defaults)."""
    _json_mode(as_json)
    from loba_dsl import ruleset_text, show_dict

    rs = _guard(lambda: _load(name))
    if as_json:  # with --origin, the object GET /v1/rulesets/{name} answers
        _emit(_dumps(show_dict(rs, origins=origin)))
        return
    _emit(ruleset_text(rs, origin=origin).rstrip("\n"))


@app.command()
def validate(
    file: Annotated[str, typer.Argument(help="The house ruleset file to check ('-': stdin).")],
    as_json: JsonOpt = False,
) -> None:
    """Check a house ruleset: exit 0 valid, 1 invalid, 2 unreadable."""
    _json_mode(as_json)
    from loba_dsl import LobaError, LobaErrors, load_file, validation_dict

    if file != "-" and not os.path.isfile(file):
        _fail(f"error: no such file: {file}" if not os.path.exists(file) else f"error: not a file: {file}")
    try:
        if file == "-":  # the text on stdin; its `extends` reaches shipped rulesets and files of this folder
            from loba_dsl import Siblings, loads

            rs = loads(sys.stdin.buffer.read(), source="<stdin>", resolver=Siblings(os.getcwd()), cached=False)
        else:
            rs = load_file(file, cached=False)
    except LobaError as e:
        errors = e.errors if isinstance(e, LobaErrors) else (e,)
        code = 2 if any(x.code == "unreadable" for x in errors) else 1
        if as_json:  # the object POST /v1/rulesets/validate answers
            _emit(_dumps(validation_dict(file, e)))
        sys.stderr.write(e.render() + "\n")
        raise typer.Exit(code) from None
    for warning in rs.warnings:  # legal but surely not meant: said, never an error (issue 10)
        sys.stderr.write(warning.render() + "\n")
    if as_json:
        _emit(_dumps(validation_dict(file, rs)))
    else:
        parents = " -> ".join(Path(f).name for f in rs.files)
        _emit(f"{file}: valid ruleset '{rs.name}' ({parents}; meld kinds: {', '.join(k.name for k in rs.kinds)})")


# ---------------------------------------------------------------- schema, new, help


@app.command("schema")
def schema_cmd() -> None:
    """Print the ruleset JSON Schema, for editors: `loba schema > schema.json`."""
    from importlib.resources import files

    sys.stdout.write(files("loba_dsl").joinpath("rulesets/schema.json").read_text(encoding="utf-8"))


_SKELETON = """\
# yaml-language-server: $schema={schema}
# A house ruleset: it takes every rule of '{parent}' and changes only the keys below.
# Check it with `loba validate {file}`, see what it changes with `loba diff {parent} {file}`,
# and play with `--ruleset {file}`.  Every key is described in the schema (`loba schema`) and
# docs/rules.md; `loba show {parent} --origin` prints the rules you start from.
name: {name}
description: {parent}, with our house rules
extends: {parent}

# Uncomment and change what your table plays differently, for example:
#
# melds:
#   escalera:
#     shape: run 3..13, ace high or low, wilds <= 2     # aces both ways, two wilds per escalera
#
# wilds:
#   cards: JOKER, 2                                     # the 2s are wild too
#
# match:
#   eliminate_at: 101
#   reentry: {{max: 3, score: highest_plus_one}}        # or {{score: fixed, fixed_score: 50}}
#
# deal:
#   cards_by_players: {{"2": 11}}                       # 11 cards each at a table of two
"""


@app.command("new")
def new_cmd(
    name: Annotated[str, typer.Argument(help="The house ruleset's name, e.g. casa-garcia (writes NAME.yaml).")],
    extends: Annotated[str, typer.Option("--extends", help="The shipped ruleset to start from.")] = DEFAULT_RULESET,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented house-ruleset skeleton, NAME.yaml, that extends a shipped ruleset."""
    import re

    from loba_dsl import shipped_names

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        _fail(f"error: '{name}' is not a ruleset name: use lower-case letters, digits and hyphens, e.g. casa-garcia")
    if extends not in shipped_names():
        _fail(f"error: unknown ruleset '{extends}' (shipped: {', '.join(shipped_names())})")
    path = Path(f"{name}.yaml")
    if path.exists() and not force:
        _fail(f"error: {path} exists (--force overwrites it)")
    schema = Path("schema.json")
    if not schema.exists():
        from importlib.resources import files

        schema.write_text(files("loba_dsl").joinpath("rulesets/schema.json").read_text(encoding="utf-8"),
                          encoding="utf-8")
    path.write_text(_SKELETON.format(schema="schema.json", parent=extends, name=name, file=path), encoding="utf-8")
    _emit(f"wrote {path} (extends {extends}) and {schema} for editors; check it with `loba validate {path}`")


_FORMATS = """\
Round files (loba score FILE):

  # a comment
  round: 3                          # optional: the round's number, for the formula (default 1)
  players: 4                        # optional: how many play (default: those listed)
  player Ana: went out              # or: went out all at once
    table: A♥ 2♥ 3♥ | 7♠ 7♥ 7♦      # the melds on Ana's table, '|' between melds
  player Beto
    table: 4♣ 5♣ 6♣
    hand: JOKER A♠ K♦ 7♣            # the cards left in hand
  stock ran out                     # optional: the round ended with the stock

  A file (or argument) that is just cards is one hand: loba score "A♠ K♦ 2♣ 9♥".

Match files (loba match FILE):

  players: Ana, Beto, Carla, Dani
  round 1
    Ana: out                        # went out this round (scoring 0, as in menos)
    Beto: 34                        # points written down...
    Carla: 57
    Dani: 20
  round 2                           # (a round may also give each player's cards, as a round file does)
    Ana: out
    Beto: 40
    Carla: 50
    Dani: 12
  reenter Carla                     # right after the round that eliminated her

  Where going out scores points of its own (mas, mas-pagat: the melds; chinchon: -10), write them after
  'out': Ana: out 45.

  A name may be several words: players: Ana, María Luz  then  María Luz: 34
  (and in a round: player María Luz: went out).

Spanish words work in both: fuera (= out, went out), jugadores (= players), jugador (= player),
mesa (= table), mano (= hand), ronda (= round), reenganche (= reenter).

Hand and meld files (loba check --file, loba arrange --file): one meld or hand per line; '#' comments.
Every file may be '-' (standard input); UTF-8, with or without a byte-order mark.
"""


@app.command("help")
def help_cmd(
    topic: Annotated[str, typer.Argument(help="What to explain: formats.")] = "formats",
) -> None:
    """Explain a topic: `loba help formats` shows the round and match file formats with examples."""
    if topic != "formats":
        _fail(f"error: no help on '{topic}' (topics: formats); `loba --help` lists the commands")
    _emit(_FORMATS.rstrip("\n"))
