// Why the rules refused a move, in the player's language.
//
// The server sends a refusal as a code and its params (docs/API.md, "Refusal
// reasons"); the English templates here are the engine's own (milligan.errors.REASONS,
// kept equal by tests/i18n), and the catalogues translate them. The page knows no
// rules of its own: it only words what the engine said.

import { t, N_ } from "./i18n.js";
import { cardName, suitName } from "./cards.js";

export const REASONS = {
  no_such_column: N_("there is no column {column} (this game has {columns})"),
  column_empty: N_("column {column} is empty"),
  too_few_cards: N_("column {column} holds only {size} card(s)"),
  face_down_cards: N_("the top {count} cards of column {column} include face-down cards"),
  not_a_run: N_("the top {count} cards of column {column} are not a run "
    + "({upper} cannot lie on {lower})"),
  wrong_colour: N_("{card} cannot go on {target} (needs {needs})"),
  not_one_lower: N_("{card} cannot go on {target} (needs {needs})"),
  empty_needs_king: N_("{card} cannot go into empty column {column} (only a King-led run can)"),
  king_needs_empty: N_("{card} cannot go on {target} (a King goes only into an empty column)"),
  no_empty_foundation: N_("{card} cannot go to a foundation: no {suit} foundation is empty"),
  foundation_needs_below: N_("{card} cannot go to a foundation: no {suit} foundation has "
    + "{below} on top"),
  stock_empty: N_("the stock is empty"),
  no_deal_in_reprieve: N_("no dealing while a reprieve is open (end it first with a "
    + "King-led run or S)"),
  strict_face_down: N_("in a strict reprieve, a free move takes face-up cards only"),
  strict_splits_run: N_("in a strict reprieve, a free move may not split a run "
    + "({card} lies on {lower})"),
  no_reprieve: N_("no reprieve is open"),
  reprieve_unsettled: N_("the reprieve cannot end while cards are out of place: {places}"),
  game_won: N_("the game is over: it is won"),
  game_resigned: N_("the game is over: it was resigned"),
  already_won: N_("the game is already won"),
  already_resigned: N_("the game was already resigned"),
  no_undo: N_("there is no move to undo"),
  no_redo: N_("there is no move to redo"),
};

const CARD_PARAMS = new Set(["card", "target", "upper", "lower", "below"]);

function word(name, value) {
  if (CARD_PARAMS.has(name)) return cardName(value);
  if (name === "suit") return suitName(value);
  if (name === "needs") {
    const names = value.map(cardName);
    return names.length > 1
      ? t("{first} or {second}", { first: names.slice(0, -1).join(", "), second: names.at(-1) })
      : names.join("");
  }
  if (name === "places") {
    return value.map(([card, col]) => t("{card} in column {col}", { card: cardName(card), col }))
      .join(", ");
  }
  return String(value);
}

/** The reason {code, params} in words, or null for a code this page does not know. */
export function reasonText(reason) {
  if (!reason || !Object.hasOwn(REASONS, reason.code)) return null;
  const words = {};
  for (const [name, value] of Object.entries(reason.params || {})) words[name] = word(name, value);
  return t(REASONS[reason.code], words);
}

/** What to tell the player about a failed request (an api.js error). */
export function errorText(error) {
  if (error.code === "illegal") {
    return t("Not allowed: {reason}", { reason: reasonText(error.reason) || error.message });
  }
  if (error.code === "not_available") return t("Hints are not available on this server.");
  if (error.status === 404) return t("This game no longer exists.");
  return t("Something went wrong: {message}", { message: error.message });
}
