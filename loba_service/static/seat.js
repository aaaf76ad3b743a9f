// One live table as a seat sees it (or a spectator, without a token): the first view from GET /v1/tables/ID,
// then every change from the WebSocket /v1/tables/ID/ws (reconnecting when it drops; the token goes in its
// first message, never in a URL).  Moves are POSTed to /v1/tables/ID/moves with the ply they were chosen at and
// the page's language: a 409 (the table moved on) and a 422 (the referee's reasons, in that language) are said
// in words.
//
// Nothing here judges a move: the legal moves come with the view, and any other selection is sent as it is
// so that the referee says why it is not allowed.
import { api } from "./api.js";
import { lang, t } from "./i18n.js";
import { el, suitWord } from "./picker.js";
import { isShipped, rulesets, showOf } from "./rulesets.js";

const RED_SYMBOLS = new Set(["♥", "♦", "♡", "♢"]);
const FATAL_CLOSE = { 4403: "play.forbidden", 4404: "play.gone", 4410: "play.gone" };
const EVENTS = new Set(["drew", "took_pile", "melded", "laid_off", "replaced", "moved_wild", "discarded", "went_out",
  "round_over", "stock_out", "reshuffle", "new_round", "reentered", "stayed_out", "undone"]);
const PING_MS = 60000;
const PONG_MS = 10000;
const LOG_MAX = 60;

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

function countText(n) {
  return n === 1 ? t("play.cards1") : t("play.cardsN", { n });
}

export class Seat {
  constructor(root, table, token, leave) {
    this.root = root;
    this.table = table;
    this.token = token || null;
    this.leave = leave;
    this.view = null;
    this.fatal = null; // an i18n key: the table cannot be shown (gone, or not a seat of it)
    this.conn = "connecting"; // "connecting" | "live" | "reconnecting"
    this.hand = []; // the seat's cards, sorted
    this.selected = new Set(); // indices into this.hand
    this.focusIndex = 0;
    this.problem = null; // {kind: "illegal" | "stale" | "error" | "note", text, items}
    this.chooser = null; // {title, options: [{label, move}]}
    this.log = []; // the events seen, in words
    this.lastEvents = [];
    this.busy = false;
    this.cards = null; // card name -> {key, word, red}: the ruleset's deck order, for sorting the hand
    this.ws = null;
    this.retry = 0;
    this.pingTimer = 0;
    this.pongTimer = 0;
    this.retryTimer = 0;
    this.saved = null; // the record's file name, once downloaded
    this.build();
  }

  get path() {
    return `/v1/tables/${encodeURIComponent(this.table)}`;
  }

  // ------------------------------------------------------------ the skeleton (live regions stay put)

  build() {
    const p = (id, attrs) => el("p", { id, ...attrs });
    this.who = p("play-who", { class: "seat-who" });
    this.connBox = el("span", { id: "play-conn", class: "conn", "aria-live": "polite" });
    this.status = p("play-status", { class: "turn-line", role: "status" });
    this.alert = el("div", { id: "play-problem", role: "alert" });
    this.main = el("div", { class: "seat-main" });
    this.side = el("div", { class: "seat-side" });
    this.after = el("div", { class: "seat-after" });
    this.dom = el("div", { class: "seat" }, el("div", { class: "seat-top" }, this.who, this.connBox), this.status,
      this.alert, el("div", { class: "seat-grid" }, this.main, this.side), this.after);
  }

  async start() {
    this.render();
    window.addEventListener("online", () => this.connectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.connectNow();
    });
    try {
      const view = await api("GET", this.path, undefined, undefined, this.token);
      await this.loadCards(view.ruleset);
      this.apply(view);
    } catch (e) {
      if (e.status === 404) this.fatal = "play.gone";
      else if (e.status === 403 || e.status === 401) this.fatal = "play.forbidden";
      else this.problem = { kind: "error", text: t("err.title"), items: (e.items || []).map((i) => i.message) };
      this.render();
      if (this.fatal) return;
    }
    this.connect();
  }

  // The deck's order (suit by suit, rank by rank, Jokers last) and its suit words, for the hand.
  async loadCards(ruleset) {
    let deck = null;
    try {
      if (isShipped(ruleset)) deck = (await showOf(ruleset)).deck;
      else if (rulesets.house && rulesets.house.name === ruleset) deck = rulesets.house.deck;
      else deck = (await showOf(rulesets.defaultName)).deck; // a house ruleset of another browser: the usual deck
    } catch (e) {
      deck = null;
    }
    const cards = new Map();
    if (deck) {
      deck.suits.forEach((suit, s) => {
        suit.cards.forEach((card, r) => cards.set(card, { key: s * 1000 + r, suit, red: RED_SYMBOLS.has(suit.symbol) }));
      });
      cards.set(deck.joker, { key: 1e6, suit: null, red: false });
    }
    this.cards = cards;
  }

  info(card) {
    const got = this.cards && this.cards.get(card);
    if (got) return { key: got.key, word: got.suit ? suitWord(got.suit) : "", red: got.red };
    return { key: 2e6, word: "", red: /[♥♦]/.test(card) };
  }

  // ------------------------------------------------------------ the connection

  connect() {
    if (this.fatal) return;
    window.clearTimeout(this.retryTimer);
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}${this.path}/ws`);
    } catch (e) {
      this.reconnectLater();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.token) ws.send(JSON.stringify({ type: "auth", token: this.token }));
      this.retry = 0;
      this.pingTimer = window.setInterval(() => this.ping(), PING_MS);
    });
    ws.addEventListener("message", (e) => {
      window.clearTimeout(this.pongTimer);
      this.message(e.data);
    });
    ws.addEventListener("close", (e) => {
      window.clearInterval(this.pingTimer);
      window.clearTimeout(this.pongTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (FATAL_CLOSE[e.code]) {
        this.fatal = FATAL_CLOSE[e.code];
        this.render();
        return;
      }
      this.setConn("reconnecting");
      this.reconnectLater();
    });
  }

  reconnectLater() {
    const delay = Math.min(8000, 500 * 2 ** this.retry);
    this.retry += 1;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  // A ping the server answers within PONG_MS, or the connection is taken for dead (a phone that slept may
  // hold a socket that no longer reaches anything) and made again.
  ping() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send('{"type":"ping"}');
    window.clearTimeout(this.pongTimer);
    this.pongTimer = window.setTimeout(() => this.drop(ws), PONG_MS);
  }

  drop(ws) {
    if (this.ws !== ws) return;
    this.ws = null; // its close event, whenever it comes, is ignored
    window.clearInterval(this.pingTimer);
    try {
      ws.close();
    } catch (e) {
      // closed already
    }
    this.setConn("reconnecting");
    this.reconnectLater();
  }

  connectNow() {
    if (this.ws) {
      this.ping();
    } else if (!this.fatal && this.conn !== "connecting") {
      this.retry = 0;
      this.connect();
    }
  }

  live() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.conn === "live";
  }

  setConn(state) {
    if (this.conn === state) return;
    this.conn = state;
    this.renderTop();
  }

  message(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch (e) {
      return;
    }
    if (msg.type === "state") {
      if (this.token && msg.view.seat === null) return; // the public state, sent before the token was read
      this.setConn("live");
      this.noteEvents(msg.events || []);
      this.apply(msg.view);
    } else if (msg.type === "illegal") {
      this.problem = { kind: "illegal", text: t("play.illegal"), items: (msg.reasons || []).map((r) => r.message),
        at: this.view ? this.view.ply : undefined };
      this.render();
    } else if (msg.type === "error") {
      this.problem = { kind: "error", text: t("err.title"), items: [String(msg.detail || msg.code)] };
      this.render();
    }
  }

  noteEvents(events) {
    const lines = events.map((e) => this.eventText(e)).filter((x) => x);
    this.lastEvents = lines;
    this.log.push(...lines);
    if (this.log.length > LOG_MAX) this.log.splice(0, this.log.length - LOG_MAX);
  }

  eventText(e) {
    if (!EVENTS.has(e.kind)) return "";
    const cards = (e.cards || []).join(" ");
    if (e.kind === "drew") return t(cards && !cards.includes("??") ? "ev.drewCard" : "ev.drew", { name: e.player, cards });
    return t(`ev.${e.kind}`, { name: e.player, cards, meld: e.meld, round: e.round });
  }

  // A new view: the hand sorted, the selection kept where its cards are still held.
  apply(view) {
    // a refusal, a stale screen or a note is about the table as it was: gone once the table moves on
    if (this.problem && this.problem.at !== undefined && this.problem.at !== view.ply) this.problem = null;
    const before = this.selected.size ? [...this.selected].map((i) => this.hand[i]) : [];
    this.view = view;
    this.hand = [...(view.hand || [])].sort((a, b) => this.info(a).key - this.info(b).key || (a < b ? -1 : a > b ? 1 : 0));
    this.selected = new Set();
    for (const card of before) {
      const i = this.hand.findIndex((c, j) => c === card && !this.selected.has(j));
      if (i >= 0) this.selected.add(i);
    }
    this.focusIndex = Math.min(this.focusIndex, Math.max(0, this.hand.length - 1));
    if (!this.legal().length) this.chooser = null;
    this.render();
  }

  legal() {
    return (this.view && this.view.legal) || [];
  }

  me() {
    return this.view ? this.view.seat : null;
  }

  selection() {
    return [...this.selected].sort((a, b) => a - b).map((i) => this.hand[i]);
  }

  // ------------------------------------------------------------ moves

  async play(move) {
    if (this.busy || !this.view) return;
    this.busy = true;
    this.problem = null;
    this.chooser = null;
    this.render();
    try {
      const body = { move, ply: this.view.ply, messages: lang() }; // a refusal's reasons in the page's language
      const answer = await api("POST", `${this.path}/moves`, body, undefined, this.token);
      this.selected = new Set();
      if (!this.live()) {
        // the WebSocket is down: this answer is the news (the socket brings it to every tab otherwise)
        this.noteEvents(answer.events || []);
        this.apply(answer.view);
      }
    } catch (e) {
      const items = (e.items || []).map((i) => i.message);
      if (e.status === 409) {
        const problem = { kind: "stale", text: t("play.stale"), items: [] };
        try {
          this.apply(await api("GET", this.path, undefined, undefined, this.token));
          problem.at = this.view.ply;
        } catch (e2) {
          // the socket brings the table's state when it is back
        }
        this.problem = problem;
      } else if (e.status === 422) {
        this.problem = { kind: "illegal", text: t("play.illegal"), items, at: this.view.ply };
      } else {
        this.problem = { kind: "error", text: t("err.title"), items };
      }
    } finally {
      this.busy = false;
      this.render();
    }
  }

  note(text) {
    this.problem = { kind: "note", text, items: [], at: this.view ? this.view.ply : undefined };
    this.chooser = null;
    this.render();
  }

  // Several legal moves take the selected cards (other melds, other ways for a wild): the player picks one.
  choose(title, options) {
    this.problem = null;
    this.chooser = { title, options };
    this.render();
    const first = this.root.querySelector(".chooser button");
    if (first) first.focus();
  }

  meldName(n) {
    const m = this.view.melds.find((x) => x.meld === n);
    return m ? t("play.onMeld", { n, kind: m.kind, owner: m.owner }) : String(n);
  }

  waysText(move) {
    const as = move.as || [];
    const parts = (move.cards || []).map((c, i) => (as[i] && as[i] !== c ? t("play.stands", { card: c, as: as[i] }) : null));
    return parts.filter((x) => x).join(", ") || move.cards.join(" ");
  }

  doMeld() {
    const sel = this.selection();
    if (!sel.length) return this.note(t("play.selectMeld"));
    const fits = this.legal().filter((m) => m.op === "meld" && sameCards(m.cards, sel));
    if (fits.length > 1) return this.choose(t("play.whichWay"), fits.map((m) => ({ label: this.waysText(m), move: m })));
    return this.play(fits.length ? fits[0] : { op: "meld", cards: sel });
  }

  doLayOff() {
    const sel = this.selection();
    if (!sel.length) return this.note(t("play.selectLay"));
    const fits = this.legal().filter((m) => m.op === "lay_off" && sameCards(m.cards, sel));
    if (fits.length === 1) return this.play(fits[0]);
    if (fits.length > 1) {
      const several = new Set(fits.map((m) => m.meld)).size < fits.length;
      return this.choose(t("play.whichMeld"), fits.map((m) => ({
        label: this.meldName(m.meld) + (several && m.as ? ` (${this.waysText(m)})` : ""), move: m })));
    }
    // no legal lay-off takes these cards: the player names the meld and the referee says why not
    if (!this.view.melds.length) return this.note(t("play.noTableMelds"));
    if (this.view.melds.length === 1) return this.play({ op: "lay_off", meld: this.view.melds[0].meld, cards: sel });
    return this.choose(t("play.whichMeld"), this.view.melds.map((m) => ({ label: this.meldName(m.meld),
      move: { op: "lay_off", meld: m.meld, cards: sel } })));
  }

  doDiscard() {
    const sel = this.selection();
    if (sel.length !== 1) return this.note(t("play.selectOne"));
    const fit = this.legal().find((m) => m.op === "discard" && m.card === sel[0]);
    return this.play(fit || { op: "discard", card: sel[0] });
  }

  doSwap() {
    const sel = this.selection();
    if (sel.length !== 1) return this.note(t("play.selectSwap"));
    const fits = this.legal().filter((m) => m.op === "replace_joker" && m.card === sel[0]);
    if (!fits.length) return this.note(t("play.noSwap", { card: sel[0] }));
    if (fits.length === 1) return this.play(fits[0]);
    return this.choose(t("play.whichMeld"), fits.map((m) => ({ label: this.meldName(m.meld), move: m })));
  }

  toggle(i) {
    if (this.selected.has(i)) this.selected.delete(i);
    else this.selected.add(i);
    this.focusIndex = i;
    this.chooser = null;
    if (this.problem && this.problem.kind === "note") this.problem = null;
    this.render();
  }

  async download() {
    try {
      const record = await api("GET", `${this.path}/record`, undefined, undefined, this.token);
      const file = `loba-table-${this.table.replace(/[^A-Za-z0-9_-]/g, "")}.json`;
      const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 2) + "\n"], { type: "application/json" }));
      const a = el("a", { href: url, download: file, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 10000);
      this.saved = file;
    } catch (e) {
      this.problem = { kind: "error", text: t("err.title"), items: (e.items || []).map((i) => i.message) };
    }
    this.render();
  }

  // ------------------------------------------------------------ drawing

  render() {
    if (!this.dom.isConnected) this.root.replaceChildren(this.dom);
    const active = document.activeElement;
    const key = active && this.dom.contains(active) ? active.dataset.key || null : null;
    this.renderTop();
    this.renderProblem();
    this.main.replaceChildren();
    this.side.replaceChildren();
    this.after.replaceChildren();
    if (this.fatal) {
      this.status.textContent = t(this.fatal);
      this.after.append(this.leaveLink());
      if (key) document.getElementById("play-h").focus();
      return;
    }
    if (!this.view) {
      this.status.textContent = t("play.loading");
      return;
    }
    this.dom.dataset.ply = String(this.view.ply); // which state is drawn (the tests wait for it)
    this.status.textContent = [...this.lastEvents, this.turnText()].join(" ");
    const scores = this.scoresBox();
    if (scores && this.view.outcome) {
      // the round is over: its scores (and the record, at the end) come first
      this.main.append(scores);
      if (this.view.over && this.me()) this.main.append(this.recordBox());
    }
    this.main.append(this.strip());
    if (this.me()) this.main.append(this.handBox(), this.movesBox());
    this.side.append(this.seatsBox(), this.meldsBox());
    if (scores && !this.view.outcome) this.side.append(scores);
    this.after.append(this.logBox(), this.leaveLink());
    if (key) this.refocus(key);
  }

  refocus(key) {
    const target = key === "hand" ? this.dom.querySelector(".hand-cards [tabindex='0']")
      : this.dom.querySelector(`[data-key="${key}"]`);
    const fallback = this.dom.querySelector(".hand-cards [tabindex='0']") || this.dom.querySelector(".moves button");
    (target || fallback || document.getElementById("play-h")).focus();
  }

  renderTop() {
    const v = this.view;
    const parts = [];
    if (v) parts.push(v.seat ? t("play.you", { name: v.seat }) : t("play.watching"), t("play.roundN", { n: v.round }));
    this.who.textContent = parts.join(" · ");
    this.connBox.className = `conn ${this.conn}`;
    this.connBox.textContent = this.fatal ? "" : t(`play.${this.conn}`);
  }

  renderProblem() {
    this.alert.replaceChildren();
    this.alert.className = "";
    const p = this.problem;
    if (!p) return;
    this.alert.className = p.kind === "note" ? "note" : "problem";
    this.alert.append(el("p", { text: p.text }));
    if (p.items && p.items.length) this.alert.append(el("ul", {}, ...p.items.map((m) => el("li", { text: m }))));
  }

  turnText() {
    const v = this.view;
    const me = this.me();
    const result = v.outcome;
    const ended = result ? (result.went_out ? t("play.wentOut", { name: result.went_out }) : t("play.stockOut")) : "";
    if (v.over) {
      const who = v.match && v.winners.length ? (v.winners.length === 1 ? t("sheet.winner", { names: v.winners[0] })
        : t("sheet.winners", { names: v.winners.join(", ") })) : ended;
      return [v.match ? t("play.matchOver") : t("play.roundOver"), who].filter((x) => x).join(" ");
    }
    if (v.offers && v.offers.length) {
      const mine = v.offers.find((o) => o.player === me);
      if (mine && this.legal().length) return t("play.yourReentry", { score: mine.score });
      return t("play.waitingReentry", { names: v.offers.map((o) => o.player).join(", ") });
    }
    if (me && v.to_move === me) {
      if (v.phase === "draw") return t("play.yourDraw");
      if (this.legal().length && this.legal().every((m) => m.op === "undo")) return t("play.yourUndo");
      return t("play.yourPlay");
    }
    return v.to_move ? t("play.waiting", { name: v.to_move }) : "";
  }

  face(card, extra) {
    const info = this.info(card);
    return el("span", { class: `face${info.red ? " red" : ""}${extra ? " " + extra : ""}` }, card,
      info.word ? el("span", { class: "sr-only", text: " " + info.word }) : null);
  }

  strip() {
    const v = this.view;
    const top = v.pile.length ? v.pile[0] : null;
    return el("div", { class: "strip" },
      el("p", {}, el("span", { class: "label", text: `${t("play.stock")}: ` }), countText(v.stock_count)),
      el("p", {}, el("span", { class: "label", text: `${t("play.pile")} (${countText(v.pile.length)}): ` }),
        top ? this.face(top, "big") : t("play.pileEmpty")));
  }

  handBox() {
    const box = el("section", { class: "hand", "aria-labelledby": "play-hand-h" });
    box.append(el("h2", { id: "play-hand-h", text: t("play.handN", { cards: countText(this.hand.length) }) }),
      el("p", { id: "play-hand-keys", class: "sr-only", text: t("play.handKeys") }));
    const group = el("div", { class: "hand-cards", role: "group", "aria-labelledby": "play-hand-h",
      "aria-describedby": "play-hand-keys" });
    this.hand.forEach((card, i) => {
      const info = this.info(card);
      const b = el("button", { type: "button", class: `card hand-card${info.red ? " red" : ""}${card.length > 3 ? " wide" : ""}`,
        "aria-pressed": this.selected.has(i) ? "true" : "false", "data-card": card, "data-key": "hand",
        tabindex: i === this.focusIndex ? "0" : "-1" }, card);
      if (info.word) b.append(el("span", { class: "sr-only", text: " " + info.word }));
      b.addEventListener("click", () => this.toggle(i));
      group.append(b);
    });
    group.addEventListener("keydown", (e) => {
      const buttons = Array.from(group.querySelectorAll("button"));
      const i = buttons.indexOf(document.activeElement);
      if (i < 0) return;
      const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: buttons.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      const j = Math.max(0, Math.min(buttons.length - 1, to));
      buttons[i].setAttribute("tabindex", "-1");
      buttons[j].setAttribute("tabindex", "0");
      buttons[j].focus();
      this.focusIndex = j;
    });
    const sel = this.selection();
    const hint = sel.length ? t("play.selected", { cards: sel.join(" ") }) : this.legal().length ? t("play.noneSelected") : "";
    box.append(group, el("p", { class: "hint selected-line", id: "play-selected", text: hint }));
    return box;
  }

  button(key, text, onclick, secondary) {
    return el("button", { type: "button", class: secondary ? "secondary" : "", "data-key": key, text,
      "aria-disabled": this.busy ? "true" : null, "aria-describedby": "play-selected",
      onclick: () => {
        if (!this.busy) onclick();
      } });
  }

  movesBox() {
    const v = this.view;
    const legal = this.legal();
    const box = el("section", { class: "moves", "aria-labelledby": "play-moves-h" },
      el("h2", { id: "play-moves-h", class: "sr-only", text: t("play.moves") }));
    const row = el("div", { class: "actions" });
    const has = (op) => legal.some((m) => m.op === op);
    for (const m of legal.filter((x) => x.op === "reenter")) {
      const offer = (v.offers || []).find((o) => o.player === this.me());
      row.append(m.accepted ? this.button("reenter-yes", t("play.reenter", { score: offer ? offer.score : "" }), () => this.play(m))
        : this.button("reenter-no", t("play.stayOut"), () => this.play(m), true));
    }
    if (v.phase === "draw") {
      const stock = legal.find((m) => m.op === "draw" && m.from === "stock");
      const pile = legal.find((m) => m.op === "draw" && m.from === "discard");
      if (stock) row.append(this.button("draw-stock", t("play.draw"), () => this.play(stock)));
      if (pile) row.append(this.button("draw-discard", t("play.take"), () => this.play(pile)));
    } else if (v.phase === "play" && legal.length && !legal.every((m) => m.op === "undo")) {
      row.append(this.button("meld", t("play.meld"), () => this.doMeld()),
        this.button("lay_off", t("play.layOff"), () => this.doLayOff()),
        this.button("discard", t("play.discard"), () => this.doDiscard()));
      if (has("replace_joker")) row.append(this.button("replace", t("play.replace"), () => this.doSwap(), true));
      legal.filter((m) => m.op === "move_wild").forEach((m) => {
        row.append(this.button(`wild-${m.meld}-${m.to}`, t("play.moveWild", { meld: m.meld, to: t(`play.end.${m.to}`) }),
          () => this.play(m), true));
      });
    }
    const undo = legal.find((m) => m.op === "undo");
    if (undo) row.append(this.button("undo", t("play.undo"), () => this.play(undo), true));
    if (this.selected.size) {
      row.append(this.button("deselect", t("play.deselect"), () => {
        this.selected = new Set();
        this.chooser = null;
        this.render();
      }, true));
    }
    if (!row.children.length) return box;
    box.append(row);
    if (this.chooser) {
      const c = this.chooser;
      box.append(el("div", { class: "chooser", role: "group", "aria-labelledby": "play-chooser-h" },
        el("p", { id: "play-chooser-h", class: "chooser-title", text: c.title }),
        el("div", { class: "actions" }, ...c.options.map((o, i) => this.button(`choose-${i}`, o.label, () => this.play(o.move), true)),
          this.button("choose-cancel", t("play.cancel"), () => {
            this.chooser = null;
            this.render();
          }, true))));
    }
    return box;
  }

  seatsBox() {
    const v = this.view;
    const list = el("ul", { class: "seats" });
    for (const name of v.players) {
      const tags = [];
      if (name === v.seat) tags.push(t("play.youTag"));
      if (name === v.dealer) tags.push(t("play.dealer"));
      if ((v.opened || []).includes(name)) tags.push(t("play.opened"));
      if (name === v.to_move && !v.over) tags.push(t("play.toMove"));
      list.append(el("li", { class: name === v.to_move && !v.over ? "turn" : "" },
        el("span", { class: "marker", "aria-hidden": "true", text: name === v.to_move && !v.over ? "▶" : "" }),
        el("span", { class: "who", text: name }),
        el("span", { class: "tags", text: tags.length ? ` (${tags.join(", ")})` : "" }),
        el("span", { class: "count", text: countText(v.hand_counts[name] ?? 0) })));
    }
    return el("section", { class: "seats-box", "aria-labelledby": "play-seats-h" },
      el("h2", { id: "play-seats-h", text: t("play.seats") }), list);
  }

  meldsBox() {
    const v = this.view;
    const box = el("section", { class: "melds-box", "aria-labelledby": "play-melds-h" },
      el("h2", { id: "play-melds-h", text: t("play.melds") }));
    if (!v.melds.length) {
      box.append(el("p", { class: "hint", text: t("play.noMelds") }));
      return box;
    }
    box.append(el("ul", { class: "table-melds" }, ...v.melds.map((m) => el("li", {},
      el("span", { class: "meld-head", text: t("play.meldHead", { n: m.meld, kind: m.kind, owner: m.owner }) }),
      el("span", { class: "meld-cards" }, ...m.cards.map((c, i) => (m.wild[i]
        ? el("span", { class: "wild" }, this.face(c), el("span", { class: "stands", text: ` (${m.stands[i]})` }))
        : this.face(c))))))));
    return box;
  }

  scoresBox() {
    const v = this.view;
    const result = v.outcome || v.previous;
    if (!result && !(v.standings || []).length) return null;
    const round = v.outcome ? v.round : result && result.number ? result.number : v.round - 1;
    const totals = new Map((v.standings || []).map((s) => [s.name, s]));
    const names = v.standings && v.standings.length ? v.standings.map((s) => s.name) : v.players;
    const head = [t("play.player"), t("play.thisRound"), t("play.total")];
    if (v.match) head.push(t("play.status"));
    const rows = names.map((name) => {
      const s = totals.get(name);
      const cells = [el("th", { scope: "row", text: name }),
        el("td", { text: result && result.scores && name in result.scores ? String(result.scores[name]) : "—" }),
        el("td", { text: s ? String(s.total) : "—" })];
      if (v.match) cells.push(el("td", { text: s ? t(`sheet.status.${s.status}`) : "" }));
      return el("tr", {}, ...cells);
    });
    return el("section", { class: "scores-box", "aria-labelledby": "play-scores-h" },
      el("h2", { id: "play-scores-h", text: round > 0 ? t("play.scoresAfter", { n: round }) : t("play.scores") }),
      el("div", { class: "table-wrap" }, el("table", { class: "scores", "aria-labelledby": "play-scores-h" },
        el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
        el("tbody", {}, ...rows))));
  }

  recordBox() {
    const file = `loba-table-${this.table.replace(/[^A-Za-z0-9_-]/g, "")}.json`;
    return el("div", { class: "record-box" },
      el("button", { type: "button", "data-key": "record", text: t("play.record"), onclick: () => this.download() }),
      el("p", { class: "hint", role: "status", text: this.saved ? t("play.recordSaved", { file: this.saved })
        : t("play.recordHint", { file }) }));
  }

  logBox() {
    const d = el("details", { class: "log" }, el("summary", { "data-key": "log", text: t("play.log") }));
    d.open = Boolean(this.logOpen);
    d.addEventListener("toggle", () => {
      this.logOpen = d.open;
    });
    d.append(this.log.length ? el("ol", {}, ...this.log.map((line) => el("li", { text: line })))
      : el("p", { class: "hint", text: t("play.noLog") }));
    return d;
  }

  leaveLink() {
    return el("p", {}, el("a", { href: "#play", "data-key": "leave", text: t("play.leave"), onclick: (e) => {
      e.preventDefault();
      this.leave();
    } }));
  }
}
