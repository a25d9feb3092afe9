// The table on the page: the frame built once, then render(), which writes the whole table
// from the state (state.js) and never changes it.

import { cardElement, cardName, suitName, SUITS } from "./cards.js";
import { h, clear, duration } from "./dom.js";
import { t, nt } from "./i18n.js";
import { VARIANTS, variantTitle } from "./variants.js";
import { parseMove, rowsLeft } from "./moves.js";
import { layout } from "./layout.js";

export const HOURGLASS = '<svg viewBox="0 0 24 24" width="1em" height="1em" focusable="false">'
  + '<path d="M6 2h12v2.5c0 3-2.2 5-4.5 7.5 2.3 2.5 4.5 4.5 4.5 7.5V22H6v-2.5c0-3 2.2-5 '
  + '4.5-7.5C8.2 9.5 6 7.5 6 4.5z" fill="none" stroke="currentColor" stroke-width="2" '
  + 'stroke-linejoin="round"/><path d="M9 19.5c0-1.5 1.5-2.8 3-3.8 1.5 1 3 2.3 3 3.8z" '
  + 'fill="currentColor"/></svg>';

/** Build the empty frame in main; `on` holds the handlers of its buttons. Returns the parts. */
export function buildFrame(main, on) {
  const button = (key, label, action, extra = {}) => h("button",
    { class: "tool", type: "button", "data-action": key, onclick: action, ...extra }, label);
  const els = {};
  els.title = h("h1", { class: "game-title" });
  els.info = h("p", { class: "game-info", "aria-live": "off" });
  els.daily = h("p", { class: "game-daily", hidden: true });
  els.toolbar = h("div", { class: "toolbar", role: "toolbar", "aria-label": t("Game controls") },
    button("new", t("New game"), on.newGame),
    button("restart", t("Restart"), on.restart),
    button("undo", t("Undo"), on.undo, { title: t("Undo (Ctrl+Z or U)") }),
    button("redo", t("Redo"), on.redo, { title: t("Redo (Ctrl+Y)") }),
    button("hint", t("Hint"), on.hint, { title: t("Hint (H)") }),
    button("solve", t("Solve (full knowledge)"), on.solve),
    button("share", t("Share"), on.share),
    button("resign", t("Resign"), on.resign));
  els.reprieveText = h("p", { class: "reprieve-text" });
  els.endButton = h("button", { class: "end-reprieve", type: "button", "data-action": "stop",
    onclick: on.stop }, t("End reprieve"));
  els.banner = h("div", { class: "reprieve-banner", hidden: true, role: "region",
    "aria-label": t("Reprieve") }, h("span", { class: "reprieve-icon", "aria-hidden": "true",
    html: HOURGLASS }),
  els.reprieveText, els.endButton);
  els.message = h("div", { class: "message", hidden: true });
  els.stock = h("div", { class: "stock pile", tabindex: "0", role: "button",
    "data-drop": "stock", onclick: on.deal });
  els.foundations = h("div", { class: "foundations", role: "group",
    "aria-label": t("Foundations") });
  els.tableau = h("div", { class: "tableau" });
  els.table = h("div", { class: "table" },
    h("div", { class: "top-row" }, els.stock, els.foundations), els.tableau);
  els.playback = h("div", { class: "playback", hidden: true });
  els.playbackLabel = h("span", { class: "playback-label" });
  els.playButton = h("button", { type: "button", "data-action": "play", onclick: on.togglePlayback },
    t("Play"));
  els.playback.append(
    h("strong", {}, t("Solution (uses full knowledge: the game counts as assisted)")),
    els.playbackLabel, els.playButton,
    h("button", { type: "button", "data-action": "step", onclick: on.stepPlayback }, t("Step")),
    h("button", { type: "button", "data-action": "close", onclick: on.closePlayback },
      t("Close")));
  clear(main).append(h("section", { class: "game-view" },
    h("div", { class: "game-head" }, els.title, els.daily, els.info), els.toolbar, els.banner,
    els.message, els.playback, els.table));
  return els;
}

/** Write the whole table from the state; keyboard focus stays where it was. */
export function render(els, state) {
  const game = state.game;
  if (!game) return;
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.key : null;
  const title = typeof game.variant === "string" && VARIANTS.includes(game.variant)
    ? variantTitle(game.variant) : game.title || "Miss Milligan";
  document.title = `${title} – Miss Milligan`;
  els.title.textContent = title;
  els.daily.hidden = !game.daily;
  els.daily.textContent = game.daily ? t("Daily deal · {date}", { date: game.daily }) : "";
  renderInfo(els, state);
  renderToolbar(els, game);
  renderBanner(els, state);
  renderMessage(els, state.ui.message);
  renderPlayback(els, state.ui.playback);
  renderStock(els, state);
  renderFoundations(els, state);
  renderTableau(els, state);
  layout(els, state);
  if (focused) {
    const again = els.table.parentElement.querySelector(`[data-key="${focused}"]`);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }
}

/** The info line: deal, moves, time. The clock repaints it alone, once a second. */
export function renderInfo(els, state, seconds = state.ui.seconds) {
  const game = state.game;
  const parts = [];
  if (game.deal !== null && game.deal !== undefined) parts.push(t("Deal {n}", { n: game.deal }));
  parts.push(nt("{n} move", "{n} moves", game.moves));
  parts.push(duration(seconds));
  if (game.assisted) parts.push(t("assisted"));
  els.info.textContent = parts.join(" · ");
}

function renderToolbar(els, game) {
  const playing = game.status === "playing";
  const set = (key, enabled) => {
    els.toolbar.querySelector(`[data-action="${key}"]`).disabled = !enabled;
  };
  set("undo", game.can_undo);
  set("redo", game.can_redo);
  set("hint", playing);
  set("solve", playing);
  set("resign", playing);
  set("restart", game.moves > 0 || game.can_redo);
  set("share", game.deal !== null && game.deal !== undefined);
}

/** What a reprieve allows, in words. */
export function reprieveHelp(game) {
  if (game.variant === "strict") {
    return t("Strict rule: you may move only face-up cards, and never split a run.");
  }
  return t("Move any card, with the cards above it, onto any other column.");
}

function renderBanner(els, state) {
  const game = state.game;
  if (game.reprieve === null || game.reprieve === undefined || game.status !== "playing") {
    els.banner.hidden = true;
    return;
  }
  els.banner.hidden = false;
  let text = t("Reprieve: column {n} is empty.", { n: game.reprieve }) + " "
    + reprieveHelp(game) + " "
    + t("It ends when a King-led run goes into column {n}, or when you end it; "
      + "by then every moved card must lie on a card one rank higher and of the other colour.",
    { n: game.reprieve });
  const unsettled = (game.unsettled || []).length;
  if (game.hopeless) {
    text += " " + t("This reprieve can no longer be settled: undo some moves.");
  } else if (unsettled) {
    text += " " + nt("{n} moved card is still out of place.",
      "{n} moved cards are still out of place.", unsettled);
  } else if ((game.moved || []).length) {
    text += " " + t("Every moved card is in place: the reprieve can end.");
  }
  els.reprieveText.textContent = text;
  els.banner.classList.toggle("hopeless", !!game.hopeless);
  els.endButton.classList.toggle("ready", (game.legal || []).includes("S"));
  els.endButton.classList.toggle("hinted", !!state.ui.hint && state.ui.hint.move === "S");
}

function renderMessage(els, message) {
  els.message.hidden = !message;
  if (!message) return;
  els.message.className = `message ${message.kind}`;
  clear(els.message).append(h("span", {}, message.text));
}

function renderPlayback(els, playback) {
  els.playback.hidden = !playback;
  if (!playback) return;
  els.playbackLabel.textContent = t("Move {i} of {n}",
    { i: playback.index, n: playback.moves.length });
  els.playButton.textContent = playback.playing ? t("Pause") : t("Play");
}

function renderStock(els, state) {
  const game = state.game;
  const rows = rowsLeft(game);
  clear(els.stock);
  els.stock.dataset.key = "stock";
  if (game.stock > 0) {
    const back = cardElement("??", "");
    back.removeAttribute("role");
    back.removeAttribute("aria-label");
    els.stock.append(back);
  } else {
    els.stock.append(h("div", { class: "slot empty-stock" }));
  }
  els.stock.append(h("span", { class: "badge", "aria-hidden": "true" },
    nt("{n} row", "{n} rows", rows)));
  els.stock.setAttribute("aria-label", game.stock > 0
    ? nt("Stock: {n} row left. Deal a row (D).", "Stock: {n} rows left. Deal a row (D).", rows)
    : t("Stock: empty."));
  els.stock.classList.toggle("hinted", !!state.ui.hint && state.ui.hint.move === "D");
}

function renderFoundations(els, state) {
  const game = state.game;
  const hinted = state.ui.hint ? parseMove(state.ui.hint.move) : null;
  clear(els.foundations);
  els.foundations.classList.toggle("hint-target", !!hinted && hinted.kind === "F");
  const decks = (game.foundations.C || [0]).length;
  els.foundations.style.setProperty("--piles", String(4 * decks));
  for (const suit of SUITS) {
    // Tallest pile first, so that the cards sit to the left of the empty places.
    const heights = [...(game.foundations[suit] || [])].reverse();
    heights.forEach((height, index) => {
      const slot = h("div", { class: "foundation pile", tabindex: "0", role: "button",
        "data-drop": "F", "data-suit": suit, "data-key": `found-${suit}-${index}` });
      if (height > 0) {
        const text = "A23456789TJQK"[height - 1] + suit;
        const el = cardElement(text, "", state.ui.compact);
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
        slot.append(el);
        slot.setAttribute("aria-label", t("{suit} foundation, up to {card}",
          { suit: suitName(suit), card: cardName(text) }));
      } else {
        slot.append(h("div", { class: `slot suit-${suit}`, html:
          `<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#suit-${suit}"/></svg>` }));
        slot.setAttribute("aria-label", t("{suit} foundation, empty", { suit: suitName(suit) }));
      }
      els.foundations.append(slot);
    });
  }
}

function renderTableau(els, state) {
  const { game, ui } = state;
  const moved = new Set((game.moved || []).map(([c, i]) => `${c}:${i}`));
  const bad = new Set(ui.badCards.map(([c, i]) => `${c}:${i}`));
  const hinted = ui.hint ? parseMove(ui.hint.move) : null;
  clear(els.tableau);
  els.tableau.style.setProperty("--columns", String(game.columns.length));
  game.columns.forEach((cards, c0) => {
    const col = c0 + 1;
    const isReprieve = game.reprieve === col && game.status === "playing";
    const column = h("div", {
      class: "column" + (isReprieve ? " reprieve-column" : ""),
      tabindex: "0", role: "group", "data-col": String(col), "data-key": `col-${col}`,
      "data-drop": String(col),
    });
    let label = cards.length
      ? nt("Column {col}: {n} card, top {card}", "Column {col}: {n} cards, top {card}",
        cards.length, { col, card: cardName(cards[cards.length - 1]) })
      : t("Column {col}: empty", { col });
    if (isReprieve) label += ". " + t("Reprieve column");
    column.setAttribute("aria-label", label);
    if (!cards.length) {
      column.append(h("div", { class: "slot empty-column", "aria-hidden": "true" },
        isReprieve ? h("span", { class: "reprieve-mark", html: HOURGLASS }) : null,
        isReprieve && !ui.compact ? h("span", {}, t("Reprieve")) : null));
    }
    cards.forEach((text, index) => {
      const el = cardElement(text, t("{card}, column {col}", { card: cardName(text), col }),
        ui.compact);
      el.dataset.col = String(col);
      el.dataset.idx = String(index);
      const notes = [];
      if (moved.has(`${col}:${index}`)) {
        el.classList.add("moved");
        notes.push(t("moved during the reprieve"));
      }
      if (bad.has(`${col}:${index}`)) {
        el.classList.add("out-of-place");
        notes.push(t("out of place"));
      }
      if (notes.length) {
        el.setAttribute("aria-label", `${el.getAttribute("aria-label")} (${notes.join(", ")})`);
      }
      if (ui.selected && ui.selected.col === col
        && index >= cards.length - ui.selected.count) el.classList.add("selected");
      if (hinted && hinted.source === col && index >= cards.length - hinted.count) {
        el.classList.add("hinted");
      }
      column.append(el);
    });
    if (hinted && hinted.kind === "C" && hinted.target === col) column.classList.add("hint-target");
    els.tableau.append(column);
  });
  markKeyboardDepth(els, state);
}

/** Mark the cards the keyboard would pick up from the focused column. */
export function markKeyboardDepth(els, state) {
  for (const el of els.tableau.querySelectorAll(".card.pickup")) el.classList.remove("pickup");
  const { ui } = state;
  if (ui.selected || !els.tableau.querySelector(".column:focus")) return;
  const cards = state.game.columns[ui.focusCol - 1] || [];
  const column = columnEl(els, ui.focusCol);
  if (!column) return;
  const cardEls = column.querySelectorAll(".card");
  for (let i = Math.max(0, cards.length - ui.depth); i < cards.length; i++) {
    cardEls[i].classList.add("pickup");
  }
}

export function columnEl(els, col) {
  return els.tableau.querySelector(`.column[data-col="${col}"]`);
}
