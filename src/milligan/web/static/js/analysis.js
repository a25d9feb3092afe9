// Post-game analysis: where a game that was not won threw the win away.
//
// The end-of-game box of a lost or resigned game offers "Where did it go wrong?". The
// server (GET /api/games/{id}/analysis) finds the turning point with full knowledge; the
// box shows it on the game's timeline, a winning line from just before it, and a button
// that starts a new game at that position (an imported record of the line up to there),
// where the solution playback can show the better line move by move.

import { api } from "./api.js";
import { h, clear, announce } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./reasons.js";

const SHOWN_MOVES = 16;   // moves of the better line listed in the box

/** The "Where did it go wrong?" button and the place its answer goes, for the end box. */
export function analysisButton(view) {
  const out = h("div", { class: "analysis" });
  const button = h("button", { type: "button", "data-action": "analyse" },
    t("Where did it go wrong?"));
  button.addEventListener("click", () => showAnalysis(view, out, button));
  return { button, out };
}

async function showAnalysis(view, out, button) {
  button.disabled = true;
  clear(out).append(h("p", {}, t("Looking for the turning point…")));
  announce(t("Looking for the turning point…"));
  let found;
  try {
    found = await api.analysis(view.id);
  } catch (error) {
    if (view.destroyed) return;
    clear(out).append(h("p", { class: "form-error" }, errorText(error)));
    announce(errorText(error));
    button.disabled = false;
    return;
  }
  if (view.destroyed) return;
  button.remove();
  const parts = describe(found);
  clear(out).append(...parts.nodes);
  if (found.better_from !== null && found.better.length) {
    const from = found.better_from;
    out.append(h("button", { type: "button", class: "primary", "data-action": "play-from",
      onclick: () => playFrom(view, from) },
    from >= found.moves ? t("Play on from the end")
      : t("Play from before move {n}", { n: from + 1 })));
  }
  announce(parts.summary);
  const focusable = out.querySelector("button");
  if (focusable) focusable.focus();
}

function describe(found) {
  const nodes = [];
  let summary;
  const total = found.moves;
  if (found.never_winnable) {
    summary = t("This deal was never winnable: the solver proved the start position lost.");
  } else if (found.still_winnable) {
    summary = t("The game could still have been won when it ended.");
  } else if (found.turning_point !== null) {
    summary = t("Move {n} of {total} ({move}) threw the win away.",
      { n: found.turning_point, total, move: found.move });
    nodes.push(timeline(found.turning_point, total));
  } else if (found.range) {
    summary = t("The win was lost somewhere in moves {first} to {last}: the solver could not "
      + "decide every position within its limits.",
    { first: found.range[0], last: found.range[1] });
    nodes.push(timeline(found.range[0], total, found.range[1]));
  } else {
    summary = t("The solver found no turning point within its limits.");
  }
  nodes.unshift(h("p", { class: "analysis-summary" }, summary));
  if (found.better_from !== null && found.better.length && !found.never_winnable) {
    const shown = found.better.slice(0, SHOWN_MOVES).join(", ")
      + (found.better.length > SHOWN_MOVES ? ", …" : "");
    nodes.push(h("p", { class: "analysis-better" },
      t("A winning line from there ({n} moves): {moves}",
        { n: found.better.length, moves: shown })));
  }
  const drop = (found.fair_drops || [])[0];
  if (drop) {
    nodes.push(h("p", { class: "analysis-fair" },
      t("Seeing only what you saw, your chance fell most over moves {first} to {last}: "
        + "from {before}% to {after}%.",
      { first: drop.first, last: drop.index, before: Math.round(drop.before * 100),
        after: Math.round(drop.after * 100) })));
  }
  return { nodes, summary };
}

/** The line of play as a bar, with the turning point (or the range holding it) marked. */
function timeline(first, total, last = first) {
  const share = (n) => `${Math.max(0, Math.min(100, (100 * n) / Math.max(1, total)))}%`;
  const mark = h("span", { class: "timeline-mark" });
  mark.style.left = share(first - 1);
  mark.style.width = `max(3px, calc(${share(last)} - ${share(first - 1)}))`;
  return h("div", { class: "timeline", role: "img",
    "aria-label": t("Timeline: moves {first} to {last} of {total} marked",
      { first, last, total }) }, mark);
}

/** A new game at the position after `count` moves of this one: its record, cut there. */
async function playFrom(view, count) {
  try {
    const record = await api.record(view.id);
    const cut = { ...record, moves: record.moves.slice(0, count) };
    delete cut.result;
    const game = await api.importRecord(cut);
    view.app.navigate(`/game/${game.id}`);
  } catch (error) {
    announce(errorText(error));
  }
}
