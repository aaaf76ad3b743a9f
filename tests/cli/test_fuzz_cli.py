"""The CLI on fuzzed inputs (issue 9 item 5: "a test proves the fuzzers never reach" exit 3): through
Typer's runner, every command ends with exit 0, 1 or 2, never an escaped exception or a traceback."""

from __future__ import annotations

import random
from pathlib import Path

import fuzz_inputs as F
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from loba_cli.main import app

CLI = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture],
               derandomize=True)


def loba(*args: str, input: str | None = None) -> None:
    """``loba ARGS`` (stdin ``input``, as the bytes a terminal would send, invalid UTF-8 included)."""
    data = None if input is None else input.encode("utf-8", "surrogatepass")
    result = CliRunner().invoke(app, list(args), input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    assert "Traceback" not in result.output


@given(st.randoms(use_true_random=False))
@CLI
def test_check_and_arrange_on_fuzzed_cards(rnd: random.Random) -> None:
    text = F.card_text(rnd)
    loba("check", text)
    loba("check", text, "--json")
    batch = (text + "\n" + F.card_text(rnd)).encode("utf-8", "replace").decode("utf-8")
    loba("check", "-", input=batch)  # batch mode: one line each (valid UTF-8: see below)
    if len(text) < 40:
        loba("arrange", text, "-r", rnd.choice(["menos", "sin-jokers", "chinchon"]))


@given(rnd=st.randoms(use_true_random=False))
@CLI
def test_score_and_match_on_fuzzed_sheets(rnd: random.Random, tmp_path: Path) -> None:
    path = tmp_path / "sheet.txt"
    path.write_text(F.sheet_text(rnd, match=False), encoding="utf-8", errors="surrogatepass")
    loba("score", str(path))
    loba("score", str(path), "--json")
    path.write_text(F.sheet_text(rnd, match=True), encoding="utf-8", errors="surrogatepass")
    loba("match", str(path))
    loba("match", str(path), "--json")


@pytest.mark.parametrize("mutate", [F.yaml_mutation, F.structural_mutation], ids=["text", "structure"])
def test_validate_show_check_and_diff_on_fuzzed_rulesets(mutate: object, tmp_path: Path) -> None:
    @given(st.randoms(use_true_random=False))
    @settings(max_examples=15, deadline=None, derandomize=True)
    def prop(rnd: random.Random) -> None:
        path = tmp_path / "house.yaml"
        assert callable(mutate)
        path.write_text(mutate(rnd), encoding="utf-8", errors="surrogatepass")
        loba("validate", str(path))
        loba("validate", str(path), "--json")
        loba("show", str(path))
        loba("check", "A♠ 2♠ 3♠", "-r", str(path), "--json")
        loba("diff", "menos", str(path), "--no-witnesses")

    prop()


def test_batch_check_with_invalid_utf8_on_stdin_is_a_clear_error() -> None:
    loba("check", "-", input="A♠ 2♠ 3♠\n\ud800\n")
