"""loba-dsl: Loba's rules as data, and one engine that reads them.

The public API, in the order data flows (text → cards → ruleset → engine → result)::

    import loba_dsl as loba
    rs = loba.load(name)                     # a shipped ruleset; loba.load_file(path), loba.loads(text)
    loba.check(rs, "A♣ 2♣ JOKER")            # CheckResult (the ruleset first, as everywhere below)
    loba.score_round(rs, [loba.PlayerRound(...), ...], loba.RoundFacts(players=4))   # RoundScore
    loba.play_match(rs, [loba.MatchRound(...), loba.Reentry("Ana"), ...])             # MatchResult
    loba.Solver(rs).arrange(cards)           # Arrangement
    loba.diff(rs, loba.load_file(path))      # DiffReport
    loba.Table.deal(rs, players=["Ana", "Beto", "Carla"], dealer="Carla", seed=7)   # the referee
    loba.Match(table, {"Ana": loba.RandomPlayer(), ...}).play()                       # a whole match
    loba.parse_move("Beto melds 7♠ 7♥ 7♦", rs)                                        # the move notation

and what the command line and the service build on: round and match files (``read_round``,
``score_round_sheet``, ``read_match``, ``play_match_sheet``, ``write_match``), lay-downs (``parse_lay_down``,
``check_opening``, ``check_contract``), a hand as the player stands (``arrange_hand``), game records
(``load_record``, ``dump_record``, ``replay``) and the texts for people (``check_text``, ``round_text``...).
The ``loba`` CLI imports nothing else of the library (tests/project/test_architecture.py).

One argument order: the ruleset first (``check(rs, text)``, ``read_round(rs, text)``, ``score_round(rs, ...)``),
``ruleset=`` as a keyword everywhere; the functions that took their text first (``check(text, rs)``,
``read_round``, ``read_match``, ``score_round_sheet``, ``play_match_sheet``, ``check_lines``, ``parse_move``)
still do (:mod:`loba_dsl.argorder`).

Every error the library raises for a user's input or ruleset is a :class:`LobaError`, whose
``to_dict()`` lists every problem with its file, line, column and length.

The names are imported on first use (PEP 562), so ``import loba_dsl`` costs nothing and a command
pays only for what it uses.  Nothing inside the library imports from this module.

>>> import loba_dsl as loba
>>> from loba_dsl.defaults import DEFAULT_RULESET
>>> loba.check("A♣ 2♣ JOKER", loba.load(DEFAULT_RULESET)).valid
True
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {  # name: "module" or "module:name there"
    # loading rulesets
    "load": "loba_dsl.rules.loading",
    "load_file": "loba_dsl.rules.loading",
    "loads": "loba_dsl.rules.loading",
    "Resolver": "loba_dsl.rules.loading",
    "ShippedOnly": "loba_dsl.rules.loading",
    "Siblings": "loba_dsl.rules.loading",
    "SHIPPED_ONLY": "loba_dsl.rules.loading",
    "Ruleset": "loba_dsl.rules.model",
    "shipped_names": "loba_dsl.rules.loading",
    "enable_disk_cache": "loba_dsl.rules.loading",
    "DEFAULT_RULESET": "loba_dsl.defaults",
    # cards
    "Notation": "loba_dsl.cards.notation",
    "ParsedCards": "loba_dsl.cards.notation",
    # melds
    "check": "loba_dsl.melds.check",
    "CheckResult": "loba_dsl.melds.check",
    "check_lines": "loba_dsl.melds.check",
    # lay-downs against the opening minimum or a round's contract
    "parse_lay_down": "loba_dsl.scoring.requirements",
    "check_opening": "loba_dsl.scoring.requirements:opening",
    "check_contract": "loba_dsl.scoring.requirements:contract",
    "Verdict": "loba_dsl.scoring.requirements",
    # scoring rounds and matches
    "PlayerRound": "loba_dsl.scoring.model",
    "RoundFacts": "loba_dsl.scoring.model",
    "MatchRound": "loba_dsl.scoring.model",
    "PlayerPoints": "loba_dsl.scoring.model",
    "Reentry": "loba_dsl.scoring.model",
    "score_round": "loba_dsl.scoring.rounds",
    "RoundScore": "loba_dsl.scoring.rounds",
    "PlayerScore": "loba_dsl.scoring.rounds",
    "play_match": "loba_dsl.scoring.match_play",
    "MatchResult": "loba_dsl.scoring.match_play",
    # round and match files (the text formats of `loba help formats`)
    "read_round": "loba_dsl.scoring.score_sheets",
    "read_match": "loba_dsl.scoring.score_sheets",
    "score_round_sheet": "loba_dsl.scoring.score_sheets",
    "play_match_sheet": "loba_dsl.scoring.score_sheets",
    "write_match": "loba_dsl.scoring.sheet_writer",
    # arranging hands
    "Solver": "loba_dsl.solver.api",
    "Arrangement": "loba_dsl.solver.api",
    "arrange_hand": "loba_dsl.solver.advice",
    # refereeing moves and matches
    "Table": "loba_dsl.game",
    "IllegalMove": "loba_dsl.game",
    "InvalidMove": "loba_dsl.game",
    "Match": "loba_dsl.game",
    "Player": "loba_dsl.game",
    "PlayerView": "loba_dsl.game",
    "RandomPlayer": "loba_dsl.game",
    "ReentryOffer": "loba_dsl.game",
    "GameRecord": "loba_dsl.game",
    "TableCache": "loba_dsl.game",
    "parse_move": "loba_dsl.game",
    "format_move": "loba_dsl.game",
    "format_event": "loba_dsl.game",
    # game records (loba-record/1) and their replay
    "load_record": "loba_dsl.game.record:loads",
    "read_record": "loba_dsl.game.record:load",
    "dump_record": "loba_dsl.game.record:dumps",
    "record_from_dict": "loba_dsl.game.record:from_dict",
    "record_digest": "loba_dsl.game.record",
    "table_from_record": "loba_dsl.game.replay:from_record",
    "turn_moves": "loba_dsl.game.view",
    "Draw": "loba_dsl.game.moves",
    "UNKNOWN_CARD": "loba_dsl.game.moves:UNKNOWN",
    "replay": "loba_dsl.game.replay",
    "replay_text": "loba_dsl.game.replay",
    # comparing rulesets
    "diff": "loba_dsl.compare",
    "play_stats": "loba_dsl.compare",
    # bots and simulated play
    "BOTS": "loba_dsl.bots",
    "bot_names": "loba_dsl.bots",
    "make_bot": "loba_dsl.bots",
    "simulate": "loba_dsl.simulation",
    "RoundNeverEnds": "loba_dsl.game.stalemate",
    "proved_endless": "loba_dsl.game.stalemate",
    "SimReport": "loba_dsl.simulation",
    "simulation_text": "loba_dsl.simulation.text",
    "DiffReport": "loba_dsl.compare",
    "WitnessBudget": "loba_dsl.compare",
    # search budgets
    "Budget": "loba_dsl.budget",
    "BudgetExceeded": "loba_dsl.errors",
    # what the command line and the service print: texts for people (JSON comes from ``to_dict``)
    "check_text": "loba_dsl.render",
    "verdict_text": "loba_dsl.render",
    "round_text": "loba_dsl.render",
    "match_text": "loba_dsl.render",
    "arrangement_text": "loba_dsl.render",
    "arrangement_dict": "loba_dsl.render",
    "arranged_hand_text": "loba_dsl.render",
    "arranged_hand_dict": "loba_dsl.render",
    "diff_text": "loba_dsl.render",
    "ruleset_text": "loba_dsl.render",
    # rulesets as JSON, one shape on every surface
    "catalogue_dict": "loba_dsl.rules.describe",
    "deck_dict": "loba_dsl.rules.describe",
    "error_item": "loba_dsl.rules.describe",
    "extends_name": "loba_dsl.rules.describe",
    "show_dict": "loba_dsl.rules.describe",
    "validation_dict": "loba_dsl.rules.describe",
    # what the front ends share with the library: card codes, copies, clean text, per-kind verdicts, records
    "Card": "loba_dsl.cards.deck",
    "check_copies": "loba_dsl.cards.notation",
    "clean_text": "loba_dsl.errors:clean",
    "kind_verdicts": "loba_dsl.melds.check",
    "record_view": "loba_dsl.game.record:view_of",
    "move_from_dict": "loba_dsl.game.moves",
    # errors
    "LobaError": "loba_dsl.errors",
    "LobaErrors": "loba_dsl.errors",
    "InputError": "loba_dsl.errors",
    "RulesetError": "loba_dsl.errors",
    "DSLError": "loba_dsl.errors",
    "Location": "loba_dsl.errors",
    "decode_utf8": "loba_dsl.errors",
    "Said": "loba_dsl.errors",
    "said": "loba_dsl.errors",
}

__all__ = [
    "BOTS",
    "DEFAULT_RULESET",
    "SHIPPED_ONLY",
    "UNKNOWN_CARD",
    "Arrangement",
    "Budget",
    "BudgetExceeded",
    "Card",
    "CheckResult",
    "DSLError",
    "DiffReport",
    "Draw",
    "GameRecord",
    "IllegalMove",
    "InputError",
    "InvalidMove",
    "LobaError",
    "LobaErrors",
    "Location",
    "Match",
    "MatchResult",
    "MatchRound",
    "Notation",
    "ParsedCards",
    "Player",
    "PlayerPoints",
    "PlayerRound",
    "PlayerScore",
    "PlayerView",
    "RandomPlayer",
    "Reentry",
    "ReentryOffer",
    "Resolver",
    "RoundFacts",
    "RoundNeverEnds",
    "RoundScore",
    "Ruleset",
    "RulesetError",
    "Said",
    "ShippedOnly",
    "Siblings",
    "SimReport",
    "Solver",
    "Table",
    "TableCache",
    "Verdict",
    "WitnessBudget",
    "arrange_hand",
    "arranged_hand_dict",
    "arranged_hand_text",
    "arrangement_dict",
    "arrangement_text",
    "bot_names",
    "catalogue_dict",
    "check",
    "check_contract",
    "check_copies",
    "check_lines",
    "check_opening",
    "check_text",
    "clean_text",
    "deck_dict",
    "decode_utf8",
    "diff",
    "diff_text",
    "dump_record",
    "enable_disk_cache",
    "error_item",
    "extends_name",
    "format_event",
    "format_move",
    "kind_verdicts",
    "load",
    "load_file",
    "load_record",
    "loads",
    "make_bot",
    "match_text",
    "move_from_dict",
    "parse_lay_down",
    "parse_move",
    "play_match",
    "play_match_sheet",
    "play_stats",
    "proved_endless",
    "read_match",
    "read_record",
    "read_round",
    "record_digest",
    "record_from_dict",
    "record_view",
    "replay",
    "replay_text",
    "round_text",
    "ruleset_text",
    "said",
    "score_round",
    "score_round_sheet",
    "shipped_names",
    "show_dict",
    "simulate",
    "simulation_text",
    "table_from_record",
    "turn_moves",
    "validation_dict",
    "verdict_text",
    "write_match",
]


if not TYPE_CHECKING:  # type checkers see the imports below, so a misspelt name is an error for them

    def __getattr__(name: str) -> Any:
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'loba_dsl' has no attribute {name!r}")
        module, _, there = module.partition(":")
        __import__(module)  # importlib.import_module, without importing importlib (it brings warnings)
        value = getattr(sys.modules[module], there or name)
        globals()[name] = value
        return value


    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from loba_dsl.bots import BOTS as BOTS
    from loba_dsl.bots import bot_names as bot_names
    from loba_dsl.bots import make_bot as make_bot
    from loba_dsl.budget import Budget as Budget
    from loba_dsl.cards.deck import Card as Card
    from loba_dsl.cards.notation import Notation as Notation
    from loba_dsl.cards.notation import ParsedCards as ParsedCards
    from loba_dsl.cards.notation import check_copies as check_copies
    from loba_dsl.compare import DiffReport as DiffReport
    from loba_dsl.compare import WitnessBudget as WitnessBudget
    from loba_dsl.compare import diff as diff
    from loba_dsl.compare import play_stats as play_stats
    from loba_dsl.defaults import DEFAULT_RULESET as DEFAULT_RULESET
    from loba_dsl.errors import BudgetExceeded as BudgetExceeded
    from loba_dsl.errors import DSLError as DSLError
    from loba_dsl.errors import InputError as InputError
    from loba_dsl.errors import LobaError as LobaError
    from loba_dsl.errors import LobaErrors as LobaErrors
    from loba_dsl.errors import Location as Location
    from loba_dsl.errors import RulesetError as RulesetError
    from loba_dsl.errors import Said as Said
    from loba_dsl.errors import clean as clean_text
    from loba_dsl.errors import decode_utf8 as decode_utf8
    from loba_dsl.errors import said as said
    from loba_dsl.game import GameRecord as GameRecord
    from loba_dsl.game import IllegalMove as IllegalMove
    from loba_dsl.game import InvalidMove as InvalidMove
    from loba_dsl.game import Match as Match
    from loba_dsl.game import Player as Player
    from loba_dsl.game import PlayerView as PlayerView
    from loba_dsl.game import RandomPlayer as RandomPlayer
    from loba_dsl.game import ReentryOffer as ReentryOffer
    from loba_dsl.game import Table as Table
    from loba_dsl.game import TableCache as TableCache
    from loba_dsl.game import format_event as format_event
    from loba_dsl.game import format_move as format_move
    from loba_dsl.game import parse_move as parse_move
    from loba_dsl.game.moves import UNKNOWN as UNKNOWN_CARD
    from loba_dsl.game.moves import Draw as Draw
    from loba_dsl.game.moves import move_from_dict as move_from_dict
    from loba_dsl.game.record import dumps as dump_record
    from loba_dsl.game.record import from_dict as record_from_dict
    from loba_dsl.game.record import load as read_record
    from loba_dsl.game.record import loads as load_record
    from loba_dsl.game.record import record_digest as record_digest
    from loba_dsl.game.record import view_of as record_view
    from loba_dsl.game.replay import from_record as table_from_record
    from loba_dsl.game.replay import replay as replay
    from loba_dsl.game.replay import replay_text as replay_text
    from loba_dsl.game.stalemate import RoundNeverEnds as RoundNeverEnds
    from loba_dsl.game.stalemate import proved_endless as proved_endless
    from loba_dsl.game.view import turn_moves as turn_moves
    from loba_dsl.melds.check import CheckResult as CheckResult
    from loba_dsl.melds.check import check as check
    from loba_dsl.melds.check import check_lines as check_lines
    from loba_dsl.melds.check import kind_verdicts as kind_verdicts
    from loba_dsl.render import arranged_hand_dict as arranged_hand_dict
    from loba_dsl.render import arranged_hand_text as arranged_hand_text
    from loba_dsl.render import arrangement_dict as arrangement_dict
    from loba_dsl.render import arrangement_text as arrangement_text
    from loba_dsl.render import check_text as check_text
    from loba_dsl.render import diff_text as diff_text
    from loba_dsl.render import match_text as match_text
    from loba_dsl.render import round_text as round_text
    from loba_dsl.render import ruleset_text as ruleset_text
    from loba_dsl.render import verdict_text as verdict_text
    from loba_dsl.rules.describe import catalogue_dict as catalogue_dict
    from loba_dsl.rules.describe import deck_dict as deck_dict
    from loba_dsl.rules.describe import error_item as error_item
    from loba_dsl.rules.describe import extends_name as extends_name
    from loba_dsl.rules.describe import show_dict as show_dict
    from loba_dsl.rules.describe import validation_dict as validation_dict
    from loba_dsl.rules.loading import SHIPPED_ONLY as SHIPPED_ONLY
    from loba_dsl.rules.loading import Resolver as Resolver
    from loba_dsl.rules.loading import ShippedOnly as ShippedOnly
    from loba_dsl.rules.loading import Siblings as Siblings
    from loba_dsl.rules.loading import enable_disk_cache as enable_disk_cache
    from loba_dsl.rules.loading import load as load
    from loba_dsl.rules.loading import load_file as load_file
    from loba_dsl.rules.loading import loads as loads
    from loba_dsl.rules.loading import shipped_names as shipped_names
    from loba_dsl.rules.model import Ruleset as Ruleset
    from loba_dsl.scoring.match_play import MatchResult as MatchResult
    from loba_dsl.scoring.match_play import play_match as play_match
    from loba_dsl.scoring.model import MatchRound as MatchRound
    from loba_dsl.scoring.model import PlayerPoints as PlayerPoints
    from loba_dsl.scoring.model import PlayerRound as PlayerRound
    from loba_dsl.scoring.model import Reentry as Reentry
    from loba_dsl.scoring.model import RoundFacts as RoundFacts
    from loba_dsl.scoring.requirements import Verdict as Verdict
    from loba_dsl.scoring.requirements import contract as check_contract
    from loba_dsl.scoring.requirements import opening as check_opening
    from loba_dsl.scoring.requirements import parse_lay_down as parse_lay_down
    from loba_dsl.scoring.rounds import PlayerScore as PlayerScore
    from loba_dsl.scoring.rounds import RoundScore as RoundScore
    from loba_dsl.scoring.rounds import score_round as score_round
    from loba_dsl.scoring.score_sheets import play_match_sheet as play_match_sheet
    from loba_dsl.scoring.score_sheets import read_match as read_match
    from loba_dsl.scoring.score_sheets import read_round as read_round
    from loba_dsl.scoring.score_sheets import score_round_sheet as score_round_sheet
    from loba_dsl.scoring.sheet_writer import write_match as write_match
    from loba_dsl.simulation import SimReport as SimReport
    from loba_dsl.simulation import simulate as simulate
    from loba_dsl.simulation.text import simulation_text as simulation_text
    from loba_dsl.solver.advice import arrange_hand as arrange_hand
    from loba_dsl.solver.api import Arrangement as Arrangement
    from loba_dsl.solver.api import Solver as Solver
