// The card-table page: five views (check, sheet, house, arrange, play) over the service's /v1 API.
import { initArrange } from "./arrange.js";
import { initCheck } from "./check.js";
import { initHouse } from "./house.js";
import { apply, initialLang, lang, onLang, setLang, t } from "./i18n.js";
import { initPlay, tableInAddress, takeSeatLink } from "./play.js";
import { loadShipped } from "./rulesets.js";
import { initSheet } from "./sheet.js";

const VIEWS = { check: "check.title", sheet: "sheet.title", house: "house.title", arrange: "arrange.title",
  play: "play.title" };
let currentView = null;
let firstView = "check"; // a table's link (?table=ID) opens on the Play view
let houseShown = null; // the house rules view compares with its base only once it is seen

function route(focus) {
  const wanted = location.hash.slice(1);
  if (!(wanted in VIEWS) && currentView) return; // an in-page link (#main): the view stays
  const view = wanted in VIEWS ? wanted : firstView;
  currentView = view;
  for (const section of document.querySelectorAll("[data-view]")) section.hidden = section.dataset.view !== view;
  for (const a of document.querySelectorAll("[data-view-link]")) {
    if (a.dataset.viewLink === view) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  document.title = `${t(VIEWS[view])} · Loba`;
  if (view === "house" && houseShown) houseShown();
  if (focus) document.getElementById(`${view}-h`).focus();
}

function go(view) {
  if (location.hash === `#${view}`) route(true);
  else location.hash = `#${view}`;
}

async function main() {
  takeSeatLink(); // before anything reads the address: the seat's token leaves it
  if (tableInAddress()) firstView = "play";
  const switcher = document.getElementById("lang-switch");
  const other = () => (lang() === "es" ? "en" : "es");
  const label = () => {
    switcher.textContent = t("langSwitch");
    switcher.setAttribute("lang", other());
  };
  onLang(() => {
    label();
    if (currentView) document.title = `${t(VIEWS[currentView])} · Loba`;
  });
  setLang(initialLang(), false);
  apply(document);
  label();
  switcher.addEventListener("click", () => setLang(other(), true));
  const loading = document.getElementById("loading");
  try {
    await loadShipped();
  } catch (e) {
    loading.textContent = e.message;
    loading.setAttribute("role", "alert");
    return;
  }
  const app = { go };
  app.house = initHouse(app);
  app.check = initCheck();
  app.sheet = initSheet();
  initArrange();
  app.play = initPlay(app);
  loading.hidden = true;
  window.addEventListener("hashchange", () => {
    if (takeSeatLink()) location.reload(); // a seat's link opened in a tab already at its table: sit there
    else route(true);
  });
  houseShown = app.house.shown;
  route(false);
  if (currentView === "check") await app.check.ready;
  document.body.dataset.interactive = "1"; // the first view answers from here on
  performance.mark("loba-interactive");
  await app.house.ready;
  document.body.dataset.ready = "1"; // every view is drawn and answering (the tests and the benchmark wait for it)
  performance.mark("loba-ready");
}

main();
