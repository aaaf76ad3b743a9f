// The Play view: start a live table (POST /v1/tables: the ruleset, the house one too, and the players), send
// each player their seat's link (shown with its QR code), and play a seat or watch the table (seat.js).
//
// A seat's link is /?table=ID#token=T: the token is in the fragment, which the browser never sends to a
// server.  The page keeps it for this tab only (sessionStorage) and takes it out of the address bar at once.
import { api } from "./api.js";
import { onLang, t } from "./i18n.js";
import { el } from "./picker.js";
import { playersField } from "./players.js";
import { fillSelect, onHouse, refOf } from "./rulesets.js";

// Loaded only when needed (a table's seat, a new table's links): the first view of the page stays light.
let qr = null;
let qrLoading = null;
const loadQr = () => {
  if (!qrLoading) {
    qrLoading = import("./qr.js").then((m) => {
      qr = m;
    }, () => {
      // the links work without their pictures
    });
  }
  return qrLoading;
};

const SEAT_KEY = "loba.seat."; // + table id: that table's seat token, in this tab
const CREATED_KEY = "loba.play.created"; // the table this tab started: its links, to show them again
const memory = new Map(); // the same, where the browser refuses storage

function store(key, value) {
  memory.set(key, value);
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch (e) {
    // storage refused (private mode): kept in memory until the page is left
  }
}

function stored(key) {
  try {
    const v = sessionStorage.getItem(key);
    if (v !== null) return v;
  } catch (e) {
    // storage refused
  }
  return memory.has(key) ? memory.get(key) : null;
}

export function tableInAddress() {
  const id = new URLSearchParams(location.search).get("table");
  return id && id.length <= 64 ? id : null;
}

// A seat's link opened: keep its token for this tab and leave /?table=ID#play in the address bar (the token
// is never shown, bookmarked or copied from there).  True when there was a token to take.
export function takeSeatLink() {
  const table = tableInAddress();
  const hash = location.hash.slice(1);
  if (!table || !hash.startsWith("token=")) return false;
  let token = "";
  try {
    token = decodeURIComponent(hash.slice("token=".length));
  } catch (e) {
    token = "";
  }
  if (token) store(SEAT_KEY + table, token);
  history.replaceState(null, "", `${location.pathname}?table=${encodeURIComponent(table)}#play`);
  return true;
}

function isLocal() {
  return ["localhost", "127.0.0.1", "[::1]", "::1"].includes(location.hostname);
}

export function initPlay() {
  const body = document.getElementById("play-body");
  const table = tableInAddress();
  let seat = null;
  const setup = { ruleset: null, players: ["", "", ""], match: false, error: null, busy: false };
  let created = null; // POST /v1/tables's answer: {table, seats: {name: {token, url}}, host_token, watch_url}
  let copied = null; // {name} | {failed: true}
  try {
    created = JSON.parse(stored(CREATED_KEY) || "null");
  } catch (e) {
    created = null;
  }

  function render() {
    if (seat) {
      seat.render();
      return;
    }
    body.replaceChildren();
    if (table) {
      body.append(el("p", { class: "hint", role: "status", text: t("play.loading") }));
      return;
    }
    if (created) renderShare();
    else renderSetup();
  }

  function renderSetup() {
    const form = el("form", { id: "play-form", autocomplete: "off", novalidate: true });
    form.append(el("p", { class: "hint", text: t("play.intro") }));
    const select = el("select", { id: "play-ruleset" });
    form.append(el("div", { class: "field" }, el("label", { for: "play-ruleset", text: t("ruleset") }), select));
    setup.ruleset = fillSelect(select, setup.ruleset);
    select.addEventListener("change", () => {
      setup.ruleset = select.value;
    });
    const list = playersField("play", setup.players, render);
    list.append(el("p", { class: "hint", text: t("play.dealerHint") }));
    form.append(list);
    const match = el("input", { type: "checkbox", id: "play-match" });
    match.checked = setup.match;
    match.addEventListener("change", () => {
      setup.match = match.checked;
    });
    form.append(el("div", { class: "check" }, match, el("label", { for: "play-match", text: t("play.match") })));
    if (isLocal()) form.append(el("p", { class: "hint", text: t("play.localHint", { host: location.host }) }));
    const errorBox = el("div", { id: "play-form-error", role: "alert" });
    if (setup.error) {
      errorBox.className = "problem";
      errorBox.append(el("p", { text: t("err.title") }),
        el("ul", {}, ...setup.error.map((m) => el("li", { text: m }))));
    }
    form.append(el("div", { class: "actions" }, el("button", { type: "submit", id: "play-start",
      text: setup.busy ? t("play.starting") : t("play.start"), "aria-disabled": setup.busy ? "true" : null })), errorBox);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      start();
    });
    body.append(el("h2", { text: t("play.new") }), form);
  }

  async function start() {
    if (setup.busy) return;
    const players = setup.players.map((n) => n.trim().replace(/\s+/g, " ")).filter((n) => n);
    if (players.length < 2 || new Set(players).size !== players.length) {
      setup.error = [t("sheet.namesNeeded")];
      render();
      return;
    }
    setup.busy = true;
    setup.error = null;
    render();
    try {
      const [answer] = await Promise.all([
        api("POST", "/v1/tables", { ruleset: refOf(setup.ruleset), players, match: setup.match }), loadQr()]);
      created = { table: answer.table, seats: answer.seats, host_token: answer.host_token, watch_url: answer.watch_url,
        players };
      store(CREATED_KEY, JSON.stringify(created));
      setup.busy = false;
      copied = null;
      render();
      document.getElementById("play-share-h").focus();
    } catch (e) {
      setup.busy = false;
      setup.error = e.items ? e.items.map((i) => i.message) : [String(e.message)];
      render();
    }
  }

  function renderShare() {
    if (!qr && !qrLoading) loadQr().then(() => qr && render());
    const h = el("h2", { id: "play-share-h", tabindex: "-1", text: t("play.share") });
    const list = el("ul", { class: "seat-links" });
    const names = created.players || Object.keys(created.seats);
    names.forEach((name, i) => {
      const url = created.seats[name].url;
      const id = `play-link-${i}`;
      const input = el("input", { type: "text", id, value: url, readonly: true, spellcheck: "false" });
      input.addEventListener("focus", () => input.select());
      const copy = el("button", { type: "button", class: "secondary", text: t("play.copy"),
        "aria-label": t("play.copyLabel", { name }), onclick: () => copyLink(name, url, input) });
      list.append(el("li", { class: "seat-link" },
        el("h3", { text: name }),
        qr ? qr.qrSvg(url, t("play.qrOf", { name })) : el("span", { class: "qr" }),
        el("div", { class: "seat-link-text" },
          el("a", { class: "button secondary", href: url, text: t("play.sitHere", { name }) })),
        el("div", { class: "field seat-link-url" }, el("label", { for: id, text: t("play.linkOf", { name }) }),
          el("div", { class: "row" }, input, copy))));
    });
    const note = el("p", { id: "play-copied", class: "hint", role: "status" });
    if (copied) note.textContent = copied.failed ? t("play.copyFailed") : t("play.copied", { name: copied.name });
    body.append(h, el("p", { class: "hint", text: t("play.shareHint") }), list, note,
      el("div", { class: "actions" },
        el("a", { class: "button secondary", href: created.watch_url, text: t("play.watch") }),
        el("button", { type: "button", class: "secondary", id: "play-another", text: t("play.another"), onclick: () => {
          created = null;
          store(CREATED_KEY, null);
          render();
          document.getElementById("play-player-0").focus();
        } })));
  }

  async function copyLink(name, url, input) {
    try {
      await navigator.clipboard.writeText(url);
      copied = { name };
    } catch (e) {
      input.focus();
      input.select();
      copied = { failed: true };
    }
    const note = document.getElementById("play-copied");
    if (note) note.textContent = copied.failed ? t("play.copyFailed") : t("play.copied", { name });
  }

  if (table) {
    import("./seat.js").then(({ Seat }) => {
      seat = new Seat(body, table, stored(SEAT_KEY + table), () => {
        store(SEAT_KEY + table, null);
        location.assign(`${location.pathname}#play`);
      });
      seat.start();
    }, () => {
      body.replaceChildren(el("p", { class: "problem", role: "alert", text: t("err.network") }));
    });
  }
  onHouse(() => {
    if (!seat && !created) render();
  });
  onLang(render);
  render();
  return {};
}
