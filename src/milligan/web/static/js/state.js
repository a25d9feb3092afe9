// The table's state, and the only ways it changes.
//
// The flow, one way round:
//   1. `game` is the server's last answer; `ui` is the ONE object that holds what the page
//      adds to it (selection, keyboard depth, hint, cards out of place, message, playback).
//   2. Nothing else writes them: a server answer goes through apply(reply), a gesture or a
//      button through one of the small named actions below.
//   3. Every action ends in exactly one render() of the whole table (render.js), which reads
//      the state and writes the page, never the other way.
// Two things are not state: keyboard focus belongs to the document (focus events only
// re-mark the pick-up depth), and the clock's running seconds repaint the info line alone.

export class TableState {
  /** render() is called once after every change; renderClock() after each tick. */
  constructor(render, renderClock) {
    this.render = render;
    this.renderClock = renderClock;
    this.game = null;
    this.ui = {
      selected: null,     // {col, count} picked up by tap or keyboard
      focusCol: 1,        // the column the keyboard works on
      depth: 1,           // keyboard: how many cards the next pick-up takes
      hint: null,         // the hint answer being shown: {move, win_chance, win_estimate, ...}
      badCards: [],       // [[col, index]] out of place after a refused close
      message: null,      // {text, kind} shown above the table
      playback: null,     // {moves, index, playing}: a solution being played back
      seconds: 0,         // playing time at the last answer
      compact: false,     // small cards (set by the layout)
    };
  }

  /** A new game from the server; `move` led to it; `quiet` clears the message. */
  apply(reply, { move = null, quiet = false } = {}) {
    if (quiet) this.ui.message = null;
    this.take(reply, move);
    this.render();
  }

  take(reply, move) {
    const ui = this.ui;
    this.game = reply;
    ui.seconds = reply.seconds || 0;
    ui.selected = null;
    ui.hint = null;
    if (move !== "S") ui.badCards = [];
    if (ui.focusCol > reply.columns.length) ui.focusCol = 1;
    if (reply.status !== "playing") ui.playback = null;
  }

  /** One second more of play: only the info line shows it. */
  tick() {
    this.ui.seconds += 1;
    this.renderClock();
  }

  select(selection) {
    this.ui.selected = selection;
    this.render();
  }

  /** Keyboard: pick up the selection; the next pick-up starts from one card again. */
  pickUp(selection) {
    this.ui.selected = selection;
    this.ui.depth = 1;
    this.render();
  }

  /** The keyboard's column follows focus. Not rendered: focus marks are the document's. */
  noteFocus(col) {
    this.ui.focusCol = col;
  }

  /** Keyboard: work on column col (from 1), picking up one card. */
  focusColumn(col) {
    this.ui.focusCol = col;
    this.ui.depth = 1;
    this.render();
  }

  setDepth(depth) {
    this.ui.depth = depth;
    this.render();
  }

  /** A refused move: nothing stays picked up; the cards a refusal names are out of place. */
  refused(cards) {
    this.ui.selected = null;
    if (cards && cards.length) this.ui.badCards = cards;
    this.render();
  }

  say(text, kind = "info") {
    this.ui.message = { text, kind };
    this.render();
  }

  quiet() {
    this.ui.message = null;
    this.render();
  }

  /** The game as it is after the hint was counted, with the hint shown on it. */
  showHint(reply, hint, text) {
    this.take(reply, null);
    this.ui.hint = hint;
    this.ui.message = { text, kind: "hint" };
    this.render();
  }

  startPlayback(moves) {
    this.ui.playback = { moves, index: 0, playing: false };
    this.ui.message = null;
    this.render();
  }

  /** The playback moved on by one move (ok) or stopped at a refused one. */
  stepped(ok) {
    const p = this.ui.playback;
    if (!p) return;
    if (ok) p.index += 1;
    if (!ok || p.index >= p.moves.length) p.playing = false;
    this.render();
  }

  setPlaying(playing) {
    if (!this.ui.playback) return;
    this.ui.playback.playing = playing;
    this.render();
  }

  stopPlayback() {
    if (!this.ui.playback) return;
    this.ui.playback = null;
    this.render();
  }

  setCompact(compact) {
    this.ui.compact = compact;
    this.render();
  }
}
