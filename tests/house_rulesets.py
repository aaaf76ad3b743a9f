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
