// The start page, the rules, the statistics and the about page.

import { api } from "./api.js";
import { cardElement, cardName } from "./cards.js";
import { h, clear, duration } from "./dom.js";
import { t, nt, language } from "./i18n.js";
import { VARIANTS, variantTitle } from "./variants.js";
import { openNewGameDialog } from "./dialogs.js";

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

// -- start page -----------------------------------------------------------------

export async function showHome(main, app) {
  // Named once it has a title: an unnamed section is no landmark.
  const resume = h("section", { class: "resume" });
  const tagline = t("A two-deck patience where an empty column opens a reprieve: "
    + "for a moment you may rearrange the cards freely.");
  clear(main).append(h("section", { class: "page home" },
    h("div", { class: "hero" },
      h("div", { class: "hero-cards", "aria-hidden": "true" },
        ["KS", "QH", "JC", "TD"].map((text) => cardElement(text, ""))),
      h("div", {},
        h("h1", {}, "Miss Milligan"),
        h("p", { class: "lead" }, tagline),
        h("div", { class: "buttons" },
          h("button", { type: "button", class: "primary big", "data-action": "new",
            onclick: () => openNewGameDialog(app, null) }, t("New game")),
          h("a", { class: "button big", href: "/daily", "data-link": true },
            t("Daily deal")),
          h("a", { class: "button big", href: "/rules", "data-link": true },
            t("How to play")),
          h("a", { class: "button big", href: "/tutorial", "data-link": true },
            t("Tutorial"))))),
    resume,
    h("section", { class: "variants", "aria-labelledby": "variants-title" },
      h("h2", { id: "variants-title" }, t("Variants")),
      h("ul", { class: "variant-list" }, VARIANTS.map((key) => h("li", {},
        h("a", { href: `/play/${key}`, "data-link": true }, variantTitle(key)),
        h("span", {}, variantSummary(key))))))));
  document.title = "Miss Milligan";
  let games = [];
  try {
    games = (await api.playing()).games || [];
  } catch {
    games = [];
  }
  if (!games.length) return;
  resume.setAttribute("aria-labelledby", "resume-title");
  resume.append(h("h2", { id: "resume-title" }, t("Games in progress")),
    h("ul", { class: "resume-list" }, games.map((game) => h("li", {},
      h("a", { href: `/game/${game.id}`, "data-link": true, class: "resume-link" },
        variantTitle(game.variant)
        + (game.deal !== null && game.deal !== undefined ? ` · ${t("Deal {n}", { n: game.deal })}` : "")),
      h("span", { class: "muted" },
        `${nt("{n} move", "{n} moves", game.moves)} · ${when(game.updated)}`)))));
}

function variantSummary(key) {
  return {
    classic: t("Two decks, eight columns, one open row; the reprieve is free."),
    spanish: t("The same table without any reprieve: much harder."),
    improved: t("Three opening rows, the lower two face down."),
    "one-deck": t("One deck and four columns: a quick game."),
    strict: t("During the reprieve, only face-up cards move and runs stay whole."),
  }[key];
}

// -- rules -------------------------------------------------------------------------

/** A small table of columns drawn with the game's own cards. */
export function diagram(columns, { reprieve = null, moved = [], bad = [], caption = "" } = {}) {
  const movedSet = new Set(moved.map(([c, i]) => `${c}:${i}`));
  const badSet = new Set(bad.map(([c, i]) => `${c}:${i}`));
  const figure = h("figure", { class: "diagram" });
  const row = h("div", { class: "diagram-columns" });
  columns.forEach((cards, c0) => {
    const col = c0 + 1;
    const column = h("div", { class: "diagram-column" + (reprieve === col ? " reprieve-column" : "") });
    column.append(h("div", { class: "diagram-label" }, String(col)));
    if (!cards.length) column.append(h("div", { class: "slot empty-column" }));
    cards.forEach((text, index) => {
      const el = cardElement(text, t("{card}, column {col}", { card: cardName(text), col }), true);
      el.style.top = `calc(${index} * var(--step) + 1.4em)`;
      if (movedSet.has(`${col}:${index}`)) el.classList.add("moved");
      if (badSet.has(`${col}:${index}`)) el.classList.add("out-of-place");
      column.append(el);
    });
    column.style.height = `calc(${Math.max(cards.length - 1, 0)} * var(--step) + var(--card-h) + 1.6em)`;
    row.append(column);
  });
  figure.append(row);
  if (caption) figure.append(h("figcaption", {}, caption));
  return figure;
}

export function showRules(main) {
  const section = (title, ...content) => h("section", {}, h("h2", {}, title), ...content);
  const p = (text) => h("p", {}, text);
  const variantsList = h("dl", { class: "variant-rules" }, VARIANTS.map((key) => [
    h("dt", {}, variantTitle(key)),
    h("dd", {}, {
      classic: t("Two decks, eight columns. The game starts with one face-up row of eight "
        + "cards; the other 96 cards make twelve stock rows. The reprieve is free."),
      spanish: t("As the classic game, but an empty column never opens a reprieve. "
        + "Only Kings and King-led runs may fill it."),
      improved: t("The opening deal has three rows: the two lower rows face down and the top "
        + "row face up. A face-down card turns over as soon as it is the top card of its "
        + "column. Ten stock rows remain."),
      "one-deck": t("One deck, four columns and four foundations. Twelve stock rows of four "
        + "cards. A good way to learn the reprieve."),
      strict: t("During the reprieve a free move may take only face-up cards, and it may not "
        + "break a run apart: the card under the moved group must not be its natural parent. "
        + "Builds and foundation moves stay as usual."),
    }[key]),
  ]));
  const example = h("div", { class: "example" },
    diagram([["TH", "3S"], ["AD"], ["6C", "2D", "9C"], ["4H"]], {
      caption: t("1. The ace of diamonds goes to its foundation. Column 2 becomes empty and "
        + "a reprieve opens."),
    }),
    diagram([["TH"], [], ["6C"], ["4H", "3S", "9C"]], {
      reprieve: 2, moved: [[4, 1], [4, 2]], bad: [[4, 2]],
      caption: t("2. Free moves: the nine of clubs went onto the three of spades, the two of "
        + "diamonds went up, and the three of spades (carrying the nine) went onto the four of "
        + "hearts. Moved cards are marked. The nine of clubs is out of place, so the reprieve "
        + "cannot end yet."),
    }),
    diagram([["TH", "9C"], [], ["6C"], ["4H", "3S"]], {
      reprieve: 2, moved: [[1, 1], [4, 1]],
      caption: t("3. The nine of clubs goes onto the ten of hearts. Every moved card now lies "
        + "on a card one rank higher and of the other colour: the reprieve can end, leaving "
        + "column 2 empty."),
    }));
  clear(main).append(h("article", { class: "page rules" },
    h("h1", {}, t("Rules of Miss Milligan")),
    p(t("Miss Milligan is a patience for one player with two decks of cards shuffled "
      + "together. Its special rule, the reprieve, lets you rearrange the table freely for a "
      + "while whenever a column becomes empty.")),
    h("p", {}, h("a", { href: "/tutorial", "data-link": true },
      t("Learn by playing: the tutorial"))),
    section(t("Aim"),
      p(t("Move all 104 cards to the eight foundations, two for each suit, each built up "
        + "from ace to king."))),
    section(t("The table"),
      p(t("Eight columns are dealt with one face-up card each. The other 96 cards form the "
        + "stock, which is dealt later in rows of eight, one card on every column, empty "
        + "columns included. The foundations start empty.")),
      p(t("A run is a group of cards at the top of a column in which each card is one rank "
        + "lower than the card below it and of the other colour. A single card is a run too."))),
    section(t("Moves"),
      h("ul", {},
        h("li", {}, t("Build: move a run (or part of one, taken from its top) onto a card "
          + "one rank higher than the run's bottom card and of the other colour.")),
        h("li", {}, t("Empty column: only a king, or a run that starts with a king, may go "
          + "into an empty column.")),
        h("li", {}, t("Foundation: move the top card of a column to a foundation of its suit "
          + "when it is the next rank, starting with the ace. Cards never leave a "
          + "foundation.")),
        h("li", {}, t("Deal: at any time when no reprieve is open, deal the next stock row."))),
    ),
    section(t("The reprieve"),
      p(t("When a build or a foundation move empties a column, a reprieve opens and that "
        + "column becomes the reprieve column. Dealing, the opening deal and moving a whole "
        + "king-led column into another empty column never open one.")),
      p(t("While the reprieve is open you may still build and play to the foundations, and "
        + "you may also make free moves: take any card together with all the cards above it "
        + "from any column except the reprieve column, and put the group on top of any other "
        + "column that is not empty, whatever the ranks and colours.")),
      p(t("The reprieve ends when you build a king-led run into the reprieve column, or when "
        + "you choose to end it and leave the column empty. Either way it may end only when "
        + "every card moved during it lies on a card one rank higher and of the other colour, "
        + "or is a king at the bottom of a column. If not, the program shows the cards that "
        + "are out of place. You cannot deal while a reprieve is open, and no second reprieve "
        + "opens during one.")),
      example),
    section(t("End of the game"),
      p(t("You win when all cards are on the foundations. The game is lost when the stock is "
        + "empty, no reprieve is open and no sequence of builds leads to a foundation move or "
        + "a new reprieve. There is no score: a game is won or it is not."))),
    section(t("Variants"), variantsList),
    section(t("Playing with mouse, touch or keyboard"),
      h("ul", {},
        h("li", {}, t("Drag a card, and the cards above it, onto another column or a "
          + "foundation. Or tap a card, then tap where it should go.")),
        h("li", {}, t("Double-click or double-tap a top card to send it to a foundation. Click "
          + "the stock to deal a row.")),
        h("li", {}, t("Keyboard: arrow keys or Tab move between columns; Up and Down choose how "
          + "many cards to take; Enter or Space picks them up and puts them down; F sends a "
          + "card to a foundation; D deals; U or Ctrl+Z undoes; Ctrl+Y redoes; H asks for a "
          + "hint; E ends the reprieve; Escape cancels.")))),
    h("p", { class: "print-only muted" }, window.location.origin + "/rules")));
  document.title = `${t("Rules")} – Miss Milligan`;
}

// -- statistics ------------------------------------------------------------------

export async function showStats(main) {
  const page = h("section", { class: "page stats" }, h("h1", {}, t("Statistics")));
  clear(main).append(page);
  document.title = `${t("Statistics")} – Miss Milligan`;
  let stats;
  try {
    stats = await api.stats();
  } catch (error) {
    page.append(h("p", {}, t("Something went wrong: {message}", { message: error.message })));
    return;
  }
  const none = (v) => v === null || v === undefined;
  const count = (v) => (none(v) ? "–" : String(v));
  const rows = [
    ["played", t("Games played"), count],
    ["won", t("Games won"), count],
    ["win_percent", t("Win rate"), (v) => (none(v) ? "–"
      : `${Number(v).toLocaleString(language(), { maximumFractionDigits: 1 })}%`)],
    ["current_streak", t("Current winning streak"), count],
    ["best_streak", t("Best winning streak"), count],
    ["best_time", t("Fastest win"), (v) => (none(v) ? "–" : duration(v))],
    ["fewest_moves", t("Fewest moves in a win"), count],
    ["hints", t("Hints used"), count],
    ["solutions", t("Solutions watched"), count],
  ];
  const variants = stats.variants || {};
  const keys = VARIANTS.filter((key) => key in variants)
    .concat(Object.keys(variants).filter((key) => !VARIANTS.includes(key)));
  if (!keys.length) {
    page.append(h("p", {}, t("No games yet. Statistics appear after your first game.")));
    return;
  }
  const table = h("table", { class: "stats-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Variant")),
      keys.map((key) => h("th", { scope: "col" }, variantTitle(key))))),
    h("tbody", {}, rows.map(([field, label, show]) => h("tr", {},
      h("th", { scope: "row" }, label),
      keys.map((key) => {
        const row = variants[key];
        const unplayed = !row.played && field !== "played";
        return h("td", {}, unplayed ? "–" : show(row[field]));
      })))));
  // It scrolls sideways on a phone: focusable, so that the keyboard can scroll it too.
  page.append(h("div", { class: "table-wrap", tabindex: "0", role: "region",
    "aria-label": t("Statistics") }, table),
    h("p", { class: "muted" }, t("Games in which you watched the solver's solution count as "
      + "assisted.")));
  // the daily deals keep a streak of their own (see the daily page)
  api.dailyStats().then((daily) => {
    page.append(h("p", { class: "daily-streak" },
      `${nt("Daily streak: {n} day", "Daily streak: {n} days", daily.current_streak)} · `
      + nt("best {n} day", "best {n} days", daily.best_streak)));
  }, () => {});
}

// -- about ------------------------------------------------------------------------

export function showAbout(main) {
  clear(main).append(h("article", { class: "page about" },
    h("h1", {}, t("About")),
    h("p", {}, t("This is Milligan, a free program for the patience Miss Milligan and four of "
      + "its variants. Every deal has a number, so a game can be shared and replayed exactly.")),
    h("p", {}, t("The hint uses a solver that only sees what you see; the solution uses full "
      + "knowledge of the hidden cards, and a game where you use it counts as assisted.")),
    h("p", {}, t("Your games are kept by the program on this computer. Nothing is sent "
      + "anywhere else.")),
    h("p", {}, t("The cards are drawn by the program itself, and it works without an internet "
      + "connection.")),
    h("p", {}, h("a", { href: "/rules", "data-link": true }, t("Read the rules")))));
  document.title = `${t("About")} – Miss Milligan`;
}
