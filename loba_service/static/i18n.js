// Every text of the page, in English and Spanish.  Card and rule words come from the rulesets as they are,
// and the service's own messages (reasons, errors) are shown as the service words them.
const STRINGS = {
  en: {
    skip: "Skip to the content",
    brand: "Loba at the table",
    nav: "Main",
    "nav.check": "Check",
    "nav.sheet": "Score sheet",
    "nav.house": "House rules",
    "nav.arrange": "Arrange",
    langSwitch: "Español",
    loading: "Loading…",
    "foot.api": "Everything here comes from the service's API:",
    ruleset: "Ruleset",
    cards: "Cards",
    hand: "Hand",
    undo: "Remove last",
    clear: "Clear",
    houseTag: "house rules",
    "err.network": "The service cannot be reached. Is loba serve still running?",
    "err.status": "The service answered with status {status}.",
    "err.title": "The service says:",
    working: "Working…",
    // picker
    picker: "Card picker",
    "picker.jokers": "Jokers",
    "picker.keys": "Arrow keys move between cards; Enter or Space adds one.",
    // check
    "check.title": "Check a meld",
    "check.hint": "Tap the cards above, or type them separated by spaces: A♣ 2♣ JOKER, or 7s 7h 7d.",
    "check.empty": "Tap or type some cards to check them.",
    "check.legal": "This is a legal meld: {kind}.",
    "check.illegal": "This is not a legal meld.",
    "check.why": "Why not:",
    "check.reading": "Reads as {cards}.",
    "check.wild": "{card} stands for {as}.",
    "check.points": "Worth {points} points.",
    "check.unreadable": "These cards cannot be read:",
    "check.checking": "Checking…",
    // sheet
    "sheet.title": "Score sheet",
    "sheet.new": "New match",
    "sheet.players": "Players",
    "sheet.player": "Player {n}",
    "sheet.addPlayer": "Add a player",
    "sheet.removePlayer": "Remove player {n}",
    "sheet.start": "Start the match",
    "sheet.namesNeeded": "Write a different name for every player.",
    "sheet.caption": "Scores and totals after each round",
    "sheet.round": "Round",
    "sheet.roundN": "Round {n}",
    "sheet.edit": "Edit",
    "sheet.editRound": "Edit round {n}",
    "sheet.notCounted": "not counted",
    "sheet.eliminated": "{name} is eliminated at {total}.",
    "sheet.outForGood": "{name} is out for good at {total}.",
    "sheet.reentered": "{name} re-enters at {score} (re-entry {n}).",
    "sheet.undoReentry": "Undo",
    "sheet.undoReentryLabel": "Undo {name}'s re-entry after round {n}",
    "sheet.offer": "{name} may re-enter at {score}.",
    "sheet.reenter": "Re-enter {name} at {score}",
    "sheet.standings": "Standings",
    "sheet.status.in": "in",
    "sheet.status.eliminated": "eliminated",
    "sheet.status.out for good": "out for good",
    "sheet.reentries": "{n} re-entries",
    "sheet.reentries1": "1 re-entry",
    "sheet.winner": "Winner: {names}.",
    "sheet.winners": "Shared win: {names}.",
    "sheet.notOver": "No winner yet.",
    "sheet.addRound": "Add round {n}",
    "sheet.saveRound": "Save round {n}",
    "sheet.cancel": "Cancel",
    "sheet.newRound": "Round {n}",
    "sheet.editing": "Editing round {n}",
    "sheet.mode": "Enter the round as",
    "sheet.mode.points": "points",
    "sheet.mode.cards": "cards left in hand",
    "sheet.points": "{name}: points",
    "sheet.wentOut": "{name} went out",
    "sheet.allAtOnce": "{name} went out all at once",
    "sheet.table": "{name}: melds on the table (| between melds)",
    "sheet.handOf": "{name}: cards left in hand",
    "sheet.stockOut": "The stock ran out",
    "sheet.blankHint": "Leave a player's boxes empty if they did not play this round.",
    "sheet.pointsHint": "Points as written down; tick who went out.",
    "sheet.cardsHint": "Cards as in the checker; the ruleset scores them.",
    "sheet.export": "Export the match file",
    "sheet.import": "Import a match file",
    "sheet.discard": "New match",
    "sheet.confirmDiscard": "Start a new match? This sheet will be lost unless you exported it.",
    "sheet.exported": "The match file was downloaded. Score it with: {command}",
    "sheet.imported": "The match file was read: {rounds} rounds.",
    "sheet.saved": "Round {n} saved.",
    "sheet.recomputed": "Totals recomputed from round {n} on.",
    "sheet.problem": "The sheet has a problem; the rounds from the one it names on are not counted until it is fixed:",
    "sheet.fileText": "The match file",
    "sheet.rulesetChanged": "Ruleset changed: every round is scored again.",
    "sheet.noRounds": "No rounds yet.",
    "sheet.cardsCell": "cards",
    "sheet.out": "out",
    // house
    "house.title": "House rules",
    "house.intro": "Write what your table plays differently from a shipped ruleset. Every problem is shown at its line as you type.",
    "house.base": "Start from",
    "house.new": "Start again from it",
    "house.yaml": "Ruleset YAML",
    "house.confirmNew": "Replace the YAML in the editor with a new house ruleset?",
    "house.checking": "Checking…",
    "house.valid": "Valid: {name}, built on {base}. Meld kinds: {kinds}.",
    "house.validAlone": "Valid: {name}. Meld kinds: {kinds}.",
    "house.problems1": "1 problem:",
    "house.problems": "{n} problems:",
    "house.at": "line {line}, column {column}",
    "house.atLine": "line {line}",
    "house.useCheck": "Use in the checker",
    "house.useSheet": "Use in the score sheet",
    "house.download": "Download {file}",
    "house.diffTitle": "What changes from {base}",
    "house.diffLoading": "Comparing with {base}…",
    "house.same": "No difference: {name} plays as {base}.",
    "house.rules": "Rules that differ",
    "house.witnesses": "Hands that show the difference",
    "house.example": "Cards",
    "house.under": "Under {name}",
    "house.tryIt": "Check it",
    "house.tryItLabel": "Check it: {cards} under {name}",
    "house.template": "# Your table's rules: only what differs from {base}.\n# For example, two Jokers in an escalera:\n# melds:\n#   escalera:\n#     shape: run 3..13, ace low, wilds <= 2\n",
    // arrange
    "arrange.title": "Best arrangement",
    "arrange.hint": "The cards in your hand, tapped above or typed.",
    "arrange.discard": "I have just drawn: choose the best discard first",
    "arrange.opened": "I have already opened (put cards down in an earlier turn)",
    "arrange.go": "Arrange",
    "arrange.working": "Looking for the best arrangement…",
    "arrange.melds": "Best melds:",
    "arrange.noMelds": "No meld can be made from this hand.",
    "arrange.meld": "{kind}: {cards}",
    "arrange.left": "Left in hand: {cards}",
    "arrange.leftNone": "Nothing is left in hand.",
    "arrange.leftValue": "({value} points)",
    "arrange.score": "Round score if the round ended now: {score}.",
    "arrange.canGoOut": "You can go out now.",
    "arrange.cannotGoOut": "You cannot go out now.",
    "arrange.outScore": "Going out scores {score}.",
    "arrange.outScoreWins": "Going out scores {score} and wins the match.",
    "arrange.discardCard": "Discard {card}.",
    "arrange.empty": "Tap or type the cards of a hand, then Arrange.",
  },
  es: {
    skip: "Saltar al contenido",
    brand: "Loba en la mesa",
    nav: "Principal",
    "nav.check": "Comprobar",
    "nav.sheet": "Planilla",
    "nav.house": "Reglas de la casa",
    "nav.arrange": "Acomodar",
    langSwitch: "English",
    loading: "Cargando…",
    "foot.api": "Todo lo que se ve aquí viene de la API del servicio:",
    ruleset: "Reglas",
    cards: "Cartas",
    hand: "Mano",
    undo: "Quitar la última",
    clear: "Borrar",
    houseTag: "reglas de la casa",
    "err.network": "No se puede llegar al servicio. ¿Sigue andando loba serve?",
    "err.status": "El servicio respondió con el estado {status}.",
    "err.title": "El servicio dice:",
    working: "Trabajando…",
    picker: "Elegir cartas",
    "picker.jokers": "Comodines",
    "picker.keys": "Las flechas pasan de una carta a otra; Intro o Espacio agrega una.",
    "check.title": "Comprobar una combinación",
    "check.hint": "Tocá las cartas de arriba, o escribilas separadas por espacios: A♣ 2♣ JOKER, o 7s 7h 7d.",
    "check.empty": "Tocá o escribí algunas cartas para comprobarlas.",
    "check.legal": "Es una combinación legal: {kind}.",
    "check.illegal": "Esto no es una combinación válida.",
    "check.why": "Por qué no:",
    "check.reading": "Se lee {cards}.",
    "check.wild": "{card} hace de {as}.",
    "check.points": "Vale {points} puntos.",
    "check.unreadable": "No se pueden leer estas cartas:",
    "check.checking": "Comprobando…",
    "sheet.title": "Planilla",
    "sheet.new": "Partida nueva",
    "sheet.players": "Jugadores",
    "sheet.player": "Jugador {n}",
    "sheet.addPlayer": "Agregar un jugador",
    "sheet.removePlayer": "Quitar al jugador {n}",
    "sheet.start": "Empezar la partida",
    "sheet.namesNeeded": "Escribí un nombre distinto para cada jugador.",
    "sheet.caption": "Puntos y totales después de cada ronda",
    "sheet.round": "Ronda",
    "sheet.roundN": "Ronda {n}",
    "sheet.edit": "Editar",
    "sheet.editRound": "Editar la ronda {n}",
    "sheet.notCounted": "sin contar",
    "sheet.eliminated": "{name} queda afuera con {total}.",
    "sheet.outForGood": "{name} queda afuera del todo con {total}.",
    "sheet.reentered": "{name} se reengancha con {score} (reenganche {n}).",
    "sheet.undoReentry": "Deshacer",
    "sheet.undoReentryLabel": "Deshacer el reenganche de {name} después de la ronda {n}",
    "sheet.offer": "{name} puede reengancharse con {score}.",
    "sheet.reenter": "Reenganchar a {name} con {score}",
    "sheet.standings": "Posiciones",
    "sheet.status.in": "en juego",
    "sheet.status.eliminated": "afuera",
    "sheet.status.out for good": "afuera del todo",
    "sheet.reentries": "{n} reenganches",
    "sheet.reentries1": "1 reenganche",
    "sheet.winner": "Gana {names}.",
    "sheet.winners": "Ganan juntos: {names}.",
    "sheet.notOver": "Todavía no hay ganador.",
    "sheet.addRound": "Agregar la ronda {n}",
    "sheet.saveRound": "Guardar la ronda {n}",
    "sheet.cancel": "Cancelar",
    "sheet.newRound": "Ronda {n}",
    "sheet.editing": "Editando la ronda {n}",
    "sheet.mode": "Anotar la ronda como",
    "sheet.mode.points": "puntos",
    "sheet.mode.cards": "cartas que quedaron en la mano",
    "sheet.points": "{name}: puntos",
    "sheet.wentOut": "{name} cortó",
    "sheet.allAtOnce": "{name} cortó de una",
    "sheet.table": "{name}: combinaciones en la mesa (| entre combinaciones)",
    "sheet.handOf": "{name}: cartas que quedaron en la mano",
    "sheet.stockOut": "Se acabó el mazo",
    "sheet.blankHint": "Dejá vacías las casillas de quien no jugó esta ronda.",
    "sheet.pointsHint": "Los puntos como se anotan; marcá quién cortó.",
    "sheet.cardsHint": "Las cartas como en Comprobar; las reglas las cuentan.",
    "sheet.export": "Exportar el archivo de la partida",
    "sheet.import": "Importar un archivo de partida",
    "sheet.discard": "Partida nueva",
    "sheet.confirmDiscard": "¿Empezar una partida nueva? Esta planilla se pierde si no la exportaste.",
    "sheet.exported": "Se descargó el archivo de la partida. Se cuenta con: {command}",
    "sheet.imported": "Se leyó el archivo de la partida: {rounds} rondas.",
    "sheet.saved": "Ronda {n} guardada.",
    "sheet.recomputed": "Totales recalculados desde la ronda {n}.",
    "sheet.problem": "La planilla tiene un problema; las rondas desde la que nombra no se cuentan hasta arreglarlo:",
    "sheet.fileText": "El archivo de la partida",
    "sheet.rulesetChanged": "Cambiaron las reglas: todas las rondas se cuentan de nuevo.",
    "sheet.noRounds": "Todavía no hay rondas.",
    "sheet.cardsCell": "cartas",
    "sheet.out": "cortó",
    "house.title": "Reglas de la casa",
    "house.intro": "Escribí lo que tu mesa juega distinto de unas reglas incluidas. Cada problema aparece en su línea mientras escribís.",
    "house.base": "Partir de",
    "house.new": "Empezar de nuevo desde estas",
    "house.yaml": "YAML de las reglas",
    "house.confirmNew": "¿Reemplazar el YAML del editor por unas reglas de la casa nuevas?",
    "house.checking": "Comprobando…",
    "house.valid": "Válidas: {name}, sobre {base}. Combinaciones: {kinds}.",
    "house.validAlone": "Válidas: {name}. Combinaciones: {kinds}.",
    "house.problems1": "1 problema:",
    "house.problems": "{n} problemas:",
    "house.at": "línea {line}, columna {column}",
    "house.atLine": "línea {line}",
    "house.useCheck": "Usar en Comprobar",
    "house.useSheet": "Usar en la planilla",
    "house.download": "Descargar {file}",
    "house.diffTitle": "Qué cambia respecto de {base}",
    "house.diffLoading": "Comparando con {base}…",
    "house.same": "Ninguna diferencia: {name} se juega como {base}.",
    "house.rules": "Reglas distintas",
    "house.witnesses": "Manos que muestran la diferencia",
    "house.example": "Cartas",
    "house.under": "Con {name}",
    "house.tryIt": "Comprobar",
    "house.tryItLabel": "Comprobar: {cards} con {name}",
    "house.template": "# Las reglas de tu mesa: solo lo que cambia respecto de {base}.\n# Por ejemplo, dos comodines en una escalera:\n# melds:\n#   escalera:\n#     shape: run 3..13, ace low, wilds <= 2\n",
    "arrange.title": "Mejor acomodo",
    "arrange.hint": "Las cartas de tu mano, tocadas arriba o escritas.",
    "arrange.discard": "Acabo de robar: elegir primero el mejor descarte",
    "arrange.opened": "Ya bajé (puse cartas en la mesa en un turno anterior)",
    "arrange.go": "Acomodar",
    "arrange.working": "Buscando el mejor acomodo…",
    "arrange.melds": "Mejores combinaciones:",
    "arrange.noMelds": "Con esta mano no se puede bajar ninguna combinación.",
    "arrange.meld": "{kind}: {cards}",
    "arrange.left": "Quedan en la mano: {cards}",
    "arrange.leftNone": "No queda nada en la mano.",
    "arrange.leftValue": "({value} puntos)",
    "arrange.score": "Puntos de la ronda si terminara ahora: {score}.",
    "arrange.canGoOut": "Podés cortar ahora.",
    "arrange.cannotGoOut": "Todavía no podés cortar.",
    "arrange.outScore": "Cortar suma {score}.",
    "arrange.outScoreWins": "Cortar suma {score} y gana la partida.",
    "arrange.discardCard": "Descartá {card}.",
    "arrange.empty": "Tocá o escribí las cartas de una mano y después Acomodar.",
  },
};

const listeners = [];
let current = "en";

export const LANGS = Object.keys(STRINGS);

export function lang() {
  return current;
}

// A text in the current language, with {name} filled from vars.
export function t(key, vars) {
  let text = STRINGS[current][key];
  if (text === undefined) text = STRINGS.en[key];
  if (text === undefined) return key;
  if (vars) text = text.replace(/\{(\w[\w ]*)\}/g, (m, k) => (vars[k] !== undefined ? String(vars[k]) : m));
  return text;
}

// The language asked for before (kept in the browser), else the browser's own.
export function initialLang() {
  let saved = null;
  try {
    saved = localStorage.getItem("loba.lang");
  } catch (e) {
    saved = null;
  }
  if (saved && STRINGS[saved]) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (STRINGS[base]) return base;
  }
  return "en";
}

// Fill every [data-i18n] text and [data-i18n-aria] label under root.
export function apply(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
}

export function setLang(code, remember) {
  if (!STRINGS[code]) return;
  current = code;
  document.documentElement.lang = code;
  if (remember) {
    try {
      localStorage.setItem("loba.lang", code);
    } catch (e) {
      // storage refused (private mode): the choice holds until the page is closed
    }
  }
  apply(document);
  for (const fn of listeners) fn(code);
}

export function onLang(fn) {
  listeners.push(fn);
}
