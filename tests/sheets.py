"""Score sheets shared by several test modules (the CLI's round and match file formats, README "Scoring").

Not a test module itself: ``from sheets import MENOS_ROUND``.
"""

# Seed 004: Ana went out; the others pay their hands (rules.md §1: ace 15, K 10, the rest face value).
MENOS_ROUND = """\
# a round of Loba de Menos, four players
players: 4
player Ana: went out
  table: 4♣ 5♣ 6♣ | 7♠ 7♥ 7♦
player Beto
  hand: JOKER A♠ K♦ 7♣
player Carla
  table: 9♦ 10♦ J♦
  hand: Q♥ J♣ 10♦
player Dani
  hand: A♠ K♦ 2♣ 9♥
"""


# Seed 004: "eliminated at 101+"; re-entry "with a score equal to the highest current player's score".
ACCEPTANCE = """\
# Issue 3's acceptance match (seed 004)
players: Ana, Beto, Carla, Dani
round 1
  Ana: out
  Beto: 34
  Carla: 57
  Dani: 20
round 2
  Ana: out
  Beto: 40
  Carla: 50
  Dani: 12
reenter Carla
"""
