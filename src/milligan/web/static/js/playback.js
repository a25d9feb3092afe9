// Solution playback: the solver's moves played one by one, by timer or by step.

const PLAYBACK_STEP = 700;   // milliseconds between solution moves

export class Playback {
  /** For a view ({state, play, busy}); the moves and the place live in state.ui.playback. */
  constructor(view) {
    this.view = view;
    this.timer = 0;
  }

  get current() {
    return this.view.state.ui.playback;
  }

  start(moves) {
    this.clearTimer();
    this.view.state.startPlayback(moves);
  }

  async step() {
    const p = this.current;
    if (!p || this.view.busy) return;
    if (p.index >= p.moves.length) {
      this.pause();
      return;
    }
    const ok = await this.view.play(p.moves[p.index]);
    if (this.current !== p) {
      this.clearTimer();  // closed, or the game ended, while the move was on its way
      return;
    }
    this.view.state.stepped(ok);
    if (!p.playing) this.clearTimer();
  }

  toggle() {
    const p = this.current;
    if (!p) return;
    if (p.playing) {
      this.pause();
      return;
    }
    this.timer = window.setInterval(() => this.step(), PLAYBACK_STEP);
    this.view.state.setPlaying(true);
  }

  pause() {
    this.clearTimer();
    this.view.state.setPlaying(false);
  }

  stop() {
    this.clearTimer();
    this.view.state.stopPlayback();
  }

  clearTimer() {
    window.clearInterval(this.timer);
    this.timer = 0;
  }
}
