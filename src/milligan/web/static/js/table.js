// The game table: rendering, pointer and keyboard play, reprieve, hints, solution playback.

import { api } from "./api.js";
import { cardElement, cardName, parseCard, isRed, suitName, SUITS } from "./cards.js";
import { h, clear, announce, toast, duration, motionAllowed } from "./dom.js";
import { t, nt } from "./i18n.js";
import { settings } from "./settings.js";
import { openNewGameDialog, confirmDialog, shareDialog } from "./dialogs.js";
import { VARIANTS, variantTitle } from "./variants.js";
import { errorText } from "./reasons.js";

const DRAG_START = 6;        // pixels before a press becomes a drag
const DOUBLE_TAP = 380;      // milliseconds between the taps of a double tap
const PLAYBACK_STEP = 700;   // milliseconds between solution moves
const MIN_STEP = 0.215;      // least overlap step (of a card's height) that shows the index
const MIN_STEP_COMPACT = 0.31;
const HOURGLASS = '<svg viewBox="0 0 24 24" width="1em" height="1em" focusable="false">'
  + '<path d="M6 2h12v2.5c0 3-2.2 5-4.5 7.5 2.3 2.5 4.5 4.5 4.5 7.5V22H6v-2.5c0-3 2.2-5 '
  + '4.5-7.5C8.2 9.5 6 7.5 6 4.5z" fill="none" stroke="currentColor" stroke-width="2" '
  + 'stroke-linejoin="round"/><path d="M9 19.5c0-1.5 1.5-2.8 3-3.8 1.5 1 3 2.3 3 3.8z" '
  + 'fill="currentColor"/></svg>';

/** The name shown for a variant (a preset name or a settings object). */
export function variantKey(variant) {
  return typeof variant === "string" ? variant : "custom";
}

/** Parse a move text ("3:2>5", "3>F", "D", "S") into its parts. */
export function parseMove(text) {
  if (text === "D" || text === "S") return { kind: text };
  const match = /^(\d+)(?::(\d+))?>(F|\d+)$/.exec(text);
  if (!match) return null;
  const source = Number(match[1]);
  const count = match[2] ? Number(match[2]) : 1;
  if (match[3] === "F") return { kind: "F", source, count: 1 };
  return { kind: "C", source, count, target: Number(match[3]) };
}

/** The move text for count cards from column source onto target (a column or "F"). */
export function moveText(source, count, target) {
  if (target === "F") return `${source}>F`;
  return count === 1 ? `${source}>${target}` : `${source}:${count}>${target}`;
}

/** Length of the run at the top of a column (face-up, descending, alternating colours). */
export function runLength(cards) {
  let n = 0;
  for (let i = cards.length - 1; i >= 0; i--) {
    const card = parseCard(cards[i]);
    if (!card) break;
    if (n > 0) {
      const above = parseCard(cards[i + 1]);
      if (card.rank !== above.rank + 1 || isRed(card.suit) === isRed(above.suit)) break;
    }
    n++;
  }
  return n;
}

/** Describe a move in words, from the position before it. */
export function describeMove(text, game) {
  const move = parseMove(text);
  if (!move) return text;
  if (move.kind === "D") return t("Deal a row");
  if (move.kind === "S") return t("End the reprieve");
  const cards = game.columns[move.source - 1] || [];
  const base = cards[cards.length - move.count];
  const name = base ? cardName(base) : "?";
  if (move.kind === "F") {
    return t("{card} from column {source} to a foundation", { card: name, source: move.source });
  }
  if (move.count > 1) {
    return t("{card} and the cards above it from column {source} to column {target}",
      { card: name, source: move.source, target: move.target });
  }
  return t("{card} from column {source} to column {target}",
    { card: name, source: move.source, target: move.target });
}

function rowsLeft(game) {
  const columns = game.columns.length;
  return Math.ceil(game.stock / columns);
}

/** Show the game with this id in main; returns a function that tears the view down. */
export function showGame(main, id, app) {
  const view = new GameView(main, id, app);
  view.start();
  return () => view.destroy();
}

class GameView {
  constructor(main, id, app) {
    this.main = main;
    this.id = id;
    this.app = app;
    this.game = null;
    this.selected = null;       // {col, count} chosen by tap or keyboard
    this.focusCol = 1;
    this.depth = 1;             // keyboard: how many cards the next pick-up takes
    this.hint = null;           // {move, win_chance}
    this.badCards = [];         // [[col, idx]] out of place after a refused close
    this.busy = false;
    this.drag = null;
    this.lastTap = { col: 0, time: 0 };
    this.playback = null;       // {moves, index, timer}
    this.clock = 0;
    this.shownEnd = null;
    this.onKey = (event) => this.keydown(event);
    this.onResize = () => this.layout();
  }

  async start() {
    this.buildFrame();
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
    try {
      const game = await api.game(this.id);
      if (this.destroyed) return;
      this.setGame(game);
      this.autoMove();
    } catch (error) {
      if (this.destroyed) return;
      clear(this.main).append(h("section", { class: "page" },
        h("h1", {}, t("Game not found")),
        h("p", {}, errorText(error)),
        h("p", {}, h("a", { href: "/", "data-link": true }, t("Back to the start page")))));
      return;
    }
    try {
      window.localStorage.setItem("milligan.lastGame", this.id);
    } catch {
      // Not fatal: the resume list comes from the server anyway.
    }
    this.clock = window.setInterval(() => this.tick(), 1000);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    window.clearInterval(this.clock);
    this.stopPlayback();
    this.destroyed = true;
  }

  // -- frame ---------------------------------------------------------------

  buildFrame() {
    const button = (key, label, action, extra = {}) => h("button",
      { class: "tool", type: "button", "data-action": key, onclick: action, ...extra }, label);
    this.titleEl = h("h1", { class: "game-title" });
    this.infoEl = h("p", { class: "game-info", "aria-live": "off" });
    this.toolbar = h("div", { class: "toolbar", role: "toolbar", "aria-label": t("Game controls") },
      button("new", t("New game"), () => openNewGameDialog(this.app, this.game)),
      button("restart", t("Restart"), () => this.restart()),
      button("undo", t("Undo"), () => this.action("undo"), { title: t("Undo (Ctrl+Z or U)") }),
      button("redo", t("Redo"), () => this.action("redo"), { title: t("Redo (Ctrl+Y)") }),
      button("hint", t("Hint"), () => this.showHint(), { title: t("Hint (H)") }),
      button("solve", t("Solve (full knowledge)"), () => this.solve()),
      button("share", t("Share"), () => this.share()),
      button("resign", t("Resign"), () => this.resign()));
    this.reprieveText = h("p", { class: "reprieve-text" });
    this.endButton = h("button", { class: "end-reprieve", type: "button", "data-action": "stop",
      onclick: () => this.play("S") }, t("End reprieve"));
    this.banner = h("div", { class: "reprieve-banner", hidden: true, role: "region",
      "aria-label": t("Reprieve") }, h("span", { class: "reprieve-icon", "aria-hidden": "true",
      html: HOURGLASS }),
    this.reprieveText, this.endButton);
    this.messageEl = h("div", { class: "message", hidden: true });
    this.stockEl = h("div", { class: "stock pile", tabindex: "0", role: "button",
      "data-drop": "stock", onclick: () => this.deal() });
    this.foundationsEl = h("div", { class: "foundations", role: "group",
      "aria-label": t("Foundations") });
    this.tableauEl = h("div", { class: "tableau" });
    this.tableEl = h("div", { class: "table" },
      h("div", { class: "top-row" }, this.stockEl, this.foundationsEl), this.tableauEl);
    this.playbackEl = h("div", { class: "playback", hidden: true });
    clear(this.main).append(h("section", { class: "game-view" },
      h("div", { class: "game-head" }, this.titleEl, this.infoEl), this.toolbar, this.banner,
      this.messageEl, this.playbackEl, this.tableEl));
    this.tableEl.addEventListener("pointerdown", (event) => this.pointerDown(event));
    this.tableauEl.addEventListener("click", (event) => {
      if (event.target.closest(".card")) return;
      const column = event.target.closest(".column");
      if (column) this.tapColumn(Number(column.dataset.col));
    });
    this.tableEl.addEventListener("focusin", (event) => {
      const column = event.target.closest(".column");
      if (column && this.game) {
        this.focusCol = Number(column.dataset.col);
        this.markKeyboardDepth();
      }
    });
    this.tableEl.addEventListener("focusout", () => {
      window.setTimeout(() => { if (this.game) this.markKeyboardDepth(); }, 0);
    });
  }

  // -- state -----------------------------------------------------------------

  setGame(game, change = null) {
    const before = change ? this.snapshot(change.move) : null;
    const previous = this.game;
    this.game = game;
    this.seconds = game.seconds || 0;
    this.selected = null;
    this.hint = null;
    if (!change || change.move !== "S") this.badCards = [];
    if (this.focusCol > game.columns.length) this.focusCol = 1;
    this.render();
    if (before) this.animate(change.move, before);
    if (previous && previous.reprieve === null && game.reprieve !== null) {
      announce(t("Reprieve open: column {n} is empty.", { n: game.reprieve }) + " "
        + this.reprieveHelp(game));
    }
    if (previous && previous.reprieve !== null && game.reprieve === null
      && game.status === "playing") {
      announce(t("The reprieve is over."));
    }
    this.showEnd();
  }

  async refetch() {
    const game = await api.game(this.id);
    if (!this.destroyed) this.setGame(game);
  }

  tick() {
    if (!this.game || this.game.status !== "playing" || document.hidden) return;
    this.seconds += 1;
    this.renderInfo();
  }

  // -- rendering -------------------------------------------------------------

  render() {
    const game = this.game;
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.key : null;
    const title = typeof game.variant === "string" && VARIANTS.includes(game.variant)
      ? variantTitle(game.variant) : game.title || "Miss Milligan";
    document.title = `${title} – Miss Milligan`;
    this.titleEl.textContent = title;
    this.renderInfo();
    this.renderToolbar();
    this.renderBanner();
    this.renderStock();
    this.renderFoundations();
    this.renderTableau();
    this.layout();
    if (focused) {
      const again = this.main.querySelector(`[data-key="${focused}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  renderInfo() {
    const game = this.game;
    const parts = [];
    if (game.deal !== null && game.deal !== undefined) {
      parts.push(t("Deal {n}", { n: game.deal }));
    }
    parts.push(nt("{n} move", "{n} moves", game.moves));
    parts.push(duration(this.seconds));
    if (game.assisted) parts.push(t("assisted"));
    this.infoEl.textContent = parts.join(" · ");
  }

  renderToolbar() {
    const game = this.game;
    const playing = game.status === "playing";
    const set = (key, enabled) => {
      const el = this.toolbar.querySelector(`[data-action="${key}"]`);
      el.disabled = !enabled;
    };
    set("undo", game.can_undo);
    set("redo", game.can_redo);
    set("hint", playing);
    set("solve", playing);
    set("resign", playing);
    set("restart", game.moves > 0 || game.can_redo);
    set("share", game.deal !== null && game.deal !== undefined);
  }

  reprieveHelp(game) {
    if (game.variant === "strict") {
      return t("Strict rule: you may move only face-up cards, and never split a run.");
    }
    return t("Move any card, with the cards above it, onto any other column.");
  }

  renderBanner() {
    const game = this.game;
    if (game.reprieve === null || game.reprieve === undefined || game.status !== "playing") {
      this.banner.hidden = true;
      return;
    }
    this.banner.hidden = false;
    let text = t("Reprieve: column {n} is empty.", { n: game.reprieve }) + " "
      + this.reprieveHelp(game) + " "
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
    this.reprieveText.textContent = text;
    this.banner.classList.toggle("hopeless", !!game.hopeless);
    this.endButton.classList.toggle("ready", (game.legal || []).includes("S"));
    this.endButton.classList.toggle("hinted", !!this.hint && this.hint.move === "S");
  }

  renderStock() {
    const game = this.game;
    const rows = rowsLeft(game);
    clear(this.stockEl);
    this.stockEl.dataset.key = "stock";
    if (game.stock > 0) {
      const back = cardElement("??", "");
      back.removeAttribute("role");
      back.removeAttribute("aria-label");
      this.stockEl.append(back);
    } else {
      this.stockEl.append(h("div", { class: "slot empty-stock" }));
    }
    this.stockEl.append(h("span", { class: "badge", "aria-hidden": "true" },
      nt("{n} row", "{n} rows", rows)));
    this.stockEl.setAttribute("aria-label", game.stock > 0
      ? nt("Stock: {n} row left. Deal a row (D).", "Stock: {n} rows left. Deal a row (D).", rows)
      : t("Stock: empty."));
    this.stockEl.classList.toggle("hinted", this.hint && this.hint.move === "D");
  }

  renderFoundations() {
    const game = this.game;
    clear(this.foundationsEl);
    this.foundationsEl.classList.remove("hint-target");
    const decks = (game.foundations.C || [0]).length;
    this.foundationsEl.style.setProperty("--piles", String(4 * decks));
    for (const suit of SUITS) {
      // Tallest pile first, so that the cards sit to the left of the empty places.
      const heights = [...(game.foundations[suit] || [])].reverse();
      heights.forEach((height, index) => {
        const slot = h("div", { class: "foundation pile", tabindex: "0", role: "button",
          "data-drop": "F", "data-suit": suit, "data-key": `found-${suit}-${index}` });
        if (height > 0) {
          const text = "A23456789TJQK"[height - 1] + suit;
          const el = cardElement(text, "", this.compact);
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
        slot.addEventListener("click", () => this.tapFoundation());
        this.foundationsEl.append(slot);
      });
    }
  }

  renderTableau() {
    const game = this.game;
    const moved = new Set((game.moved || []).map(([c, i]) => `${c}:${i}`));
    const bad = new Set(this.badCards.map(([c, i]) => `${c}:${i}`));
    const hinted = this.hint ? parseMove(this.hint.move) : null;
    clear(this.tableauEl);
    this.tableauEl.style.setProperty("--columns", String(game.columns.length));
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
          isReprieve && !this.compact ? h("span", {}, t("Reprieve")) : null));
      }
      cards.forEach((text, index) => {
        const el = cardElement(text, t("{card}, column {col}", { card: cardName(text), col }),
          this.compact);
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
        if (this.selected && this.selected.col === col
          && index >= cards.length - this.selected.count) el.classList.add("selected");
        if (hinted && hinted.source === col && index >= cards.length - hinted.count) {
          el.classList.add("hinted");
        }
        column.append(el);
      });
      if (hinted && hinted.kind === "C" && hinted.target === col) column.classList.add("hint-target");
      this.tableauEl.append(column);
    });
    this.markKeyboardDepth();
  }

  markKeyboardDepth() {
    for (const el of this.tableauEl.querySelectorAll(".card.pickup")) el.classList.remove("pickup");
    if (this.selected || !this.tableauEl.querySelector(".column:focus")) return;
    const cards = this.game.columns[this.focusCol - 1] || [];
    const column = this.columnEl(this.focusCol);
    const els = column.querySelectorAll(".card");
    for (let i = Math.max(0, cards.length - this.depth); i < cards.length; i++) {
      els[i].classList.add("pickup");
    }
  }

  columnEl(col) {
    return this.tableauEl.querySelector(`.column[data-col="${col}"]`);
  }

  /** Size cards to the window and squeeze long columns so that they fit. */
  layout() {
    if (!this.game || !this.tableEl.isConnected) return;
    const columns = this.game.columns.length;
    const width = this.tableEl.clientWidth;
    const gap = Math.max(4, Math.min(14, width / 90));
    const topSlots = 1 + 4 * (this.game.foundations.C || [0]).length;
    const byColumns = (width - gap * (columns - 1)) / columns;
    const byTop = (width - gap * topSlots) / topSlots;
    const base = Math.min(columns <= 4 ? 130 : 118, byColumns);
    // Long columns: shrink the cards (down to 45%) before squeezing the overlap below what
    // keeps each card's index readable; past that the page scrolls rather than hide ranks.
    const tableauTop = this.tableauEl.getBoundingClientRect().top;
    const topRow = this.tableEl.querySelector(".top-row").getBoundingClientRect().height;
    const room = window.innerHeight - (tableauTop - topRow) - 24;
    const heights = (compact) => Math.max(...this.game.columns.map((cards) => {
      const down = cards.filter((c) => c === "??").length;
      const up = cards.length - down;
      return 1 + 0.08 * down + (compact ? MIN_STEP_COMPACT : MIN_STEP) * Math.max(0, up - 1);
    })) + 0.15 + 1.1;  // the top row scales with the cards too
    let cardWidth = Math.floor(base);
    const smallest = Math.max(28, base * 0.45);
    while (cardWidth > smallest && cardWidth * 1.4 * heights(cardWidth < 64) > room) {
      cardWidth -= 2;
    }
    cardWidth = Math.max(28, Math.floor(cardWidth));
    const cardHeight = Math.round(cardWidth * 1.4);
    const topWidth = Math.max(26, Math.floor(Math.min(cardWidth, byTop)));
    const compact = cardWidth < 64;
    if (compact !== this.compact) {
      this.compact = compact;
      this.renderStock();
      this.renderFoundations();
      this.renderTableau();
    }
    this.tableEl.style.setProperty("--card-w", `${cardWidth}px`);
    this.tableEl.style.setProperty("--card-h", `${cardHeight}px`);
    this.tableEl.style.setProperty("--top-w", `${topWidth}px`);
    this.tableEl.style.setProperty("--top-h", `${Math.round(topWidth * 1.4)}px`);
    this.tableEl.style.setProperty("--gap", `${gap}px`);
    const inner = width - 2 * (parseFloat(window.getComputedStyle(this.tableEl).paddingLeft) || 0);
    const columnGap = Math.max(gap, Math.min(cardWidth * 0.3, (inner - columns * cardWidth)
      / Math.max(1, columns - 1)));
    const tableauWidth = columns * cardWidth + (columns - 1) * columnGap;
    const topRowWidth = Math.max(tableauWidth, topSlots * topWidth + (topSlots - 1) * gap);
    this.tableEl.style.setProperty("--column-gap", `${columnGap}px`);
    this.tableEl.style.setProperty("--row-w", `${Math.min(inner, Math.ceil(topRowWidth))}px`);
    const top = this.tableauEl.getBoundingClientRect().top + window.scrollY;
    const padding = parseFloat(window.getComputedStyle(this.tableEl).paddingBottom) || 0;
    const available = Math.max(cardHeight * 1.6, window.innerHeight - top - padding - 8);
    let tallest = cardHeight;
    for (const column of this.tableauEl.querySelectorAll(".column")) {
      const els = [...column.querySelectorAll(".card")];
      const open = compact ? 0.34 : 0.27;
      const steps = els.slice(1).map((el, i) =>
        (els[i].classList.contains("back") ? 0.12 : open) * cardHeight);
      const total = steps.reduce((a, b) => a + b, 0);
      const least = (compact ? MIN_STEP_COMPACT : MIN_STEP) / open;
      const scale = total > 0 ? Math.max(least, Math.min(1, (available - cardHeight) / total)) : 1;
      let y = 0;
      els.forEach((el, i) => {
        if (i > 0) y += steps[i - 1] * scale;
        el.style.top = `${Math.round(y)}px`;
      });
      tallest = Math.max(tallest, y + cardHeight);
    }
    this.tableauEl.style.height = `${Math.ceil(Math.max(tallest, available))}px`;
  }

  // -- animation ---------------------------------------------------------------

  snapshot(move) {
    if (!motionAllowed(settings)) return null;
    const parsed = parseMove(move);
    if (!parsed || parsed.kind === "S") return null;
    if (parsed.kind === "D") return { stock: this.stockEl.getBoundingClientRect() };
    const els = [...this.columnEl(parsed.source).querySelectorAll(".card")]
      .slice(-parsed.count);
    return { rects: els.map((el) => el.getBoundingClientRect()),
      cards: els.map((el) => el.dataset.card) };
  }

  animate(move, before) {
    const parsed = parseMove(move);
    const fly = (el, from, delay = 0) => {
      const to = el.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
      el.style.zIndex = "30";  // above the piles it passes over
      const animation = el.animate(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
        { duration: 200, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
      animation.onfinish = () => { el.style.zIndex = ""; };
    };
    if (parsed.kind === "D") {
      this.game.columns.forEach((cards, i) => {
        const els = this.columnEl(i + 1).querySelectorAll(".card");
        if (els.length) fly(els[els.length - 1], before.stock, i * 30);
      });
      return;
    }
    if (parsed.kind === "F") {
      const el = this.foundationsEl.querySelector(`.card[data-card="${before.cards[0]}"]`);
      if (el && before.rects[0]) fly(el, before.rects[0]);
      return;
    }
    const targets = [...this.columnEl(parsed.target).querySelectorAll(".card")]
      .slice(-parsed.count);
    targets.forEach((el, i) => { if (before.rects[i]) fly(el, before.rects[i]); });
  }

  // -- actions -----------------------------------------------------------------

  async play(move, { quiet = false } = {}) {
    if (this.busy || !this.game) return false;
    if (this.game.status !== "playing") return false;
    this.busy = true;
    const previous = this.game;
    const words = describeMove(move, previous);
    try {
      const game = await api.move(this.id, move, previous.revision);
      this.setGame(game, { move });
      if (!quiet) announce(words);
      this.hideMessage();
      return true;
    } catch (error) {
      this.failed(error);
      return false;
    } finally {
      this.busy = false;
      if (!this.playback) this.autoMove();
    }
  }

  failed(error) {
    if (error.code === "stale") {
      this.refetch();
      toast(t("The game changed in another window; it has been reloaded."));
      return;
    }
    if (error.cards && error.cards.length) {
      this.badCards = error.cards;
      this.renderTableau();
      this.layout();
    }
    this.render();
    toast(errorText(error), "error", 6000);
  }

  async autoMove() {
    if (!settings.autoMove || this.busy || !this.game || this.game.status !== "playing") return;
    if (this.game.reprieve !== null && this.game.reprieve !== undefined) return;
    const safe = this.game.safe || [];
    if (!safe.length) return;
    window.setTimeout(() => this.play(safe[0], { quiet: false }),
      motionAllowed(settings) ? 160 : 0);
  }

  async action(name) {
    if (this.busy || !this.game) return;
    if (name === "undo" && !this.game.can_undo) return;
    if (name === "redo" && !this.game.can_redo) return;
    this.busy = true;
    try {
      this.setGame(await api.action(this.id, name, this.game.revision));
      const said = { undo: t("Move undone."), redo: t("Move redone."),
        restart: t("The deal starts again."), resign: t("You resigned this game.") }[name];
      announce(said);
      this.hideMessage();
    } catch (error) {
      this.failed(error);
    } finally {
      this.busy = false;
    }
  }

  async restart() {
    if (await confirmDialog(t("Start this deal again from the beginning?"), t("Restart"))) {
      this.action("restart");
    }
  }

  async resign() {
    if (await confirmDialog(t("Give up this game? It counts as lost."), t("Resign"))) {
      this.action("resign");
    }
  }

  deal() {
    if (!this.game || this.game.stock === 0) {
      toast(t("The stock is empty."), "error");
      return;
    }
    this.play("D");
  }

  share() {
    const game = this.game;
    if (game.deal === null || game.deal === undefined) return;
    const url = `${window.location.origin}/play/${variantKey(game.variant)}/${game.deal}`;
    shareDialog(url);
  }

  async showHint() {
    if (!this.game || this.game.status !== "playing") return;
    this.showMessage(t("Looking for a good move…"));
    try {
      const hint = await api.hint(this.id);
      if (!hint.move) {
        this.showMessage(t("No move found: consider undoing or dealing."));
        return;
      }
      const words = describeMove(hint.move, this.game);
      await this.refetch();
      this.hint = hint;
      this.renderStock();
      this.renderTableau();
      this.foundationsEl.classList.toggle("hint-target", parseMove(hint.move)?.kind === "F");
      this.layout();
      this.endButton.classList.toggle("hinted", hint.move === "S");
      const chance = typeof hint.win_chance === "number"
        ? t("estimated chance of winning: {p}% over {n} sampled deals",
          { p: Math.round(hint.win_chance * 100), n: hint.samples }) : "";
      let text = t("Hint: {move}", { move: words }) + (chance ? ` (${chance})` : "");
      const next = (hint.plan || []).slice(1);
      if (next.length) text += ". " + t("Then: {moves}", { moves: next.join(", ") });
      if (hint.repeats) text += ". " + t("Every legal move leads back to a position already reached.");
      this.showMessage(text, "hint");
      announce(text);
    } catch (error) {
      this.showMessage(errorText(error), "error");
    }
  }

  async solve() {
    if (!this.game || this.game.status !== "playing") return;
    this.showMessage(t("Solving with full knowledge of the hidden cards…"));
    let solution;
    try {
      solution = await api.solution(this.id);
    } catch (error) {
      this.showMessage(errorText(error), "error");
      return;
    }
    if (!solution.moves || !solution.moves.length || solution.result !== "won") {
      this.showMessage(solution.result === "lost"
        ? t("The solver found no way to win from here.")
        : t("The solver found no win within its limits."), "error");
      return;
    }
    this.hideMessage();
    this.startPlayback(solution.moves);
  }

  startPlayback(moves) {
    this.stopPlayback();
    this.playback = { moves, index: 0, timer: 0 };
    const label = h("span", { class: "playback-label" });
    const playButton = h("button", { type: "button", "data-action": "play",
      onclick: () => this.togglePlayback() }, t("Play"));
    const stepButton = h("button", { type: "button", "data-action": "step",
      onclick: () => this.stepPlayback() }, t("Step"));
    const closeButton = h("button", { type: "button", "data-action": "close",
      onclick: () => this.stopPlayback() }, t("Close"));
    clear(this.playbackEl).append(
      h("strong", {}, t("Solution (uses full knowledge: the game counts as assisted)")),
      label, playButton, stepButton, closeButton);
    this.playbackEl.hidden = false;
    this.playback.label = label;
    this.playback.playButton = playButton;
    this.updatePlayback();
  }

  updatePlayback() {
    const p = this.playback;
    if (!p) return;
    p.label.textContent = t("Move {i} of {n}", { i: p.index, n: p.moves.length });
    p.playButton.textContent = p.timer ? t("Pause") : t("Play");
  }

  async stepPlayback() {
    const p = this.playback;
    if (!p || this.busy) return;
    if (p.index >= p.moves.length) {
      this.pausePlayback();
      return;
    }
    const ok = await this.play(p.moves[p.index]);
    if (!this.playback) return;
    if (ok) p.index += 1;
    else this.pausePlayback();
    if (p.index >= p.moves.length) this.pausePlayback();
    this.updatePlayback();
  }

  togglePlayback() {
    const p = this.playback;
    if (!p) return;
    if (p.timer) {
      this.pausePlayback();
    } else {
      p.timer = window.setInterval(() => this.stepPlayback(), PLAYBACK_STEP);
      this.updatePlayback();
    }
  }

  pausePlayback() {
    const p = this.playback;
    if (!p) return;
    window.clearInterval(p.timer);
    p.timer = 0;
    this.updatePlayback();
  }

  stopPlayback() {
    if (!this.playback) return;
    window.clearInterval(this.playback.timer);
    this.playback = null;
    this.playbackEl.hidden = true;
  }

  showMessage(text, kind = "info") {
    this.messageEl.hidden = false;
    this.messageEl.className = `message ${kind}`;
    clear(this.messageEl).append(h("span", {}, text));
  }

  hideMessage() {
    this.messageEl.hidden = true;
  }

  showEnd() {
    const game = this.game;
    if (game.status === "playing") {
      this.shownEnd = null;
      const overlay = this.main.querySelector(".end-overlay");
      if (overlay) overlay.remove();
      return;
    }
    if (this.shownEnd === game.revision) return;
    this.shownEnd = game.revision;
    this.stopPlayback();
    const old = this.main.querySelector(".end-overlay");
    if (old) old.remove();
    let title;
    let body;
    const buttons = [];
    if (game.status === "won") {
      title = t("You won!");
      body = t("All cards are on the foundations in {moves} moves and {time}.",
        { moves: game.moves, time: duration(this.seconds) });
      buttons.push(h("button", { type: "button", class: "primary",
        onclick: () => openNewGameDialog(this.app, game) }, t("New game")));
      buttons.push(h("a", { class: "button", href: "/stats", "data-link": true },
        t("Statistics")));
    } else if (game.status === "lost") {
      title = t("Dead end");
      body = t("The stock is empty and no move can help any more.");
      buttons.push(h("button", { type: "button", class: "primary",
        onclick: () => this.action("undo") }, t("Undo")));
      buttons.push(h("button", { type: "button",
        onclick: () => openNewGameDialog(this.app, game) }, t("New game")));
    } else {
      title = t("Game resigned");
      body = t("This game is over.");
      buttons.push(h("button", { type: "button", class: "primary",
        onclick: () => openNewGameDialog(this.app, game) }, t("New game")));
    }
    const overlay = h("div", { class: `end-overlay ${game.status}`, role: "dialog",
      "aria-modal": "false", "aria-labelledby": "end-title" },
    h("div", { class: "end-box" }, h("h2", { id: "end-title" }, title), h("p", {}, body),
      h("div", { class: "buttons" }, buttons)));
    this.tableEl.append(overlay);
    announce(`${title} ${body}`);
    const first = overlay.querySelector("button, a");
    if (first) first.focus();
  }

  // -- pointer play ----------------------------------------------------------------

  pointerDown(event) {
    if (event.button !== 0 || this.busy || !this.game) return;
    const cardEl = event.target.closest(".tableau .card");
    if (!cardEl) return;
    const col = Number(cardEl.dataset.col);
    const index = Number(cardEl.dataset.idx);
    const cards = this.game.columns[col - 1];
    const count = cards.length - index;
    const start = { x: event.clientX, y: event.clientY };
    const pointer = event.pointerId;
    const target = event.currentTarget;
    let dragging = false;
    const move = (e) => {
      if (e.pointerId !== pointer) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      if (!dragging && Math.hypot(dx, dy) > DRAG_START) {
        dragging = true;
        this.beginDrag(col, count, start);
      }
      if (dragging) {
        e.preventDefault();
        this.drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
        this.highlightDrop(e.clientX, e.clientY);
      }
    };
    const up = (e) => {
      if (e.pointerId !== pointer) return;
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
      target.removeEventListener("pointercancel", up);
      if (dragging) {
        this.endDrag(e.type === "pointercancel" ? null : this.dropTarget(e.clientX, e.clientY));
      } else if (e.type === "pointerup") {
        this.tapCard(col, index);
      }
    };
    target.setPointerCapture(pointer);
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
    target.addEventListener("pointercancel", up);
  }

  beginDrag(col, count, start) {
    const els = [...this.columnEl(col).querySelectorAll(".card")].slice(-count);
    const first = els[0].getBoundingClientRect();
    const ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" });
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    for (const el of els) {
      const rect = el.getBoundingClientRect();
      const copy = el.cloneNode(true);
      copy.classList.remove("selected", "pickup", "hinted");
      copy.style.top = `${rect.top - first.top}px`;
      copy.style.left = "0px";
      ghost.append(copy);
      el.classList.add("lifted");
    }
    ghost.style.setProperty("--card-w", `${first.width}px`);
    ghost.style.setProperty("--card-h", `${first.height}px`);
    document.body.append(ghost);
    this.selected = null;
    this.drag = { col, count, els, ghost, start, origin: first };
  }

  dropTarget(x, y) {
    const ghost = this.drag.ghost;
    ghost.style.display = "none";
    const under = document.elementFromPoint(x, y);
    ghost.style.display = "";
    const pile = under ? under.closest("[data-drop]") : null;
    if (pile) return pile.dataset.drop;
    // Forgiving drop: the column whose span holds the pointer, below the top row.
    const tableau = this.tableauEl.getBoundingClientRect();
    if (y >= tableau.top - 10) {
      for (const column of this.tableauEl.querySelectorAll(".column")) {
        const r = column.getBoundingClientRect();
        if (x >= r.left - 6 && x <= r.right + 6) return column.dataset.col;
      }
    }
    return null;
  }

  highlightDrop(x, y) {
    const target = this.dropTarget(x, y);
    for (const el of this.tableEl.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
    if (!target || target === "stock") return;
    const el = target === "F" ? this.foundationsEl : this.columnEl(Number(target));
    if (el) el.classList.add("drop-over");
  }

  async endDrag(target) {
    const drag = this.drag;
    this.drag = null;
    for (const el of this.tableEl.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
    const snapBack = () => {
      if (motionAllowed(settings)) {
        const animation = drag.ghost.animate(
          [{ transform: drag.ghost.style.transform }, { transform: "none" }],
          { duration: 180, easing: "ease-out" });
        animation.onfinish = () => {
          drag.ghost.remove();
          for (const el of drag.els) el.classList.remove("lifted");
        };
      } else {
        drag.ghost.remove();
        for (const el of drag.els) el.classList.remove("lifted");
      }
    };
    let move = null;
    if (target === "F") {
      if (drag.count === 1) move = moveText(drag.col, 1, "F");
      else {
        snapBack();
        toast(t("Only one card at a time goes to a foundation."), "error");
        return;
      }
    } else if (target && target !== "stock" && Number(target) !== drag.col) {
      move = moveText(drag.col, drag.count, Number(target));
    }
    if (!move) {
      snapBack();
      return;
    }
    const ok = await this.play(move, {});
    if (ok) {
      drag.ghost.remove();
    } else {
      // play() re-rendered the table; the ghost returns to where the cards are.
      snapBack();
    }
  }

  // -- tap play -------------------------------------------------------------------

  tapCard(col, index) {
    const cards = this.game.columns[col - 1];
    const now = Date.now();
    const top = index === cards.length - 1;
    if (top && this.lastTap.col === col && now - this.lastTap.time < DOUBLE_TAP) {
      this.lastTap = { col: 0, time: 0 };
      this.selected = null;
      this.play(moveText(col, 1, "F"));
      return;
    }
    this.lastTap = { col: top ? col : 0, time: now };
    if (this.selected) {
      if (this.selected.col === col) {
        this.select(null);
      } else {
        const { col: source, count } = this.selected;
        this.select(null);
        this.play(moveText(source, count, col));
      }
      return;
    }
    this.select({ col, count: cards.length - index });
  }

  tapColumn(col) {
    if (!this.selected || this.selected.col === col) return;
    const { col: source, count } = this.selected;
    this.select(null);
    this.play(moveText(source, count, col));
  }

  tapFoundation() {
    if (!this.selected) return;
    const { col, count } = this.selected;
    this.select(null);
    if (count !== 1) {
      toast(t("Only one card at a time goes to a foundation."), "error");
      return;
    }
    this.play(moveText(col, 1, "F"));
  }

  select(selection) {
    this.selected = selection;
    this.renderTableau();
    this.layout();
    if (selection) {
      const cards = this.game.columns[selection.col - 1];
      const base = cards[cards.length - selection.count];
      announce(selection.count > 1
        ? nt("Picked up {card} with {n} card above it from column {col}. Choose a target.",
          "Picked up {card} with {n} cards above it from column {col}. Choose a target.",
          selection.count - 1, { card: cardName(base), col: selection.col })
        : t("Picked up {card} from column {col}. Choose a target.",
          { card: cardName(base), col: selection.col }));
    }
  }

  // -- keyboard play ------------------------------------------------------------------

  keydown(event) {
    if (!this.game || event.defaultPrevented) return;
    if (document.querySelector("dialog[open]")) return;
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const key = event.key;
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && (key === "z" || key === "Z")) {
      event.preventDefault();
      this.action(event.shiftKey ? "redo" : "undo");
      return;
    }
    if (ctrl && (key === "y" || key === "Y")) {
      event.preventDefault();
      this.action("redo");
      return;
    }
    if (ctrl || event.altKey) return;
    const inTable = !!event.target.closest && !!event.target.closest(".table");
    const lower = key.length === 1 ? key.toLowerCase() : key;
    switch (lower) {
      case "u": this.action("undo"); break;
      case "h": this.showHint(); break;
      case "d": this.deal(); break;
      case "e":
        if (this.game.reprieve !== null) this.play("S");
        break;
      case "f": {
        event.preventDefault();
        const col = this.selected ? this.selected.col : this.focusCol;
        if (this.selected && this.selected.count !== 1) {
          toast(t("Only one card at a time goes to a foundation."), "error");
          break;
        }
        this.selected = null;
        this.play(moveText(col, 1, "F"));
        break;
      }
      case "Escape":
        if (this.selected) {
          this.select(null);
          announce(t("Nothing picked up."));
        }
        break;
      case "ArrowLeft":
      case "ArrowRight":
        if (!inTable && event.target !== document.body) return;
        event.preventDefault();
        this.focusColumn(this.focusCol + (key === "ArrowLeft" ? -1 : 1));
        break;
      case "ArrowUp":
      case "ArrowDown": {
        if (!event.target.classList || !event.target.classList.contains("column")) return;
        event.preventDefault();
        if (this.selected) break;
        const cards = this.game.columns[this.focusCol - 1];
        const open = this.game.reprieve !== null ? cards.length : runLength(cards);
        const most = Math.max(1, open);
        this.depth = Math.max(1, Math.min(most, this.depth + (key === "ArrowUp" ? 1 : -1)));
        this.markKeyboardDepth();
        const base = cards[cards.length - this.depth];
        if (base) announce(nt("{card}: {n} card", "{card}: {n} cards", this.depth,
          { card: cardName(base) }));
        break;
      }
      case "Enter":
      case " ": {
        const el = event.target;
        if (el.classList && el.classList.contains("column")) {
          event.preventDefault();
          this.keyPick(Number(el.dataset.col));
        } else if (el === this.stockEl) {
          event.preventDefault();
          this.deal();
        } else if (el.classList && el.classList.contains("foundation")) {
          event.preventDefault();
          this.tapFoundation();
        }
        break;
      }
      default:
        return;
    }
  }

  focusColumn(col) {
    const n = this.game.columns.length;
    this.focusCol = ((col - 1 + n) % n) + 1;
    this.depth = 1;
    const el = this.columnEl(this.focusCol);
    if (el) el.focus();
    this.markKeyboardDepth();
  }

  keyPick(col) {
    if (this.selected) {
      this.tapColumn(col);
      if (this.selected && this.selected.col === col) {
        this.select(null);
        announce(t("Nothing picked up."));
      }
      return;
    }
    const cards = this.game.columns[col - 1];
    if (!cards.length) {
      announce(t("Column {col}: empty", { col }));
      return;
    }
    const count = Math.min(this.depth, cards.length);
    this.depth = 1;
    this.select({ col, count });
  }
}
