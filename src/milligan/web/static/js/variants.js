// The five named variants and their display names.

import { t, N_ } from "./i18n.js";

export const VARIANTS = ["classic", "spanish", "improved", "one-deck", "strict"];

const TITLES = {
  classic: N_("Miss Milligan"),
  spanish: N_("Spanish Patience"),
  improved: N_("Improved Miss Milligan"),
  "one-deck": N_("One-deck Milligan"),
  strict: N_("Strict Milligan"),
};

export function variantTitle(key) {
  return key in TITLES ? t(TITLES[key]) : key;
}
