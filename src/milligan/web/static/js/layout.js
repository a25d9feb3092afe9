// Sizes and positions: cards sized to the window, long columns squeezed to fit, and the
// short flights that show where a move's cards went.

import { motionAllowed } from "./dom.js";
import { settings } from "./settings.js";
import { parseMove } from "./moves.js";

const MIN_STEP = 0.215;      // least overlap step (of a card's height) that shows the index
const MIN_STEP_COMPACT = 0.31;

function columnEl(els, col) {
  return els.tableau.querySelector(`.column[data-col="${col}"]`);
}

/** Size cards to the window and squeeze long columns so that they fit. */
export function layout(els, state) {
  const game = state.game;
  if (!game || !els.table.isConnected) return;
  const columns = game.columns.length;
  const width = els.table.clientWidth;
  const gap = Math.max(4, Math.min(14, width / 90));
  const topSlots = 1 + 4 * (game.foundations.C || [0]).length;
  const byColumns = (width - gap * (columns - 1)) / columns;
  const byTop = (width - gap * topSlots) / topSlots;
  const base = Math.min(columns <= 4 ? 130 : 118, byColumns);
  // Long columns: shrink the cards (down to 45%) before squeezing the overlap below what
  // keeps each card's index readable; past that the page scrolls rather than hide ranks.
  const tableauTop = els.tableau.getBoundingClientRect().top;
  const topRow = els.table.querySelector(".top-row").getBoundingClientRect().height;
  const room = window.innerHeight - (tableauTop - topRow) - 24;
  const heights = (compact) => Math.max(...game.columns.map((cards) => {
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
  if (compact !== state.ui.compact) {
    state.setCompact(compact);  // renders again, small or large cards, and lays that out
    return;
  }
  const table = els.table.style;
  table.setProperty("--card-w", `${cardWidth}px`);
  table.setProperty("--card-h", `${cardHeight}px`);
  table.setProperty("--top-w", `${topWidth}px`);
  table.setProperty("--top-h", `${Math.round(topWidth * 1.4)}px`);
  table.setProperty("--gap", `${gap}px`);
  const inner = width - 2 * (parseFloat(window.getComputedStyle(els.table).paddingLeft) || 0);
  const columnGap = Math.max(gap, Math.min(cardWidth * 0.3, (inner - columns * cardWidth)
    / Math.max(1, columns - 1)));
  const tableauWidth = columns * cardWidth + (columns - 1) * columnGap;
  const topRowWidth = Math.max(tableauWidth, topSlots * topWidth + (topSlots - 1) * gap);
  table.setProperty("--column-gap", `${columnGap}px`);
  table.setProperty("--row-w", `${Math.min(inner, Math.ceil(topRowWidth))}px`);
  const top = els.tableau.getBoundingClientRect().top + window.scrollY;
  const padding = parseFloat(window.getComputedStyle(els.table).paddingBottom) || 0;
  const available = Math.max(cardHeight * 1.6, window.innerHeight - top - padding - 8);
  let tallest = cardHeight;
  for (const column of els.tableau.querySelectorAll(".column")) {
    const cardEls = [...column.querySelectorAll(".card")];
    const open = compact ? 0.34 : 0.27;
    const steps = cardEls.slice(1).map((el, i) =>
      (cardEls[i].classList.contains("back") ? 0.12 : open) * cardHeight);
    const total = steps.reduce((a, b) => a + b, 0);
    const least = (compact ? MIN_STEP_COMPACT : MIN_STEP) / open;
    const scale = total > 0 ? Math.max(least, Math.min(1, (available - cardHeight) / total)) : 1;
    let y = 0;
    cardEls.forEach((el, i) => {
      if (i > 0) y += steps[i - 1] * scale;
      el.style.top = `${Math.round(y)}px`;
    });
    tallest = Math.max(tallest, y + cardHeight);
  }
  els.tableau.style.height = `${Math.ceil(Math.max(tallest, available))}px`;
}

/** Where the cards of a move are before it (null when motion is off or nothing flies). */
export function snapshot(els, move) {
  if (!motionAllowed(settings)) return null;
  const parsed = parseMove(move);
  if (!parsed || parsed.kind === "S") return null;
  if (parsed.kind === "D") return { stock: els.stock.getBoundingClientRect() };
  const cardEls = [...columnEl(els, parsed.source).querySelectorAll(".card")]
    .slice(-parsed.count);
  return { rects: cardEls.map((el) => el.getBoundingClientRect()),
    cards: cardEls.map((el) => el.dataset.card) };
}

/** Fly the moved cards from where snapshot() saw them to where they are now. */
export function animate(els, game, move, before) {
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
    game.columns.forEach((cards, i) => {
      const cardEls = columnEl(els, i + 1).querySelectorAll(".card");
      if (cardEls.length) fly(cardEls[cardEls.length - 1], before.stock, i * 30);
    });
    return;
  }
  if (parsed.kind === "F") {
    const el = els.foundations.querySelector(`.card[data-card="${before.cards[0]}"]`);
    if (el && before.rects[0]) fly(el, before.rects[0]);
    return;
  }
  const targets = [...columnEl(els, parsed.target).querySelectorAll(".card")]
    .slice(-parsed.count);
  targets.forEach((el, i) => { if (before.rects[i]) fly(el, before.rects[i]); });
}
