"""The referee's reasons in the players' languages: the words of every template a refusal is made of.

A :class:`~loba_dsl.game.verdicts.Reason`'s message is :class:`~loba_dsl.errors.Said` words, made only where
a move is refused (``it is {turn}'s turn, not {player}'s``); this module gives the same words in Spanish,
template by template, in the vocabulary the page already speaks (robar del mazo, tomar del pozo, bajar,
agregar a una combinación, cortar, comodín, reenganche).  Player names, cards, meld kinds, rule keys and the
ruleset's values stay as written.  :mod:`loba_dsl.error_words` holds them with the input errors' words, so
:meth:`~loba_dsl.errors.Said.say` finds them; it is imported only when a reason is said in another language.

>>> from loba_dsl.errors import said
>>> said("it is {turn}'s turn, not {player}'s", turn="Ana", player="Beto").say("es")
'es el turno de Ana, no de Beto'
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ES"]

ES: Mapping[str, str] = {
    # ---- a reason with its rule cited, and the words around the rule (loba_dsl.game.verdicts)
    "{message} ({rule}{value} at {where})": "{message} ({rule}{value} en {where})",
    "play goes clockwise": "se juega en el sentido de las agujas del reloj",
    "play goes counterclockwise": "se juega en sentido contrario a las agujas del reloj",
    "{player} does not hold {cards}": "{player} no tiene {cards}",
    # ---- whose turn, drawing, reshuffling, discarding (loba_dsl.game.referee)
    "the round is over": "la ronda terminó",
    "it is {turn}'s turn, not {player}'s": "es el turno de {turn}, no de {player}",
    "{player} has drawn already this turn": "{player} ya robó en este turno",
    "{player} must draw first (from the stock or the discard pile)":
        "{player} tiene que robar primero (del mazo o del pozo)",
    "{player} took {card} from the discard pile and must put it down before anything else this turn":
        "{player} tomó {card} del pozo y tiene que bajarla antes que nada en este turno",
    "a reshuffle comes only before a draw": "el pozo se mezcla como mazo nuevo solo antes de robar",
    "this ruleset never reshuffles the discard pile": "con estas reglas el pozo nunca se mezcla como mazo nuevo",
    "the stock still has {count} card(s)": "al mazo todavía le quedan {count} carta(s)",
    "the new stock must be the discard pile but its top card ({count} cards), each once":
        "el mazo nuevo tiene que ser el pozo sin su carta de arriba ({count} cartas), cada una una vez",
    "the stock is empty: a reshuffle entry must come first":
        "se acabó el mazo: primero tiene que venir la mezcla del pozo",
    "{player} drew {card} by the record, but the stock's top card is {top}":
        "según el registro, {player} robó {card}, pero la carta de arriba del mazo es {top}",
    "the discard pile is empty": "el pozo está vacío",
    "every player ends the round holding the {dealt} cards dealt, table and hand together: taking the "
    "{count} cards of the discard pile would break it":
        "cada jugador termina la ronda con las {dealt} cartas repartidas, entre la mesa y la mano: tomar las "
        "{count} cartas del pozo lo rompería",
    "{player} could not put {card} down this turn (in a meld or a lay-off), as the card taken from the discard "
    "pile must be":
        "{player} no podría bajar {card} en este turno (en una combinación o agregándola a una), como hay que "
        "hacer con la carta tomada del pozo",
    "a Joker may not be discarded": "no se puede descartar un Joker",
    "{player} took {card}, the only card of the discard pile, and may not discard it again this turn":
        "{player} tomó {card}, la única carta del pozo, y no puede volver a descartarla en este turno",
    # ---- melds, lay-offs, wilds (loba_dsl.game.table_moves)
    "'as' names {count} card(s) but the cards hold {wild_count} wild card(s) ({wild})":
        "'as' nombra {count} carta(s), pero las cartas tienen {wild_count} comodín(es) ({wild})",
    "none": "ninguno",
    "'as' must name natural cards, not a Joker": "'as' tiene que nombrar cartas naturales, no un Joker",
    "low end": "punta de abajo",
    "high end": "punta de arriba",
    "'{meld}' is not a legal meld of any kind: {why}": "'{meld}' no es una combinación válida de ninguna clase: {why}",
    "'{meld}' is not a legal meld: {why}": "'{meld}' no es una combinación válida: {why}",
    "'{meld}' cannot be read that way": "'{meld}' no se puede leer así",
    "there is no meld {number} on the table ({count} so far)":
        "no hay ninguna combinación {number} en la mesa (por ahora hay {count})",
    "meld {number} is {owner}'s; {player} may only add to their own melds":
        "la combinación {number} es de {owner}; {player} solo puede agregar a sus propias combinaciones",
    "{player} has no meld on the table yet": "{player} todavía no tiene ninguna combinación en la mesa",
    "{player} must keep a card to discard": "{player} tiene que quedarse con una carta para descartar",
    "{player} may not go out in the turn of their first lay-down: a put-down must leave at least {least} cards "
    "in hand, or the turn could not end":
        "{player} no puede cortar en el turno de su primera bajada: lo que baje tiene que dejarle al menos "
        "{least} cartas en la mano, o el turno no podría terminar",
    "this ruleset allows no lay-offs": "estas reglas no permiten agregar cartas a las combinaciones de la mesa",
    "meld {number} is {owner}'s; a card laid off onto it would count in their cards, where every player ends "
    "the round holding the cards dealt to them":
        "la combinación {number} es de {owner}; una carta agregada a ella contaría entre sus cartas, y cada "
        "jugador termina la ronda con las cartas que le repartieron",
    "{player} may lay off onto other melds only after their first lay-down":
        "{player} puede agregar a otras combinaciones solo después de su primera bajada",
    "a lay-off needs at least one card": "para agregar hace falta al menos una carta",
    "{some} {more}": "{some} {more}",
    "{card} (as {stands})": "{card} (como {stands})",
    "laying off {cards} onto meld {number} ({meld}) would need a wild on the table to change place: {moved}; "
    "a wild keeps its place unless moved by the rules":
        "agregar {cards} a la combinación {number} ({meld}) obligaría a cambiar de lugar un comodín de la mesa: "
        "{moved}; un comodín se queda en su lugar salvo que las reglas lo muevan",
    "{reason}: until then a lay-off must leave at least {least} cards in hand, or the turn could not end "
    "without going out":
        "{reason}: hasta entonces, agregar tiene que dejar al menos {least} cartas en la mano, o el turno no "
        "podría terminar sin cortar",
    "this ruleset does not let a wild on the table be replaced":
        "estas reglas no permiten cambiar un comodín de la mesa",
    "meld {number} is {owner}'s; only its owner may replace a wild in it":
        "la combinación {number} es de {owner}; solo quien la bajó puede cambiar un comodín en ella",
    "no wild in meld {number} ({meld}) stands for {card}":
        "ningún comodín de la combinación {number} ({meld}) hace de {card}",
    "this ruleset keeps every wild on the table where it is":
        "con estas reglas cada comodín de la mesa se queda donde está",
    "meld {number} is a {kind}, not a run: its wilds have no ends":
        "la combinación {number} es de la clase {kind}, no una escalera: sus comodines no tienen puntas",
    "meld {number} ({meld}) has no wild at its {end}; a wild in the middle stays fixed":
        "la combinación {number} ({meld}) no tiene comodín en su {end}; un comodín del medio queda fijo",
    "meld {number} cannot grow at its {end}": "la combinación {number} no puede crecer por su {end}",
    "moving the wild of meld {number} to stand for {card} breaks the meld: {why}":
        "pasar el comodín de la combinación {number} a hacer de {card} rompe la combinación: {why}",
    "not a legal reading": "no tiene una lectura válida",
    # ---- the end of a turn, and the requirements (loba_dsl.game.turn_end)
    "{player} would end the turn holding {held} cards, table and hand together, where every player holds the "
    "{dealt} cards dealt":
        "{player} terminaría el turno con {held} cartas, entre la mesa y la mano, y cada jugador tiene las "
        "{dealt} cartas repartidas",
    "{player} took {card} from the discard pile and must put it down this turn":
        "{player} tomó {card} del pozo y tiene que bajarla en este turno",
    "{player} took back {cards} and must put it down this turn":
        "{player} recuperó {cards} y tiene que bajarlo en este turno",
    "{player}'s first lay-down ({melds}) {summary}": "la primera bajada de {player} ({melds}): {summary}",
    "{player}'s melds ({melds}) {summary}": "las combinaciones de {player} ({melds}): {summary}",
    "{player} has not put down a first lay-down worth {minimum} yet":
        "{player} todavía no hizo una primera bajada que valga {minimum}",
    "{player} has not put down round {number}'s contract ({contract})":
        "{player} no bajó el contrato de la ronda {number} ({contract})",
    "{player} may not go out in the turn of their first lay-down":
        "{player} no puede cortar en el turno de su primera bajada",
    # ---- a lay-down against the opening minimum or the round's contract (loba_dsl.scoring.requirements)
    "'{meld}' is not a legal meld": "'{meld}' no es una combinación válida",
    "worth {total} {how}: {word} the minimum of {minimum}": "vale {total} {how}: {word} al mínimo de {minimum}",
    "together": "entre todas sus combinaciones",
    "in its best single meld": "en su mejor combinación",
    "reaches": "llega",
    "does not reach": "no llega",
    "fulfils round {number}'s contract: {contract}": "cumple el contrato de la ronda {number}: {contract}",
    "does not fulfil round {number}'s contract: {contract} (it is part of it)":
        "no cumple el contrato de la ronda {number}: {contract} (es parte de él)",
    "holds round {number}'s contract ({contract}) and other melds: the contract goes down alone in its turn, other "
    "melds from the next (requirements.contracts.other_melds_same_turn: false)":
        "tiene el contrato de la ronda {number} ({contract}) y otras combinaciones: el contrato se baja solo en su "
        "turno, las otras combinaciones desde el turno siguiente (requirements.contracts.other_melds_same_turn: "
        "false)",
    "does not fulfil round {number}'s contract: {contract}": "no cumple el contrato de la ronda {number}: {contract}",
    # ---- the deal (loba_dsl.game.dealing, loba_dsl.game.table)
    "{player} was dealt {count} cards, not the {each} dealt to each of {players} players":
        "a {player} le repartieron {count} cartas, no las {each} que se reparten a cada uno de {players} jugadores",
    "the deal turns up a card to start the discard pile, but none is given":
        "el reparto da vuelta una carta para empezar el pozo, pero no se dio ninguna",
    "the deal turns up no card, but {card} is given": "el reparto no da vuelta ninguna carta, pero se dio {card}",
    "hands, up-card and stock hold {count} cards ({unknown} of them unknown), but {ruleset}'s deck has {size}":
        "las manos, la carta dada vuelta y el mazo suman {count} cartas ({unknown} desconocidas), pero la baraja "
        "de {ruleset} tiene {size}",
    "more copies than the deck holds of {cards}": "más copias de las que tiene la baraja de {cards}",
    "{count} card(s) of the deck missing: {cards}": "faltan {count} carta(s) de la baraja: {cards}",
    "{some}; {more}": "{some}; {more}",
    "hands, up-card and stock must be exactly {ruleset}'s deck of {size} cards: {problems}":
        "las manos, la carta dada vuelta y el mazo tienen que ser exactamente la baraja de {size} cartas de "
        "{ruleset}: {problems}",
    "{count} hands of {each} cards and the up-card need {need} cards, but the deck has {size}":
        "{count} manos de {each} cartas y la carta dada vuelta necesitan {need} cartas, pero la baraja tiene "
        "{size}",
    "{count} hands of {each} cards need {need} cards, but the deck has {size}":
        "{count} manos de {each} cartas necesitan {need} cartas, pero la baraja tiene {size}",
    "the move was chosen at ply {ply}, but the round is at ply {now}":
        "la jugada se eligió en el paso {ply}, pero la ronda va por el paso {now}",
    # ---- a record's cards and rounds (loba_dsl.game.partial, loba_dsl.game.replay)
    "{some}, {more}": "{some}, {more}",
    "{card} {count} times (the deck holds {limit})": "{card} {count} veces (la baraja tiene {limit})",
    "the record shows {cards}: no deck of {ruleset} holds that":
        "el registro muestra {cards}: ninguna baraja de {ruleset} tiene eso",
    "the first round is played by every player of the record":
        "la primera ronda la juegan todos los jugadores del registro",
    "round {number} must be dealt by {expected}, not {dealer} (deal.next_dealer: {rule})":
        "la ronda {number} la tiene que repartir {expected}, no {dealer} (deal.next_dealer: {rule})",
    "round 1 is dealt by the record's dealer {expected}, not {dealer}":
        "la ronda 1 la reparte quien reparte según el registro, {expected}, no {dealer}",
    "round {last} has not ended, but round {number} follows":
        "la ronda {last} no terminó, pero sigue la ronda {number}",
    "round {last} has ended, but its scores cannot be counted: {why}":
        "la ronda {last} terminó, pero sus puntos no se pueden contar: {why}",
    "the match is over ({how}), but round {number} follows": "el partido terminó ({how}), pero sigue la ronda {number}",
    "{count} re-entry used": "{count} reenganche usado",
    "{count} re-entries used": "{count} reenganches usados",
    "round {number} deals {player}, who is out of the match (eliminated in round {round} at {total}, {used})":
        "la ronda {number} le reparte a {player}, que quedó afuera del partido (en la ronda {round}, con "
        "{total}, {used})",
    "round {number} leaves out {players}, still in the match":
        "la ronda {number} deja afuera a {players}, que siguen en el partido",
}
"""The referee's words in Spanish, by English template."""
