// The daily deal page (docs/RULES.md §10): the same proven-winnable deal for everyone on a
// UTC date, the player's game of it, the daily streak, and a result to share without spoilers.

import { call } from "./api.js";
import { h, clear, duration, announce } from "./dom.js";
import { t, nt } from "./i18n.js";
import { VARIANTS, variantTitle } from "./variants.js";

/** Today's date in UTC, as YYYY-MM-DD: the daily deal changes at midnight UTC. */
function todayUtc() {
  return new Date().toISOString().slice(0, 10);
}

/** The address of the daily page of a variant and a date. */
export function dailyPath(variant, date) {
  return `/daily?variant=${encodeURIComponent(variant)}&date=${encodeURIComponent(date)}`;
}


/** The spoiler-free result: date, variant, outcome, moves, time, hints and the link. */
export function shareText(daily, origin) {
  const game = daily.game;
  const outcome = game.status === "won" ? t("won") : t("lost");
  const line = t("Milligan daily {date} ({variant}): {outcome}", {
    date: daily.date, variant: variantTitle(daily.variant), outcome,
  });
  const figures = [nt("{n} move", "{n} moves", game.moves), duration(game.seconds),
    nt("{n} hint", "{n} hints", game.hints)].join(" · ");
  return `${line} · ${figures}\n${origin}${dailyPath(daily.variant, daily.date)}`;
}

async function copy(text, area) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    area.select();
    document.execCommand("copy");
  }
  announce(t("Copied to the clipboard"));
}

export function showDaily(main, app) {
  const query = new URLSearchParams(window.location.search);
  const variant = query.get("variant") || "classic";
  const date = query.get("date") || todayUtc();
  const title = t("Daily deal");
  document.title = `${title} – Miss Milligan`;
  const page = h("section", { class: "page daily" }, h("h1", {}, title),
    h("p", { class: "lead" }, t("Everyone gets the same deal on the same day, and it can be "
      + "won. A new one comes every day at midnight UTC.")));
  const variantSelect = h("select", { id: "daily-variant", name: "variant" },
    VARIANTS.map((key) => h("option", { value: key, selected: key === variant },
      variantTitle(key))));
  const dateInput = h("input", { id: "daily-date", name: "date", type: "date", value: date,
    max: todayUtc(), required: true });
  const form = h("form", { class: "daily-form", onsubmit: (event) => {
    event.preventDefault();
    app.navigate(dailyPath(variantSelect.value, dateInput.value));
  } },
  h("label", { for: "daily-variant" }, t("Variant")), " ", variantSelect, " ",
  h("label", { for: "daily-date" }, t("Date (UTC)")), " ", dateInput, " ",
  h("button", { type: "submit" }, t("Show")));
  const body = h("div", { class: "daily-body", "aria-live": "polite" },
    h("p", { class: "loading" }, t("Loading…")));
  const streak = h("p", { class: "daily-streak" });
  page.append(form, body, streak);
  clear(main).append(page);
  let alive = true;
  const url = `/api/daily?variant=${encodeURIComponent(variant)}&date=${encodeURIComponent(date)}`;
  call("GET", url).then((daily) => {
    if (alive) fill(body, daily, app);
  }, (error) => {
    if (!alive) return;
    clear(body).append(h("p", { role: "alert", class: "error" }, error.code === "not_yet"
      ? t("The daily deal of {date} is not out yet.", { date })
      : t("Something went wrong: {message}", { message: error.message })));
  });
  call("GET", "/api/daily/stats").then((stats) => {
    if (!alive) return;
    streak.textContent = `${nt("Daily streak: {n} day", "Daily streak: {n} days",
      stats.current_streak)} · ${nt("best {n} day", "best {n} days", stats.best_streak)}`;
  }, () => {});
  return () => { alive = false; };
}

function fill(body, daily, app) {
  clear(body);
  body.append(h("h2", {}, `${variantTitle(daily.variant)} · ${daily.date}`),
    h("p", {}, t("Deal {n}", { n: daily.deal })));
  const start = async () => {
    try {
      const game = await call("POST", "/api/daily/games",
        { variant: daily.variant, date: daily.date });
      app.navigate(`/game/${game.id}`);
    } catch (error) {
      body.append(h("p", { role: "alert", class: "error" },
        t("Something went wrong: {message}", { message: error.message })));
    }
  };
  const game = daily.game;
  if (!game) {
    body.append(h("div", { class: "buttons" }, h("button", { type: "button",
      class: "primary big", onclick: start }, t("Play the daily deal"))));
    return;
  }
  if (game.status === "playing") {
    body.append(h("p", {}, t("You have started this deal.")),
      h("div", { class: "buttons" }, h("a", { class: "button primary big",
        href: `/game/${game.id}`, "data-link": true }, t("Continue the game"))));
    return;
  }
  const text = shareText(daily, window.location.origin);
  const area = h("textarea", { id: "daily-share", readonly: true, rows: 4, cols: 64 }, text);
  body.append(h("p", {}, game.status === "won" ? t("You won this deal.")
    : t("You did not win this deal.")),
  h("p", {}, h("label", { for: "daily-share" }, t("Share your result (no spoilers)"))), area,
  h("div", { class: "buttons" },
    h("button", { type: "button", class: "primary", onclick: () => copy(text, area) },
      t("Copy")),
    h("button", { type: "button", onclick: start }, t("Play it again"))));
}
