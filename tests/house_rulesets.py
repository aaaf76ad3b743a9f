"""House rulesets more than one test file reads (YAML text, loaded with ``loba_dsl.rules.loading.loads``)."""

THREE_WILD_CLASSES = """extends: mas-pagat
name: h2
deck: {jokers: 8}
wilds: {cards: "JOKER, 2, 3", natural_too: true}
values:
  on_table: |
    JOKER and wild and high -> 7
    2 and wild and as K Q -> 4
    wild and (high or as K Q J 10 9 8) -> 3
    wild -> 1
    A and (high or in set) -> 3
    A -> 1
    K Q J 10 9 8 -> 2
    _ -> 1
"""
"""Jokers, 2s and 3s wild or natural (eight Jokers), table points by card and by the role it plays."""

OPEN_TABLE = """extends: menos
name: h-open-table
turn:
  lay_off: any_melds
  lay_off_after_first_meld: false
  joker_replacement: true
  use_replaced_joker: true
  wild_move: ends
  going_out: discard_optional
"""
"""Menos where anyone lays off onto any meld, a Joker on the table may be replaced (and must be put down again
that turn) or moved along its run, and the last meld may empty the hand without a discard."""

WHOLE_PILE_OPENING = """extends: bazas
name: h-whole-pile
turn:
  discard_pile_take: whole_pile
  use_pile_card: true
  rediscard_single: forbidden
  stock_exhausted: end_round
  going_out: one_card_left
"""
"""Bazas's opening minimum, with the whole discard pile taken (its top card put down that turn), no
reshuffle (the round ends with the stock), and going out with one card left after the discard."""

CONTRACT_IN_PARTS = """extends: contrato
name: h-contract-in-parts
requirements:
  contracts: {at_once: false}
"""
"""Contrato whose contract may go down over several turns (docs/rules.md §4, at_once: false)."""

OTHERS_FIRST = """extends: contrato
name: h-others-first
requirements:
  contracts: {before_other_melds: false}
turn: {lay_off: any_melds}
"""
"""Contrato where other melds and lay-offs (onto anyone's melds) may come before the contract (docs/rules.md
§4, before_other_melds: false)."""

CONTRACT_LOOSE = """extends: contrato
name: h-contract-loose
requirements:
  contracts: {at_once: false, before_other_melds: false}
turn: {lay_off: any_melds, lay_off_after_first_meld: false, going_out: one_card_left}
"""
"""Contrato with both settings flipped: the contract over several turns, other melds and lay-offs onto
anyone's melds before it, going out keeping one card (so a lay-off before the contract keeps two)."""
