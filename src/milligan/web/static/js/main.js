// Start-up and routing: one page, views chosen by the address.

import { api } from "./api.js";
import { installCardDefs } from "./cards.js";
import { h, clear, toast } from "./dom.js";
import { pickLanguage, loadLanguage, translateDocument, t } from "./i18n.js";
import { loadSettings, settings } from "./settings.js";
import { showGame } from "./table.js";
import { showHome, showRules, showStats, showAbout } from "./pages.js";
import { showDaily } from "./daily.js";
import { showTutorial } from "./tutorial.js";
import { openSettingsDialog } from "./dialogs.js";
import { VARIANTS } from "./variants.js";

const main = document.getElementById("main");
let teardown = null;

const app = {
  navigate(path, { replace = false } = {}) {
    if (replace) window.history.replaceState({}, "", path);
    else window.history.pushState({}, "", path);
    route();
  },
  refresh() {
    document.body.classList.toggle("four-colour", !!settings.fourColour);
    route({ keepFocus: true });
  },
  async setLanguage(lang) {
    await loadLanguage(lang);
    translateDocument();
    route({ keepFocus: true });
  },
};

async function startGame(variant, deal) {
  clear(main).append(h("p", { class: "page loading" }, t("Dealing…")));
  try {
    const game = await api.create(variant, deal);
    app.navigate(`/game/${game.id}`, { replace: true });
  } catch (error) {
    clear(main).append(h("section", { class: "page" }, h("h1", {}, t("Cannot start this game")),
      h("p", {}, error.message),
      h("p", {}, h("a", { href: "/", "data-link": true }, t("Back to the start page")))));
  }
}

/** "Play": back to the game in progress, or a new random deal. */
async function resumeOrStart() {
  let last = null;
  try {
    last = window.localStorage.getItem("milligan.lastGame");
  } catch {
    last = null;
  }
  if (last) {
    try {
      const game = await api.game(last);
      if (game.status === "playing") {
        app.navigate(`/game/${game.id}`, { replace: true });
        return;
      }
    } catch {
      // Gone or someone else's: start afresh.
    }
  }
  startGame(settings.variant || "classic", null);
}

function route({ keepFocus = false } = {}) {
  if (teardown) teardown();
  teardown = null;
  const path = window.location.pathname.replace(/\/+$/, "") || "/";
  const parts = path.split("/").filter(Boolean);
  for (const link of document.querySelectorAll("nav a")) {
    const here = link.getAttribute("href") === "/" + (parts[0] || "");
    if (here) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (parts[0] === "game" && parts[1]) {
    teardown = showGame(main, parts[1], app);
  } else if (path === "/play") {
    resumeOrStart();
  } else if (parts[0] === "play") {
    const variant = parts[1] || settings.variant || "classic";
    if (!VARIANTS.includes(variant)) {
      startGame(variant, null);
    } else if (parts[2] !== undefined) {
      const deal = /^\d+$/.test(parts[2]) && Number.isSafeInteger(Number(parts[2]))
        ? Number(parts[2]) : parts[2];
      startGame(variant, deal);
    } else {
      startGame(variant, null);
    }
  } else if (parts[0] === "rules") {
    showRules(main);
  } else if (parts[0] === "stats") {
    showStats(main);
  } else if (parts[0] === "daily") {
    teardown = showDaily(main, app);
  } else if (parts[0] === "tutorial") {
    teardown = showTutorial(main);
  } else if (parts[0] === "about") {
    showAbout(main);
  } else {
    showHome(main, app);
  }
  if (!keepFocus) window.scrollTo(0, 0);
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href]");
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.ctrlKey || event.metaKey || event.shiftKey || link.target) return;
  const href = link.getAttribute("href");
  if (!href.startsWith("/") || href.startsWith("/static/") || href.startsWith("/api/")) return;
  event.preventDefault();
  app.navigate(href);
});

window.addEventListener("popstate", () => route());

async function boot() {
  loadSettings();
  document.body.classList.toggle("four-colour", !!settings.fourColour);
  installCardDefs();
  try {
    await loadLanguage(pickLanguage(settings.language));
  } catch {
    await loadLanguage("en");
  }
  translateDocument();
  document.getElementById("settings-button")
    .addEventListener("click", () => openSettingsDialog(app));
  route();
  document.body.classList.add("ready");
}

window.addEventListener("unhandledrejection", (event) => {
  toast(String(event.reason && event.reason.message ? event.reason.message : event.reason),
    "error");
});

boot();
