// The game table: one game on the page, put together from small parts.
//
//   state.js     the server's game and the one UI state object; every change renders once
//   render.js    the frame and render(): the page written from the state
//   layout.js    card sizes, squeezed columns, the flights of moved cards
//   input.js     pointer (drag, tap, double tap) and keyboard play
//   playback.js  the solver's solution played back
//   hints.js     hints and solutions from the server
//   moves.js     move notation and move descriptions
//   reasons.js   refusals and other errors in words
//
// The view below sends moves and actions to the server and hands each answer to the
// state (apply); what the answer changes on the page is render()'s business.

import { api } from "./api.js";
import { h, clear, announce, toast, duration, motionAllowed } from "./dom.js";
import { t } from "./i18n.js";
import { settings } from "./settings.js";
import { openNewGameDialog, confirmDialog, shareDialog } from "./dialogs.js";
import { TableState } from "./state.js";
import { buildFrame, render, renderInfo, reprieveHelp } from "./render.js";
import { layout, snapshot, animate } from "./layout.js";
import { Input } from "./input.js";
import { Playback } from "./playback.js";
import { analysisButton } from "./analysis.js";
import { dailyPath } from "./daily.js";
import { showHint, solve } from "./hints.js";
import { describeMove, variantKey } from "./moves.js";
import { errorText } from "./reasons.js";

/** Show the game with this id in main; returns a function that tears the view down. */
export function showGame(main, id, app) {
  const view = new GameView(main, id, app);
  view.start();
  return () => view.destroy();
}

class GameView {
  constructor(main, id, app) {
    this.main = main;
    this.id = id;
    this.app = app;
    this.busy = false;          // a move or an action is on its way to the server
    this.destroyed = false;
    this.clock = 0;
    this.shownEnd = null;       // the revision whose end of game is on show
    this.els = buildFrame(main, {
      newGame: () => openNewGameDialog(app, this.state.game),
      restart: () => this.restart(),
      undo: () => this.action("undo"),
      redo: () => this.action("redo"),
      hint: () => this.hint(),
      solve: () => solve(this),
      share: () => this.share(),
      resign: () => this.resign(),
      stop: () => this.play("S"),
      deal: () => this.deal(),
      togglePlayback: () => this.playback.toggle(),
      stepPlayback: () => this.playback.step(),
      closePlayback: () => this.playback.stop(),
    });
    this.state = new TableState(() => render(this.els, this.state),
      () => renderInfo(this.els, this.state));
    this.input = new Input(this);
    this.playback = new Playback(this);
    this.onResize = () => layout(this.els, this.state);
  }

  async start() {
    window.addEventListener("resize", this.onResize);
    try {
      const game = await api.game(this.id);
      if (this.destroyed) return;
      this.setGame(game);
      this.autoMove();
    } catch (error) {
      if (this.destroyed) return;
      clear(this.main).append(h("section", { class: "page" },
        h("h1", {}, t("Game not found")),
        h("p", {}, errorText(error)),
        h("p", {}, h("a", { href: "/", "data-link": true }, t("Back to the start page")))));
      return;
    }
    try {
      window.localStorage.setItem("milligan.lastGame", this.id);
    } catch {
      // Not fatal: the resume list comes from the server anyway.
    }
    this.clock = window.setInterval(() => this.tick(), 1000);
  }

  destroy() {
    this.input.destroy();
    window.removeEventListener("resize", this.onResize);
    window.clearInterval(this.clock);
    this.playback.clearTimer();
    this.destroyed = true;
  }

  /** A server answer: into the state (one render), then the flight and the announcements. */
  setGame(game, { move = null, quiet = false } = {}) {
    const before = move ? snapshot(this.els, move) : null;
    const previous = this.state.game;
    this.state.apply(game, { move, quiet });
    if (before) animate(this.els, game, move, before);
    if (previous && previous.reprieve === null && game.reprieve !== null) {
      announce(t("Reprieve open: column {n} is empty.", { n: game.reprieve }) + " "
        + reprieveHelp(game));
    }
    if (previous && previous.reprieve !== null && game.reprieve === null
      && game.status === "playing") {
      announce(t("The reprieve is over."));
    }
    this.showEnd();
  }

  async refetch() {
    const game = await api.game(this.id);
    if (!this.destroyed) this.setGame(game);
  }

  tick() {
    const game = this.state.game;
    if (!game || game.status !== "playing" || document.hidden) return;
    this.state.tick();
  }

  // -- moves and actions ---------------------------------------------------------

  /** Send a move; true when the server played it. */
  async play(move, { quiet = false } = {}) {
    const previous = this.state.game;
    if (this.busy || !previous || previous.status !== "playing") return false;
    this.busy = true;
    const words = describeMove(move, previous);
    try {
      const game = await api.move(this.id, move, previous.revision);
      this.setGame(game, { move, quiet: true });
      if (!quiet) announce(words);
      return true;
    } catch (error) {
      this.failed(error);
      return false;
    } finally {
      this.busy = false;
      if (!this.state.ui.playback) this.autoMove();
    }
  }

  failed(error) {
    if (error.code === "stale") {
      this.refetch();
      toast(t("The game changed in another window; it has been reloaded."));
      return;
    }
    this.state.refused(error.cards);
    toast(errorText(error), "error", 6000);
  }

  autoMove() {
    const game = this.state.game;
    if (!settings.autoMove || this.busy || !game || game.status !== "playing") return;
    if (game.reprieve !== null && game.reprieve !== undefined) return;
    const safe = game.safe || [];
    if (!safe.length) return;
    window.setTimeout(() => this.play(safe[0], { quiet: false }),
      motionAllowed(settings) ? 160 : 0);
  }

  async action(name) {
    const game = this.state.game;
    if (this.busy || !game) return;
    if (name === "undo" && !game.can_undo) return;
    if (name === "redo" && !game.can_redo) return;
    this.busy = true;
    try {
      this.setGame(await api.action(this.id, name, game.revision), { quiet: true });
      const said = { undo: t("Move undone."), redo: t("Move redone."),
        restart: t("The deal starts again."), resign: t("You resigned this game.") }[name];
      announce(said);
    } catch (error) {
      this.failed(error);
    } finally {
      this.busy = false;
    }
  }

  async restart() {
    if (await confirmDialog(t("Start this deal again from the beginning?"), t("Restart"))) {
      this.action("restart");
    }
  }

  async resign() {
    if (await confirmDialog(t("Give up this game? It counts as lost."), t("Resign"))) {
      this.action("resign");
    }
  }

  deal() {
    const game = this.state.game;
    if (!game || game.stock === 0) {
      toast(t("The stock is empty."), "error");
      return;
    }
    this.play("D");
  }

  hint() {
    return showHint(this);
  }

  share() {
    const game = this.state.game;
    if (game.deal === null || game.deal === undefined) return;
    shareDialog(`${window.location.origin}/play/${variantKey(game.variant)}/${game.deal}`);
  }

  // -- the end of a game ---------------------------------------------------------------

  showEnd() {
    const game = this.state.game;
    if (game.status === "playing") {
      this.shownEnd = null;
      const overlay = this.main.querySelector(".end-overlay");
      if (overlay) overlay.remove();
      return;
    }
    if (this.shownEnd === game.revision) return;
    this.shownEnd = game.revision;
    this.playback.clearTimer();
    const old = this.main.querySelector(".end-overlay");
    if (old) old.remove();
    const newGame = () => openNewGameDialog(this.app, game);
    let title;
    let body;
    const buttons = [];
    if (game.status === "won") {
      title = t("You won!");
      body = t("All cards are on the foundations in {moves} moves and {time}.",
        { moves: game.moves, time: duration(this.state.ui.seconds) });
      buttons.push(h("button", { type: "button", class: "primary", onclick: newGame },
        t("New game")));
      buttons.push(h("a", { class: "button", href: "/stats", "data-link": true },
        t("Statistics")));
    } else if (game.status === "lost") {
      title = t("Dead end");
      body = t("The stock is empty and no move can help any more.");
      buttons.push(h("button", { type: "button", class: "primary",
        onclick: () => this.action("undo") }, t("Undo")));
      buttons.push(h("button", { type: "button", onclick: newGame }, t("New game")));
    } else {
      title = t("Game resigned");
      body = t("This game is over.");
      buttons.push(h("button", { type: "button", class: "primary", onclick: newGame },
        t("New game")));
    }
    if (game.daily) {
      // The daily page holds the share text and the streak: the way on from a daily game.
      const back = h("a", { class: "button daily-back", href:
        dailyPath(variantKey(game.variant), game.daily), "data-link": true },
      t("Back to the daily deal"));
      if (game.status === "lost") {
        buttons.splice(1, 0, back);  // after Undo, still the first thing to try at a dead end
      } else {
        buttons[0].classList.remove("primary");
        back.classList.add("primary");
        buttons.unshift(back);
      }
    }
    const analysis = game.status === "won" ? null : analysisButton(this);
    if (analysis) buttons.push(analysis.button);
    const overlay = h("div", { class: `end-overlay ${game.status}`, role: "dialog",
      "aria-modal": "false", "aria-labelledby": "end-title" },
    h("div", { class: "end-box" }, h("h2", { id: "end-title" }, title), h("p", {}, body),
      h("div", { class: "buttons" }, buttons), analysis && analysis.out));
    this.els.table.append(overlay);
    announce(`${title} ${body}`);
    const first = overlay.querySelector("button, a");
    if (first) first.focus();
  }
}
