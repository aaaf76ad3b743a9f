"""Input errors in the players' languages: the words of every error template, English and Spanish.

An error's message and hint are :class:`~loba_dsl.errors.Said` words: an English template with named fields
(``unknown card '{token}'``).  This module gives the same words in another language, template by template,
as :mod:`loba_dsl.melds.reason_words` does for a meld's reasons.  What the user wrote (a card, a key, a
ruleset's own names) stays as written; a field that is itself ``Said`` words is said in the same language.

Some errors pass on someone else's words (PyYAML's ``could not find expected ':'``, jsonschema's ``'many' is
not of type 'integer'``): those are :meth:`~loba_dsl.errors.Said.literal`, and the common ones have words
here too, by their text or by a pattern of it.  A text with no words in a language is said in English.

It is imported only when an error is said in another language than English (by
:meth:`~loba_dsl.errors.Said.say`, which fills the fields in).

>>> from loba_dsl.errors import said
>>> said("{card} appears {count} times but the deck{of} holds {limit} {copies}", card="7♠", count=3,
...      of=said(" of '{ruleset}'", ruleset="menos"), limit=2, copies=said("copies")).say("es")
"7♠ aparece 3 veces, pero la baraja de 'menos' tiene 2 copias"
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from loba_dsl import referee_words

__all__ = ["LANGUAGES", "LITERALS", "PATTERNS", "TEMPLATES", "literal_in", "template_in"]

_ES: Mapping[str, str] = {
    # ---- cards (loba_dsl.cards.notation, the checker, the arranger)
    "unknown card '{token}'": "carta desconocida '{token}'",
    "unknown card '{token}' ({length} characters)": "carta desconocida '{token}' ({length} caracteres)",
    "… and {more} more unknown card (only the first {shown} are shown)":
        "… y {more} carta desconocida más (solo se muestran las primeras {shown})",
    "… and {more} more unknown cards (only the first {shown} are shown)":
        "… y {more} cartas desconocidas más (solo se muestran las primeras {shown})",
    "a card is a rank followed by a suit": "una carta es un número seguido de un palo",
    "a card is a rank ({ranks}) followed by a suit ({suits}){joker}":
        "una carta es un número ({ranks}) seguido de un palo ({suits}){joker}",
    ", or {joker}": ", o {joker}",
    "did you mean '{word}'?": "¿quisiste decir '{word}'?",
    "separate the cards: '{cards}'": "separá las cartas: '{cards}'",
    "the rank comes first: {suggestion}": "el número va primero: {suggestion}",
    "a rank must come before the suit: one of {ranks}": "antes del palo va un número: uno de {ranks}",
    "a suit must follow the rank: one of {suits}": "después del número va un palo: uno de {suits}",
    "'{suit}' is not a suit; suits are {suits}": "'{suit}' no es un palo; los palos son {suits}",
    "'{word}' is a suit only with --lang {langs}": "'{word}' es un palo solo con --lang {langs}",
    "'{letter}' is a rank only with --lang {langs}": "'{letter}' es un número solo con --lang {langs}",
    "{some} or {last}": "{some} o {last}",
    "unknown language '{lang}'": "idioma desconocido '{lang}'",
    "known languages: {known}": "idiomas conocidos: {known}",
    "{suggestion} known languages: {known}": "{suggestion} idiomas conocidos: {known}",
    "the deck{of} has no {card}": "la baraja{of} no tiene {card}",
    "{card} appears {count} times but the deck{of} holds {limit} {copies}":
        "{card} aparece {count} veces, pero la baraja{of} tiene {limit} {copies}",
    " of '{ruleset}'": " de '{ruleset}'",
    "copy": "copia",
    "copies": "copias",
    "no cards given": "no hay ninguna carta",
    "a meld is written as its cards, e.g. {example}": "una combinación se escribe con sus cartas, p. ej. {example}",
    "e.g. {example}": "p. ej. {example}",
    "{ruleset} is played by {least} to {most} players, not {players}":
        "{ruleset} se juega de a {least} a {most} jugadores, no {players}",
    "not UTF-8 text (bad byte 0x{byte:02x} at byte offset {offset})":
        "no es texto UTF-8 (byte 0x{byte:02x} inválido en la posición {offset})",
    "save it as UTF-8": "guardalo como UTF-8",
    # ---- YAML (loba_dsl.rules.yamlsafe)
    "invalid YAML": "YAML inválido",
    "{context}, which started on line {line}": "{context}, que empezó en la línea {line}",
    "indent with spaces: YAML does not allow tabs there": "sangrá con espacios: YAML no admite tabuladores ahí",
    'a value holding {what} must be quoted: {key}: "{quoted}"':
        'un valor con {what} va entre comillas: {key}: "{quoted}"',
    "a formula's '? :'": "el '? :' de una fórmula",
    "duplicate key {key!r} (first defined on line {first})":
        "clave repetida {key!r} (definida antes en la línea {first})",
    "aliases are not allowed in rulesets (found '{found}')": "las reglas no admiten alias (se encontró '{found}')",
    "anchors are not allowed in rulesets (found '{found}')": "las reglas no admiten anclas (se encontró '{found}')",
    "tags are not allowed in rulesets (found '{found}')": "las reglas no admiten etiquetas (se encontró '{found}')",
    "write the value out in full": "escribí el valor completo",
    "only mappings, lists, strings, numbers, booleans and null are allowed":
        "solo se admiten mapeos, listas, textos, números, booleanos y null",
    "a mapping key must be a string or number, not a sequence": "una clave debe ser un texto o un número, no una lista",
    "a mapping key must be a string or number, not a mapping": "una clave debe ser un texto o un número, no un mapeo",
    "a ruleset must be a single YAML document, but a second one starts here":
        "las reglas deben ser un solo documento YAML, pero aquí empieza otro",
    "remove the second document": "sacá el segundo documento",
    # ---- the ruleset's shape (loba_dsl.rules.documents, loba_dsl.rules.sources)
    "the ruleset is empty": "las reglas están vacías",
    "a ruleset must be a mapping of keys to values": "las reglas deben ser un mapeo de claves a valores",
    "the top level": "el nivel superior",
    "unknown key '{key}' in {where}": "clave desconocida '{key}' en {where}",
    "{where} must be one of: {options}": "{where} debe ser uno de: {options}",
    "{where}: '{value}' is not allowed here": "{where}: '{value}' no se admite aquí",
    "'{name}' is not a name allowed in {where}": "'{name}' no es un nombre admitido en {where}",
    "{where}: {message}": "{where}: {message}",
    "unknown ruleset '{name}' (shipped: {names})": "reglas desconocidas '{name}' (incluidas: {names})",
    "use lower-case letters, digits and hyphens, at most 64, e.g. casa-garcia":
        "usá minúsculas, dígitos y guiones, 64 como máximo, p. ej. casa-garcia",
    "use lower-case letters, digits and _, starting with a letter, e.g. spades":
        "usá minúsculas, dígitos y _, empezando por una letra, p. ej. spades",
    "use a two-letter language code in lower case, e.g. es":
        "usá un código de idioma de dos letras minúsculas, p. ej. es",
    'use a number of players from 1 to 99, written as text, e.g. "2"':
        'usá un número de jugadores de 1 a 99, escrito como texto, p. ej. "2"',
    "use letters, digits and _, starting with a letter or _, e.g. escalera":
        "usá letras, dígitos y _, empezando por una letra o _, p. ej. escalera",
    # ---- the DSL (loba_dsl.dsl.parser, typecheck, names)
    "expression is longer than {limit} characters": "la expresión tiene más de {limit} caracteres",
    "expression is empty": "la expresión está vacía",
    "the expression ends too early": "la expresión termina antes de tiempo",
    "unexpected '{token}'": "'{token}' inesperado",
    "unexpected character '{char}'": "carácter inesperado '{char}'",
    "expected {items}": "se esperaba {items}",
    "a name": "un nombre",
    "a number": "un número",
    "a card or suit (J♠, ♥)": "una carta o un palo (J♠, ♥)",
    "a comparison (== != < <= > >=)": "una comparación (== != < <= > >=)",
    "'set' or 'run'": "'set' o 'run'",
    "'+' or '-'": "'+' o '-'",
    "the end of the text": "el final del texto",
    "expected {wanted}, but this is {found}": "se esperaba {wanted}, pero esto es {found}",
    "a condition": "una condición",
    "a list of cards": "una lista de cartas",
    "a list of melds": "una lista de combinaciones",
    "unknown name '{name}'": "nombre desconocido '{name}'",
    "'{name}' is a function: write {name}(...)": "'{name}' es una función: escribí {name}(...)",
    "unknown function '{name}'": "función desconocida '{name}'",
    "unknown rank '{rank}'": "número desconocido '{rank}'",
    "'{word}' is not a rank, suit or Joker of this deck":
        "'{word}' no es un número, un palo ni un Joker de esta baraja",
    "'where' is not allowed in {name}(...)": "'where' no se admite en {name}(...)",
    "{name}(...) needs at least one number": "{name}(...) necesita al menos un número",
    "{name}(...) takes one number": "{name}(...) lleva un solo número",
    "{name}(...) takes one list (hand or melds)": "{name}(...) lleva una sola lista (la mano o las combinaciones)",
    "{name}(...) needs the hand or the melds, not {found}":
        "{name}(...) necesita la mano o las combinaciones, no {found}",
    "'where' filters the melds, not the hand": "'where' filtra las combinaciones, no la mano",
    # ---- a ruleset's meaning (loba_dsl.rules.compiler)
    "the ruleset has no meld kinds": "las reglas no tienen ninguna clase de combinación",
    "a meld needs at least one card": "una combinación necesita al menos una carta",
    "this clause repeats an earlier one": "esta condición repite una anterior",
    "a run is of one suit: suit clauses apply to sets only":
        "una escalera es de un solo palo: las condiciones de palo valen solo para las de un mismo número (set)",
    "this clause applies to runs only": "esta condición vale solo para escaleras (run)",
    "the deck names no ace ('deck.ace')": "la baraja no nombra ningún as ('deck.ace')",
    "no such meld can have {size} cards: at most {cap}":
        "ninguna combinación así puede tener {size} cartas: {cap} como máximo",
    "'{word}' is wild, but this deck has no Jokers": "'{word}' es comodín, pero esta baraja no tiene Jokers",
    "set wilds.cards to the wild cards this deck has, or null":
        "poné en wilds.cards los comodines que tiene esta baraja, o null",
    "unknown meld kind '{kind}'": "clase de combinación desconocida '{kind}'",
    "a contract asks for at least one meld of a kind":
        "un contrato pide al menos una combinación de cada clase que nombra",
    "this formula is {what}": "esta fórmula está {what}",
    "nested more than {depth} deep": "anidada a más de {depth} niveles",
    "longer than {terms} terms": "hecha de más de {terms} términos",
    "split it, or write it more simply": "partila, o escribila más simple",
    "{number} is too large: numbers in formulas and values are at most {limit}":
        "{number} es demasiado grande: los números de fórmulas y valores son a lo sumo {limit}",
    "unknown value table '{table}'": "tabla de valores desconocida '{table}'",
    "the ruleset gives no round formula (scoring.round)": "las reglas no dan ninguna fórmula de ronda (scoring.round)",
    "write one, such as {example}, or 'extends' a ruleset that has one":
        "escribí una, como {example}, o usá 'extends' con unas reglas que la tengan",
    "players.default is {default}, outside players.min to players.max ({least} to {most})":
        "players.default es {default}, fuera de players.min a players.max ({least} a {most})",
    "set players.default to the usual table size within that range":
        "poné en players.default la cantidad de jugadores habitual dentro de ese rango",
    "rank '{rank}' is listed twice": "el número '{rank}' está dos veces",
    "'ace' names '{ace}', which is not a rank of the deck": "'ace' nombra '{ace}', que no es un número de la baraja",
    "value table '{table}' has no lines": "la tabla de valores '{table}' no tiene líneas",
    "an opening minimum needs the value table that counts it (requirements.opening.table)":
        "un mínimo de apertura necesita la tabla de valores que lo cuenta (requirements.opening.table)",
    "name one of its value tables: {tables}": "nombrá una de sus tablas de valores: {tables}",
    # ---- rounds and matches (loba_dsl.scoring): the score sheet
    "player '{name}' appears twice in this round": "'{name}' aparece dos veces en esta ronda",
    "player '{name}' is listed twice": "'{name}' está dos veces en la lista de jugadores",
    "the round lists {listed} players but says there are {players}":
        "la ronda nombra {listed} jugadores, pero dice que son {players}",
    "only one player can go out in a round, but {names} did":
        "solo un jugador puede cortar en una ronda, pero cortaron {names}",
    "the stock ran out, so nobody went out, but {name} did": "se acabó el mazo, así que nadie cortó, pero {name} cortó",
    "under {ruleset} the round ends when the stock runs out (turn.stock_exhausted: end_round)":
        "con {ruleset} la ronda termina cuando se acaba el mazo (turn.stock_exhausted: end_round)",
    "{name} went out, so keeps {allowed} in hand under {ruleset} (turn.going_out: {rule}), but has {held}":
        "{name} cortó; con {ruleset}, al cortar se tiene en la mano: {allowed} (turn.going_out: {rule}), "
        "pero tiene {held}",
    "one card": "una carta",
    "no cards": "ninguna carta",
    "round {number}: '{name}' is not a player of this match": "ronda {number}: '{name}' no juega este partido",
    "round {number}: {name} was eliminated and has not re-entered":
        "ronda {number}: {name} quedó afuera y no volvió a entrar",
    "round {number} has no line for {names}": "a la ronda {number} le falta la línea de {names}",
    "a round gives either each player's points or their cards, not both":
        "una ronda da los puntos de cada jugador o sus cartas, no las dos cosas",
    "'reenter {name}' comes before any round": "'reenter {name}' viene antes de cualquier ronda",
    "after round {number}: '{name}' is not a player of this match":
        "después de la ronda {number}: '{name}' no juega este partido",
    "after round {number}: {ruleset} has no re-entry (match.reentry)":
        "después de la ronda {number}: {ruleset} no tiene reenganche (match.reentry)",
    "after round {number}: {name} is not eliminated, so cannot re-enter":
        "después de la ronda {number}: {name} no quedó afuera, así que no puede reengancharse",
    "after round {number}: {name} was eliminated in round {eliminated}; re-entry is decided right after that round":
        "después de la ronda {number}: {name} quedó afuera en la ronda {eliminated}; el reenganche se decide justo "
        "después de esa ronda",
    "after round {number}: {name} has already re-entered {times} times (at most {most})":
        "después de la ronda {number}: {name} ya se reenganchó {times} veces ({most} como máximo)",
    "after round {number}: nobody is still in, so {name} cannot re-enter":
        "después de la ronda {number}: no queda nadie en juego, así que {name} no puede reengancharse",
    "{name}'s meld '{meld}' is not legal under {ruleset}":
        "la combinación '{meld}' de {name} no es válida con {ruleset}",
    "{name} holds {held} cards {where}, but under {ruleset} every player ends the round with the {dealt} cards dealt":
        "{name} tiene {held} cartas {where}, pero con {ruleset} cada jugador termina la ronda con las {dealt} "
        "cartas repartidas",
    "{name} holds {held} card {where}, but under {ruleset} every player ends the round with the {dealt} cards dealt":
        "{name} tiene {held} carta {where}, pero con {ruleset} cada jugador termina la ronda con las {dealt} "
        "cartas repartidas",
    "on the table and in hand": "en la mesa y en la mano",
    "in hand": "en la mano",
    "list every card: the melds put down on 'table:' and the rest on 'hand:' (deal.cards, deal.counted_at_end)":
        "anotá todas las cartas: las combinaciones bajadas en 'table:' y el resto en 'hand:' "
        "(deal.cards, deal.counted_at_end)",
    "{name}'s table does not hold round {number}'s contract, {contract}, which is the first lay-down under "
    "{ruleset} (requirements.contracts)":
        "la mesa de {name} no cumple el contrato de la ronda {number}, {contract}, que con {ruleset} es la primera "
        "bajada (requirements.contracts)",
    "a round file names its round with 'round: N' (round 1 when it does not)":
        "un archivo de ronda nombra su ronda con 'round: N' (ronda 1 si no la nombra)",
    "{name}'s table is worth {value} by the opening's count, below the opening minimum of {minimum} under "
    "{ruleset}: no first lay-down from it reached the minimum (requirements.opening)":
        "la mesa de {name} vale {value} según la cuenta de la apertura, menos que el mínimo de {minimum} de "
        "{ruleset}: ninguna primera bajada con ella llegó al mínimo (requirements.opening)",
    # ---- round and match files (loba_dsl.scoring.score_sheets): a match file imported on the sheet
    "the file ends too early": "el archivo termina antes de tiempo",
    "the line ends too early": "la línea termina antes de tiempo",
    "unexpected text": "texto inesperado",
    "the round's number is given twice": "el número de la ronda está dos veces",
    "a round file is one round": "un archivo de ronda es una sola ronda",
    "'{kind}:' comes before any 'player' line": "'{kind}:' viene antes de cualquier línea 'player'",
    "round numbers start at 1": "las rondas se numeran desde 1",
    "a round needs at least one player": "una ronda necesita al menos un jugador",
    "a number of points": "un número de puntos",
    "a player's name": "el nombre de un jugador",
    "cards": "cartas",
    "the end of the line": "el final de la línea",
}

_ES_LITERALS: Mapping[str, str] = {
    # PyYAML's problems and contexts (escaped as templates: see Said.literal), the ones a typing person meets
    "could not find expected ':'": "falta el ':' esperado",
    "mapping values are not allowed here": "aquí no puede empezar un valor (': ')",
    "mapping keys are not allowed here": "aquí no puede empezar una clave",
    "found character '\\t' that cannot start any token": "hay un tabulador donde no puede empezar nada",
    "found unexpected end of stream": "el texto termina antes de tiempo",
    "found unexpected document separator": "separador de documentos inesperado",
    "while scanning a simple key": "al leer una clave",
    "while scanning a quoted scalar": "al leer un texto entre comillas",
    "while scanning a double-quoted scalar": "al leer un texto entre comillas dobles",
    "while scanning a block scalar": "al leer un bloque de texto",
    "while scanning for the next token": "al buscar lo que sigue",
    "while parsing a block mapping": "al leer un mapeo",
    "while parsing a block collection": "al leer una lista",
    "while parsing a flow sequence": "al leer una lista entre corchetes",
    "while parsing a flow mapping": "al leer un mapeo entre llaves",
    "while parsing a node": "al leer un valor",
}

_TOKEN_WORDS: Mapping[str, str] = {
    "<block end>": "<fin de bloque>",
    "<block mapping start>": "<inicio de mapeo>",
    "<block sequence start>": "<inicio de lista>",
    "<stream end>": "<fin del texto>",
    "<scalar>": "<texto>",
    "<document start>": "<inicio de documento>",
}


def _token(word: str) -> str:
    return _TOKEN_WORDS.get(word, word)


_ES_PATTERNS: tuple[tuple[re.Pattern[str], Any], ...] = (
    # PyYAML: "expected <block end>, but found '<block mapping start>'", "expected ',' or ']', but got '<stream end>'"
    (re.compile(r"expected (.+), but (?:found|got) '(.+)'"),
     lambda m: f"se esperaba {_token(m[1]).replace(' or ', ' o ')}, pero se encontró '{_token(m[2])}'"),
    # jsonschema's messages of the kinds a person meets
    (re.compile(r"(.+) is not of type '(\w+)'"),
     lambda m: f"{m[1]} no es del tipo '{m[2]}'"),
    (re.compile(r"(.+) is less than the minimum of (.+)"),
     lambda m: f"{m[1]} es menor que el mínimo de {m[2]}"),
    (re.compile(r"(.+) is greater than the maximum of (.+)"),
     lambda m: f"{m[1]} es mayor que el máximo de {m[2]}"),
    (re.compile(r"'(.+)' is a required property"),
     lambda m: f"falta la propiedad obligatoria '{m[1]}'"),
    (re.compile(r"(.+) is too short"),
     lambda m: f"{m[1]} es demasiado corto"),
)

TEMPLATES: Mapping[str, Mapping[str, str]] = {"es": {**_ES, **referee_words.ES}}
"""Each language's words for our own templates (the English template is the key): the input errors' here,
the referee's reasons' in :mod:`loba_dsl.referee_words`."""
LANGUAGES: tuple[str, ...] = ("en", *TEMPLATES)
"""The languages an input error can be said in: English, and each language with words here."""
LITERALS: Mapping[str, Mapping[str, str]] = {"es": _ES_LITERALS}
"""Each language's words for the common texts of PyYAML (by the escaped text, as :meth:`Said.literal` keys it)."""
PATTERNS: Mapping[str, tuple[tuple[re.Pattern[str], Any], ...]] = {"es": _ES_PATTERNS}
"""Each language's words for other libraries' texts that carry a value (a regular expression each)."""


def template_in(template: str, lang: str) -> str | None:
    """The words of ``template`` (an English template, or someone else's escaped text) in ``lang``, or ``None``
    where it has none there."""
    if lang not in TEMPLATES:
        raise ValueError(f"errors are said in {' or '.join(LANGUAGES)}, not {lang!r}")
    return TEMPLATES[lang].get(template) or LITERALS[lang].get(template)


def literal_in(text: str, lang: str) -> str:
    """Someone else's ``text`` in ``lang`` by the first pattern it matches, or as it is."""
    for pattern, replace in PATTERNS.get(lang, ()):
        found = pattern.fullmatch(text)
        if found is not None:
            return str(replace(found))
    return text
