// The tutorial (/tutorial): short lessons on prepared tables, played with the keyboard.
//
// The lessons and their tables come from the server (GET /api/tutorial, milligan.tutorial);
// every move goes to POST /api/tutorial/{n}/moves with the lesson's moves so far, and the
// engine answers: its refusal (worded by reasons.js), or whether the lesson accepts the move.
// The server keeps nothing; the page keeps the lesson's moves and positions, and the
// finished lessons in localStorage ("milligan.tutorial").

import { call } from "./api.js";
import { cardName } from "./cards.js";
import { h, clear } from "./dom.js";
import { t, N_ } from "./i18n.js";
import { diagram } from "./pages.js";
import { errorText } from "./reasons.js";

const STORE = "milligan.tutorial";

// Each lesson's texts: a title, what it teaches, and one goal per step with its cards.
const TEXTS = {
  build: [N_("Build down in alternating colours"),
    N_("A card may go onto the top card of another column when that card is one rank higher "
      + "and of the other colour. Type a move as column>column: 1>2 takes the top card of "
      + "column 1 onto column 2."),
    [N_("Put {a} on {b}."), { a: "9C", b: "TH" }]],
  run: [N_("Move a run"),
    N_("Cards lying in order, each on a card one higher of the other colour, make a run, and a "
      + "run moves in one go. Say how many cards move: 1:2>2 takes the top two cards of column 1 "
      + "onto column 2."),
    [N_("Move {a} and {b} together onto {c}."), { a: "TH", b: "9C", c: "JS" }]],
  king: [N_("A King into an empty column"),
    N_("Only a King, or a run that starts with a King, may go into an empty column."),
    [N_("Move {a} and {b} into the empty column 4."), { a: "KH", b: "QS" }]],
  foundation: [N_("The foundations"),
    N_("Each suit climbs on a foundation from the Ace to the King. Type a column and F: "
      + "1>F sends the top card of column 1 to a foundation."),
    [N_("Send {a} to a foundation."), { a: "AS" }],
    [N_("Now {a} can follow it."), { a: "2S" }]],
  deal: [N_("Dealing a row"),
    N_("When nothing useful is left to do, deal a row from the stock: one card on each "
      + "column. Type D."),
    [N_("Deal a row from the stock.")]],
  open: [N_("Open a reprieve"),
    N_("When a move takes the last card from a column, a reprieve opens: for a while, a card "
      + "may move with everything on it onto any other column, whatever its rank and colour."),
    [N_("Empty a column: put {a} on {b}, or send {c} to a foundation."),
      { a: "9S", b: "TH", c: "AD" }]],
  free: [N_("Free moves, and settling the table"),
    N_("The reprieve of column 4 is open. A free move takes a card from anywhere in a column, "
      + "with the cards on it. Before the reprieve can end, every moved card must lie on a card "
      + "one higher of the other colour (or be a King at the bottom of a column)."),
    [N_("Move {a} and {b} onto {c} in one free move: 1:2>2."), { a: "9H", b: "5S", c: "TC" }],
    [N_("Now {a} is out of place: put it on {b}."), { a: "5S", b: "6D" }],
    [N_("Every moved card is in place: end the reprieve with S.")]],
  close: [N_("End a reprieve with a King"),
    N_("The reprieve of column 4 is open. Building a run that starts with a King into the "
      + "reprieve column also ends the reprieve."),
    [N_("Move {a} and {b} into column 4."), { a: "KD", b: "QC" }]],
  dead: [N_("A dead end, and undo"),
    N_("When the stock is empty and no card can reach a foundation or empty a column, the game "
      + "is lost. Undo takes moves back: type U, or use the Undo button."),
    [N_("Deal the last row.")],
    [N_("Nothing can move: this is a dead end. Take the deal back.")]],
};

function loadDone() {
  try {
    const done = JSON.parse(window.localStorage.getItem(STORE) || "[]");
    return new Set(Array.isArray(done) ? done.filter(Number.isInteger) : []);
  } catch {
    return new Set();
  }
}

function saveDone(done) {
  try {
    window.localStorage.setItem(STORE, JSON.stringify([...done].sort((a, b) => a - b)));
  } catch {
    // Private browsing: progress is simply not kept.
  }
}


function goalText(key, step) {
  const goal = TEXTS[key][2 + step];
  if (!goal) return "";
  const params = {};
  for (const [name, card] of Object.entries(goal[1] || {})) params[name] = cardName(card);
  return t(goal[0], params);
}

/** Keys that type into the move field: the columns, ":", ">", F, D, S and erase. */
function keypad(field, position) {
  const keys = [...position.columns.map((_, i) => String(i + 1)), ":", ">", "F", "D", "S"];
  const press = (text) => {
    field.value = text === null ? field.value.slice(0, -1) : field.value + text;
    field.focus();
  };
  return h("span", { class: "tutorial-keys", role: "group", "aria-label": t("Move keys") },
    keys.map((key) => h("button", { type: "button", onclick: () => press(key) }, key)),
    h("button", { type: "button", "aria-label": t("Erase"), onclick: () => press(null) }, "⌫"));
}

export function showTutorial(main) {
  let lessons = [];
  let index = 0;
  let play = null;  // {moves, positions, done}: the lesson being played
  const done = loadDone();
  let alive = true;

  const answer = h("p", { class: "tutorial-answer", role: "status", "aria-live": "polite" });

  function say(text, kind = "info") {
    answer.textContent = text;
    answer.dataset.kind = kind;
  }

  function startLesson(i) {
    index = i;
    play = { moves: [], positions: [lessons[i].position], done: false };
    say("");
    render(true);
  }

  function lessonList() {
    return h("nav", { class: "tutorial-lessons", "aria-label": t("Lessons") },
      h("ol", {}, lessons.map((lesson, i) => h("li", {},
        h("button", {
          type: "button",
          "aria-current": i === index ? "step" : null,
          onclick: () => startLesson(i),
        }, t(TEXTS[lesson.key][0]),
        done.has(lesson.number) ? h("span", { class: "tutorial-done" }, " ✓ ", t("done")) : null)))));
  }

  function render(focus) {
    const lesson = lessons[index];
    const [title, intro] = TEXTS[lesson.key];
    const position = play.positions.at(-1);
    const field = h("input", {
      id: "tutorial-move", type: "text", autocomplete: "off", spellcheck: "false",
      autocapitalize: "characters", inputmode: "text", "aria-describedby": "tutorial-goal",
    });
    const form = h("form", { class: "tutorial-form", onsubmit: (event) => {
      event.preventDefault();
      const text = field.value.trim();
      if (!text) return;
      field.value = "";
      const lower = text.toLowerCase();
      if (lower === "u" || lower === "undo") undo();
      else submit(text);
    } },
    h("label", { for: "tutorial-move" }, t("Your move")), field, keypad(field, position),
    h("button", { type: "submit", class: "primary" }, t("Play")),
    h("button", { type: "button", onclick: () => undo() }, t("Undo")),
    h("button", { type: "button", onclick: () => startLesson(index) }, t("Restart the lesson")));
    const steps = TEXTS[lesson.key].length - 2;
    const goal = play.done
      ? t("Lesson done.")
      : goalText(lesson.key, Math.min(play.moves.length, steps - 1));
    const after = play.done ? nextLink() : form;
    const section = h("section", { class: "page tutorial" },
      h("h1", {}, t("Tutorial")),
      lessonList(),
      h("section", { class: "tutorial-lesson", "aria-labelledby": "tutorial-title",
        "data-step": `${index + 1}.${play.moves.length}`, "data-done": play.done ? "yes" : "no" },
        h("h2", { id: "tutorial-title" },
          t("Lesson {n} of {total}: {title}", { n: index + 1, total: lessons.length,
            title: t(title) })),
        h("p", {}, t(intro)),
        h("p", { id: "tutorial-goal", class: "tutorial-goal" }, h("strong", {}, t("Goal:")), " ",
          goal),
        diagram(position.columns, { reprieve: position.reprieve, moved: position.moved,
          bad: position.unsettled || [] }),
        position.reprieve
          ? h("p", {}, t("A reprieve is open in column {col}.", { col: position.reprieve }))
          : null,
        after, answer));
    clear(main).append(section);
    if (!focus) return;
    const target = play.done ? section.querySelector(".tutorial-next") : field;
    if (target) target.focus();
  }

  function nextLink() {
    if (index + 1 < lessons.length) {
      return h("p", {}, h("button", { type: "button", class: "primary tutorial-next",
        onclick: () => startLesson(index + 1) }, t("Next lesson")));
    }
    return h("p", {}, t("You have finished the tutorial."), " ",
      h("a", { class: "button primary tutorial-next", href: "/play/one-deck", "data-link": true },
        t("Play one-deck Milligan")));
  }

  function undo() {
    const lesson = lessons[index];
    const step = TEXTS[lesson.key].length - 2;
    if (lesson.key === "dead" && play.moves.length === step - 1) {
      submit("undo");
      return;
    }
    if (play.moves.length) {
      play.moves.pop();
      play.positions.pop();
      say(t("Move taken back."));
      render(true);
    } else {
      say(t("There is no move to take back."), "error");
    }
  }

  async function submit(move) {
    const lesson = lessons[index];
    try {
      const reply = await call("POST", `/api/tutorial/${lesson.number}/moves`,
        { moves: play.moves, move });
      if (!alive) return;
      if (!reply.accepted) {
        say(t("That move is allowed, but this lesson asks for another one."), "error");
        return;
      }
      play.moves = reply.moves;
      play.positions.push(reply.position);
      play.done = reply.done;
      if (reply.done) {
        done.add(lesson.number);
        saveDone(done);
        say(t("Well done! Lesson done."), "good");
      } else {
        say(t("Well done!"), "good");
      }
      render(true);
    } catch (error) {
      if (!alive) return;
      const text = error.code === "invalid" && error.status === 422
        ? t("Write a move as 3>5, 3:2>5, 4>F, D or S.") : errorText(error);
      say(text, "error");
      const field = document.getElementById("tutorial-move");
      if (field) field.focus();
    }
  }

  clear(main).append(h("p", { class: "page loading" }, t("Loading…")));
  call("GET", "/api/tutorial").then((data) => {
    if (!alive) return;
    lessons = data.lessons;
    const first = lessons.findIndex((lesson) => !done.has(lesson.number));
    startLesson(first < 0 ? 0 : first);
  }).catch((error) => {
    if (alive) clear(main).append(h("p", { class: "page" }, errorText(error)));
  });
  return () => { alive = false; };
}
