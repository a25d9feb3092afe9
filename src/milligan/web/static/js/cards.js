// Cards drawn as SVG: suit symbols, corner indices, pips and court panels.
// One set of <symbol> definitions is put into the page once; every card uses it.

import { t, N_ } from "./i18n.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";
const RANK_LABEL = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_NAMES = [N_("ace"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"),
  N_("seven"), N_("eight"), N_("nine"), N_("ten"), N_("jack"), N_("queen"), N_("king")];
const SUIT_NAMES = { C: N_("clubs"), D: N_("diamonds"), H: N_("hearts"), S: N_("spades") };

// Suit shapes in a 100 x 100 box, drawn for this project.
const SUIT_PATHS = {
  H: "M50 90C46 84 8 60 6 34C4 16 18 6 30 6C40 6 47 12 50 22C53 12 60 6 70 6C82 6 96 16 "
    + "94 34C92 60 54 84 50 90Z",
  D: "M50 4L86 50L50 96L14 50Z",
  S: "M50 4C56 16 94 40 94 62C94 76 84 84 72 84C64 84 58 80 54 74C55 84 59 91 66 96H34C41 91 "
    + "45 84 46 74C42 80 36 84 28 84C16 84 6 76 6 62C6 40 44 16 50 4Z",
  C: "M50 6A20 20 0 0 1 67 37A20 20 0 1 1 56 72C57 84 61 91 67 96H33C39 91 43 84 44 72A20 20 0 "
    + "1 1 33 37A20 20 0 0 1 50 6Z",
};

/** Put the shared symbol definitions into the page (once). */
export function installCardDefs() {
  if (document.getElementById("card-defs")) return;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.id = "card-defs";
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", "0");
  svg.setAttribute("height", "0");
  svg.style.position = "absolute";
  let inner = "<defs>";
  for (const [suit, path] of Object.entries(SUIT_PATHS)) {
    inner += `<symbol id="suit-${suit}" viewBox="0 0 100 100"><path d="${path}"/></symbol>`;
  }
  inner += '<pattern id="back-pattern" width="20" height="20" patternUnits="userSpaceOnUse" '
    + 'patternTransform="rotate(45)"><rect width="20" height="20" fill="#1d4e89"/>'
    + '<rect width="10" height="10" fill="#2360a5"/><rect x="10" y="10" width="10" height="10" '
    + 'fill="#2360a5"/></pattern>';
  inner += "</defs>";
  svg.innerHTML = inner;
  document.body.prepend(svg);
}

/** Parse "TH" into {rank: 10, suit: "H"}; null for "??" (face down). */
export function parseCard(text) {
  if (!text || text === "??") return null;
  return { rank: RANKS.indexOf(text[0]) + 1, suit: text[1] };
}

export function isRed(suit) {
  return suit === "D" || suit === "H";
}

/** "seven of hearts" in the current language. */
export function cardName(text) {
  const card = parseCard(text);
  if (!card) return t("face-down card");
  return t("{rank} of {suit}", {
    rank: t(RANK_NAMES[card.rank - 1]),
    suit: t(SUIT_NAMES[card.suit]),
  });
}

export function suitName(suit) {
  return t(SUIT_NAMES[suit]);
}

/** The fill colour class of a suit (two or four colours). */
export function suitClass(suit) {
  return `suit-${suit}`;
}

// Pip centres in a 200 x 280 card: x from three lanes, y from 0 (top) to 1 (bottom).
const L = 64, C = 100, R = 136;
const PIPS = {
  2: [[C, 0], [C, 1]],
  3: [[C, 0], [C, 0.5], [C, 1]],
  4: [[L, 0], [R, 0], [L, 1], [R, 1]],
  5: [[L, 0], [R, 0], [C, 0.5], [L, 1], [R, 1]],
  6: [[L, 0], [R, 0], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
  7: [[L, 0], [R, 0], [C, 0.25], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
  8: [[L, 0], [R, 0], [C, 0.25], [L, 0.5], [R, 0.5], [C, 0.75], [L, 1], [R, 1]],
  9: [[L, 0], [R, 0], [L, 1 / 3], [R, 1 / 3], [C, 0.5], [L, 2 / 3], [R, 2 / 3], [L, 1], [R, 1]],
  10: [[L, 0], [R, 0], [C, 1 / 6], [L, 1 / 3], [R, 1 / 3], [L, 2 / 3], [R, 2 / 3], [C, 5 / 6],
    [L, 1], [R, 1]],
};
const PIP_TOP = 80, PIP_BOTTOM = 216, PIP = 32;

function use(suit, x, y, size, flip = false) {
  const transform = flip ? ` transform="rotate(180 ${x + size / 2} ${y + size / 2})"` : "";
  return `<use href="#suit-${suit}" x="${x}" y="${y}" width="${size}" height="${size}"${transform}/>`;
}

const cache = new Map();

/** The SVG markup of a card face ("TH") or back ("??"). */
export function cardSvg(text, compact = false) {
  const key = compact ? `${text}/c` : text;
  if (cache.has(key)) return cache.get(key);
  let body;
  const card = parseCard(text);
  if (!card) {
    body = '<rect class="card-edge" x="1" y="1" width="198" height="278" rx="14"/>'
      + '<rect x="12" y="12" width="176" height="256" rx="8" fill="url(#back-pattern)"/>'
      + '<rect x="12" y="12" width="176" height="256" rx="8" fill="none" stroke="#f4f1e8" '
      + 'stroke-width="3"/>';
  } else {
    const { rank, suit } = card;
    const label = RANK_LABEL[rank - 1];
    const wide = label.length > 1;
    body = '<rect class="card-edge face" x="1" y="1" width="198" height="278" rx="14"/>';
    body += `<g class="${suitClass(suit)}">`;
    if (compact) {
      // Small cards (phones): a big index and one big suit, nothing finer.
      body += `<text class="index" x="${wide ? 6 : 12}" y="76" font-size="82"`
        + `${wide ? ' textLength="112" lengthAdjust="spacingAndGlyphs"' : ""}>${label}</text>`;
      body += use(suit, wide ? 124 : 116, 14, wide ? 66 : 74);
      body += use(suit, 40, 120, 120);
      body += "</g>";
      const small = `<svg viewBox="0 0 200 280" aria-hidden="true" focusable="false">${body}</svg>`;
      cache.set(key, small);
      return small;
    }
    // Top-left index: large rank, suit beside it, readable in a narrow overlap strip.
    body += `<text class="index" x="${wide ? 8 : 14}" y="50" font-size="54"`
      + `${wide ? ' textLength="66" lengthAdjust="spacingAndGlyphs"' : ""}>${label}</text>`;
    body += use(suit, 140, 12, 46);
    // Bottom-right index, upside down.
    body += `<g transform="rotate(180 100 140)"><text class="index" x="${wide ? 8 : 14}" y="50" `
      + `font-size="54"${wide ? ' textLength="66" lengthAdjust="spacingAndGlyphs"' : ""}>`
      + `${label}</text>${use(suit, 140, 12, 46)}</g>`;
    if (rank === 1) {
      body += use(suit, 58, 92, 84);
    } else if (rank <= 10) {
      for (const [x, y] of PIPS[rank]) {
        const cy = PIP_TOP + y * (PIP_BOTTOM - PIP_TOP - PIP);
        body += use(suit, x - PIP / 2, cy, PIP, y > 0.5);
      }
    } else {
      body += '<rect class="court" x="46" y="82" width="108" height="130" rx="10"/>';
      body += `<text class="court-letter" x="100" y="176" font-size="80" `
        + `text-anchor="middle">${label}</text>`;
      body += use(suit, 52, 88, 24) + use(suit, 124, 182, 24, true);
    }
    body += "</g>";
  }
  const svg = `<svg viewBox="0 0 200 280" aria-hidden="true" focusable="false">${body}</svg>`;
  cache.set(key, svg);
  return svg;
}

/** A card element (a div holding the SVG) with an accessible name. */
export function cardElement(text, label, compact = false) {
  const el = document.createElement("div");
  el.className = text === "??" ? "card back" : "card";
  el.innerHTML = cardSvg(text, compact);
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label || cardName(text));
  el.dataset.card = text;
  return el;
}
