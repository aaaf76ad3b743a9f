"""The small language inside rulesets: reading it, naming, checking, evaluating, comparing, printing.

Data flows one way, from text to values:

- :mod:`~loba_dsl.dsl.parser` reads the text (``grammar/loba.lark``) into :mod:`~loba_dsl.dsl.ast`;
- :mod:`~loba_dsl.dsl.vocabulary` declares the language's names once (round variables, meld
  attributes, card variables, functions), with their types and docs;
- :mod:`~loba_dsl.dsl.names` resolves a ruleset's own words (ranks, suits, meld kinds, tables);
- :mod:`~loba_dsl.dsl.typecheck` checks formulas at load; :mod:`~loba_dsl.dsl.predicates` compiles
  card conditions and value tables;
- :mod:`~loba_dsl.dsl.evaluate` is the one evaluator of formulas (round formula, instant win, table
  values, the solver's filters);
- :mod:`~loba_dsl.dsl.canon` gives canonical forms (the diff), :mod:`~loba_dsl.dsl.printer` the
  canonical text.

Errors: every problem found here is a :class:`~loba_dsl.dsl.parser.DSLProblem`, an internal exception
with a position *relative to the DSL text* (line and column inside ``set 3..4, ...``).  It never
reaches a user: the ruleset compiler (:mod:`loba_dsl.rules.compiler`) catches it and raises
:class:`loba_dsl.errors.DSLError`, a :class:`~loba_dsl.errors.LobaError` whose location is in the
YAML file.
"""
