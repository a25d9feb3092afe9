// Moves in the notation of docs/RULES.md §7.1: parsing, writing and saying them in words.

import { cardName, parseCard, isRed } from "./cards.js";
import { t } from "./i18n.js";

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

/** Length of the run at the top of a column: how deep the keyboard may pick up. */
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

/**
 * Describe the moves of a plan in words, each from the position the moves
 * before it leave. A plan shows nothing new before its last move (a deal or a
 * card turned up), so its cards can be followed on the visible table.
 */
export function describePlan(moves, game) {
  const columns = game.columns.map((cards) => [...cards]);
  return moves.map((text) => {
    const words = describeMove(text, { ...game, columns });
    const move = parseMove(text);
    if (move && move.kind === "F") {
      (columns[move.source - 1] || []).pop();
    } else if (move && move.kind === "C") {
      const source = columns[move.source - 1] || [];
      const run = source.splice(source.length - move.count, move.count);
      (columns[move.target - 1] || []).push(...run);
    }
    return words;
  });
}

/** How many rows the stock still holds. */
export function rowsLeft(game) {
  return Math.ceil(game.stock / game.columns.length);
}
