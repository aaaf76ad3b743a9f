"""A cached ``loba check`` imports neither pathlib nor hashlib, dataclasses nor typing (issues 11 and 22: start-up).

pathlib brings urllib.parse and ipaddress, hashlib loads OpenSSL: a few ms each of every start.  The
start-up path joins paths with ``os.path`` and takes SHA-256 from the interpreter's own module, so a
later import of either on that path would slow every ``loba check`` without any test noticing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

OFF_THE_PATH = ("pathlib", "hashlib", "_hashlib", "urllib.parse", "ipaddress")
# Issue 22: the standard dataclasses module brings inspect (with ast, dis, tokenize) and copy; the classes
# of a cached ``loba check`` are built by loba_dsl.frozen without them.  typing (with contextlib and
# warnings) is read by type checkers only: its names are imported under ``if TYPE_CHECKING:``, the flag
# being the module's own ``TYPE_CHECKING = False``; importlib's package brings warnings too.  json compiles
# regular expressions at import (and brings re): the disk cache's entry and a record are read through
# loba_dsl.jsontext (the same C functions json calls), and no other regular expression is compiled.
OFF_THE_CHECK_PATH = (*OFF_THE_PATH, "dataclasses", "inspect", "ast", "dis", "tokenize", "copy", "typing",
                      "contextlib", "warnings", "importlib", "json", "re")

# Runs the command as the ``loba`` script does, then prints, on stdout's last line, which of the given
# modules it imported (and whether YAML was read: a cache miss compiles the ruleset).
_CHILD = """
import sys
from loba_cli.main import main
watched = sys.argv[1].split(",")
sys.argv = ["loba", *sys.argv[2:]]
try:
    main()
except SystemExit as e:
    code = e.code
imported = sorted(m for m in watched if m in sys.modules)
import json  # only now: json is watched too
print(json.dumps({"code": code, "imported": imported}))
"""


def _check(cache: Path, *args: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "LOBA_NO_CACHE"}
    env["LOBA_CACHE_DIR"] = str(cache)
    # ``--json`` prints JSON: json (and re) are its business; the rest stays off its path too.
    watched = ",".join(m for m in [*OFF_THE_CHECK_PATH, "yaml"] if "--json" not in args or m not in ("json", "re"))
    # Run in an empty folder: ``python -c`` puts the current folder first on ``sys.path``.
    proc = subprocess.run([sys.executable, "-c", _CHILD, watched, "check", *args], capture_output=True, text=True,
                          env=env, cwd=cache.parent, check=False)
    assert proc.stderr == ""
    result: dict[str, object] = json.loads(proc.stdout.splitlines()[-1])
    return result


def test_a_cached_check_imports_neither_pathlib_nor_hashlib_nor_dataclasses(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _check(cache, "A♣ 2♣ JOKER")  # fills the disk cache
    # A♣ 2♣ JOKER is a legal run under the default ruleset (docs/rules.md: a joker stands for 3♣): exit 0.
    for args in (["A♣ 2♣ JOKER"], ["A♣ 2♣ JOKER", "--json"]):
        result = _check(cache, *args)
        assert result == {"code": 0, "imported": []}, args


def _command(cache: Path, watched: str, *args: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "LOBA_NO_CACHE"}
    env["LOBA_CACHE_DIR"] = str(cache)
    proc = subprocess.run([sys.executable, "-c", _CHILD, watched, *args], capture_output=True, text=True,
                          env=env, cwd=cache.parent, check=False)
    assert proc.stderr == ""
    result: dict[str, object] = json.loads(proc.stdout.splitlines()[-1])
    return result


def test_replay_starts_from_the_disk_cache_without_typer(tmp_path: Path) -> None:
    """Issue 22: every command starts from the disk cache; ``loba replay FILE`` reads no YAML once the
    record's ruleset was compiled, and, a plain invocation, does without Typer as ``loba check`` does."""
    import loba_dsl as loba

    table = loba.Table.deal(loba.load("menos"), ["Ana", "Beto"], "Beto", seed=3)
    record = tmp_path / "round.json"
    record.write_text(loba.dump_record(table.record()), encoding="utf-8")  # a deal, no move yet: valid
    cache = tmp_path / "cache"
    first = _command(cache, "yaml,typer", "replay", str(record))
    assert first == {"code": 0, "imported": ["yaml"]}  # compiled from its YAML, then kept
    again = _command(cache, "yaml,typer", "replay", str(record))
    assert again == {"code": 0, "imported": []}


def _round_record(tmp_path: Path) -> Path:
    import loba_dsl as loba

    table = loba.Table.deal(loba.load("menos"), ["Ana", "Beto"], "Beto", seed=3)
    record = tmp_path / "round.json"
    record.write_text(loba.dump_record(table.record()), encoding="utf-8")  # a deal, no move yet: valid
    return record


def test_a_cached_replay_imports_neither_pathlib_nor_hashlib(tmp_path: Path) -> None:
    """Issue 22, item 5: ``loba replay`` keeps off what ``loba check`` keeps off (the record's digest takes
    the interpreter's own SHA-256, its folder is joined with ``os.path``; the game's classes are built by
    loba_dsl.frozen, typing is read by type checkers only), and random too: a replay deals nothing."""
    record = _round_record(tmp_path)
    cache = tmp_path / "cache"
    _command(cache, "yaml", "replay", str(record))  # fills the disk cache
    again = _command(cache, ",".join([*OFF_THE_CHECK_PATH, "random"]), "replay", str(record))
    assert again == {"code": 0, "imported": []}


# Counts the classes whose docstring the standard dataclass decorator wrote by asking inspect for a signature
# (a parse of the class's annotations, at import), while the command runs.
_SIGNATURES = """
import inspect, json, sys
asked = []
signature = inspect.signature
def counting(obj, *args, **kwargs):
    if str(getattr(obj, "__module__", "")).startswith(("loba_dsl", "loba_cli")):
        asked.append(f"{obj.__module__}.{obj.__qualname__}")
    return signature(obj, *args, **kwargs)
inspect.signature = counting
from loba_cli.main import main
sys.argv = ["loba", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(asked))
"""


def test_no_class_on_the_check_or_replay_path_asks_inspect_for_its_docstring(tmp_path: Path) -> None:
    """Every dataclass ``loba check`` and ``loba replay`` import has its own docstring (or comes from
    loba_dsl.frozen, which writes it): the standard decorator otherwise builds one from
    ``inspect.signature`` at import, a cost of every start-up."""
    record = _round_record(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "LOBA_NO_CACHE"}
    env["LOBA_CACHE_DIR"] = str(tmp_path / "cache")
    for args in (["check", "A♣ 2♣ JOKER"], ["replay", str(record)]):
        for _ in range(2):  # the first run of each fills the disk cache (a miss compiles the ruleset's YAML)
            proc = subprocess.run([sys.executable, "-c", _SIGNATURES, *args], capture_output=True, text=True,
                                  env=env, cwd=tmp_path, check=False)
        assert json.loads(proc.stdout.splitlines()[-1]) == [], args
