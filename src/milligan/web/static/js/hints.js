// Help from the solver: a fair hint (the plan's next moves) and the full-knowledge solution.

import { announce } from "./dom.js";
import { language, nt, t } from "./i18n.js";
import { api } from "./api.js";
import { describePlan } from "./moves.js";
import { errorText } from "./reasons.js";

// How many of the plan's later moves the hint spells out; the rest are counted.
const PLAN_IN_WORDS = 3;

/** Ask for a hint and show it on the table, for a view ({id, state, destroyed}). */
export async function showHint(view) {
  const state = view.state;
  if (!state.game || state.game.status !== "playing") return;
  state.say(t("Looking for a good move…"));
  try {
    const hint = await api.hint(view.id);
    if (view.destroyed) return;
    if (!hint.move) {
      state.say(t("No move found: consider undoing or dealing."));
      return;
    }
    // the plan starts with the hinted move; each move is described on the table the ones before leave
    const [words, ...later] = describePlan(hint.plan?.length ? hint.plan : [hint.move], state.game);
    const game = await api.game(view.id);  // the hint now counts in the game
    if (view.destroyed) return;
    const chance = chanceText(hint);
    let text = t("Hint: {move}", { move: words }) + (chance ? ` (${chance})` : "");
    // the later moves continue the sentence: "Then: deal a row", not "Then: Deal a row"
    const next = later.map((phrase) =>
      phrase.charAt(0).toLocaleLowerCase(language()) + phrase.slice(1));
    if (next.length) {
      const shown = next.slice(0, PLAN_IN_WORDS);
      const more = next.length - PLAN_IN_WORDS;
      if (more > 0) shown.push(nt("and {n} more move", "and {n} more moves", more));
      text += ". " + t("Then: {moves}", { moves: joinPhrases(shown) });
    }
    if (hint.repeats) text += ". " + t("Every legal move leads back to a position already reached.");
    state.showHint(game, hint, text);
    announce(text);
  } catch (error) {
    state.say(errorText(error), "error");
  }
}

/**
 * A hint's chance in words: the estimate, or, when no sampled deal or every one was won, that
 * count. No deal won is not a lost game, nor every deal won a won one (docs/BENCHMARKS.md), so
 * neither is shown as 0% or 100%.
 */
export function chanceText(hint) {
  if (typeof hint.win_estimate !== "number") return "";
  const n = hint.samples;
  if (hint.win_chance === 0) {
    return nt("no win in {n} sampled deal", "no win in any of {n} sampled deals", n);
  }
  if (hint.win_chance === 1) return nt("won in {n} sampled deal", "won in all {n} sampled deals", n);
  return t("estimated chance of winning: {p}%, from {n} sampled deals",
    { p: Math.round(hint.win_estimate * 100), n });
}

/** Phrases one after the other, as the language lists them ("a; b", in French "a ; b"). */
function joinPhrases(phrases) {
  return phrases.reduce((moves, move) => t("{moves}; {move}", { moves, move }));
}

/** Ask for the full-knowledge solution and start playing it back. */
export async function solve(view) {
  const state = view.state;
  if (!state.game || state.game.status !== "playing") return;
  state.say(t("Solving with full knowledge of the hidden cards…"));
  let solution;
  try {
    solution = await api.solution(view.id);
  } catch (error) {
    state.say(errorText(error), "error");
    return;
  }
  if (view.destroyed) return;
  if (!solution.moves || !solution.moves.length || solution.result !== "won") {
    state.say(solution.result === "lost"
      ? t("The solver found no way to win from here.")
      : t("The solver found no win within its limits."), "error");
    return;
  }
  view.playback.start(solution.moves);
}
