// Why the rules refused a move, in the player's language.
//
// The server sends a refusal as a code and its params (docs/API.md, "Refusal
// reasons"). Each language's catalogue carries the engine's English wording by
// code (milligan.errors.REASONS, copied in when the catalogues are compiled) and
// translates it like any other message. The page knows no rules and no reasons
// of its own: it only words what the engine said.

import { t, reasonTemplate } from "./i18n.js";
import { cardName, suitName } from "./cards.js";


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
  const template = reason ? reasonTemplate(reason.code) : undefined;
  if (template === undefined) return null;
  const words = {};
  for (const [name, value] of Object.entries(reason.params || {})) words[name] = word(name, value);
  return t(template, words);
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
