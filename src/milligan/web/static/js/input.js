// Playing by hand: pointer (drag and drop, tap, double tap) and keyboard. Gestures end in
// the table's named actions (state.js) or in a move sent through the view's play().

import { cardName } from "./cards.js";
import { h, announce, toast, motionAllowed } from "./dom.js";
import { t, nt } from "./i18n.js";
import { settings } from "./settings.js";
import { moveText, runLength } from "./moves.js";
import { columnEl, markKeyboardDepth } from "./render.js";

const DRAG_START = 6;        // pixels before a press becomes a drag
const DOUBLE_TAP = 380;      // milliseconds between the taps of a double tap

/** Pointer and keyboard play for a view ({els, state, play, action, hint, deal}). */
export class Input {
  constructor(view) {
    this.view = view;
    this.drag = null;           // the cards being dragged: {col, count, els, ghost}
    this.lastTap = { col: 0, time: 0 };
    this.onKey = (event) => this.keydown(event);
    const { els } = view;
    els.table.addEventListener("pointerdown", (event) => this.pointerDown(event));
    els.tableau.addEventListener("click", (event) => {
      if (event.target.closest(".card")) return;
      const column = event.target.closest(".column");
      if (column) this.tapColumn(Number(column.dataset.col));
    });
    els.foundations.addEventListener("click", (event) => {
      if (event.target.closest(".foundation")) this.tapFoundation();
    });
    // Focus is the document's, not the table's state: it only moves the pick-up marks.
    els.table.addEventListener("focusin", (event) => {
      const column = event.target.closest(".column");
      if (column && view.state.game) {
        view.state.noteFocus(Number(column.dataset.col));
        markKeyboardDepth(els, view.state);
      }
    });
    els.table.addEventListener("focusout", () => {
      window.setTimeout(() => { if (view.state.game) markKeyboardDepth(els, view.state); }, 0);
    });
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  get game() {
    return this.view.state.game;
  }

  get selected() {
    return this.view.state.ui.selected;
  }

  // -- pointer ---------------------------------------------------------------------

  pointerDown(event) {
    if (event.button !== 0 || this.view.busy || !this.game) return;
    const cardEl = event.target.closest(".tableau .card");
    if (!cardEl) return;
    const col = Number(cardEl.dataset.col);
    const index = Number(cardEl.dataset.idx);
    const count = this.game.columns[col - 1].length - index;
    const start = { x: event.clientX, y: event.clientY };
    const pointer = event.pointerId;
    const target = event.currentTarget;
    let dragging = false;
    const move = (e) => {
      if (e.pointerId !== pointer) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      if (!dragging && Math.hypot(dx, dy) > DRAG_START) {
        dragging = true;
        this.beginDrag(col, count);
      }
      if (dragging) {
        e.preventDefault();
        this.drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
        this.highlightDrop(e.clientX, e.clientY);
      }
    };
    const up = (e) => {
      if (e.pointerId !== pointer) return;
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
      target.removeEventListener("pointercancel", up);
      if (dragging) {
        this.endDrag(e.type === "pointercancel" ? null : this.dropTarget(e.clientX, e.clientY));
      } else if (e.type === "pointerup") {
        this.tapCard(col, index);
      }
    };
    target.setPointerCapture(pointer);
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
    target.addEventListener("pointercancel", up);
  }

  beginDrag(col, count) {
    if (this.selected) this.view.state.select(null);  // before the cards are lifted
    const els = [...columnEl(this.view.els, col).querySelectorAll(".card")].slice(-count);
    const first = els[0].getBoundingClientRect();
    const ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" });
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    for (const el of els) {
      const rect = el.getBoundingClientRect();
      const copy = el.cloneNode(true);
      copy.classList.remove("selected", "pickup", "hinted");
      copy.style.top = `${rect.top - first.top}px`;
      copy.style.left = "0px";
      ghost.append(copy);
      el.classList.add("lifted");
    }
    ghost.style.setProperty("--card-w", `${first.width}px`);
    ghost.style.setProperty("--card-h", `${first.height}px`);
    document.body.append(ghost);
    this.drag = { col, count, els, ghost };
  }

  dropTarget(x, y) {
    const ghost = this.drag.ghost;
    ghost.style.display = "none";
    const under = document.elementFromPoint(x, y);
    ghost.style.display = "";
    const pile = under ? under.closest("[data-drop]") : null;
    if (pile) return pile.dataset.drop;
    // Forgiving drop: the column whose span holds the pointer, below the top row.
    const tableau = this.view.els.tableau;
    if (y >= tableau.getBoundingClientRect().top - 10) {
      for (const column of tableau.querySelectorAll(".column")) {
        const r = column.getBoundingClientRect();
        if (x >= r.left - 6 && x <= r.right + 6) return column.dataset.col;
      }
    }
    return null;
  }

  clearDrop() {
    for (const el of this.view.els.table.querySelectorAll(".drop-over")) {
      el.classList.remove("drop-over");
    }
  }

  highlightDrop(x, y) {
    const target = this.dropTarget(x, y);
    this.clearDrop();
    if (!target || target === "stock") return;
    const { els } = this.view;
    const el = target === "F" ? els.foundations : columnEl(els, Number(target));
    if (el) el.classList.add("drop-over");
  }

  async endDrag(target) {
    const drag = this.drag;
    this.drag = null;
    this.clearDrop();
    const snapBack = () => {
      const done = () => {
        drag.ghost.remove();
        for (const el of drag.els) el.classList.remove("lifted");
      };
      if (!motionAllowed(settings)) return done();
      const animation = drag.ghost.animate(
        [{ transform: drag.ghost.style.transform }, { transform: "none" }],
        { duration: 180, easing: "ease-out" });
      animation.onfinish = done;
    };
    let move = null;
    if (target === "F") {
      if (drag.count !== 1) {
        snapBack();
        toast(t("Only one card at a time goes to a foundation."), "error");
        return;
      }
      move = moveText(drag.col, 1, "F");
    } else if (target && target !== "stock" && Number(target) !== drag.col) {
      move = moveText(drag.col, drag.count, Number(target));
    }
    if (!move) {
      snapBack();
      return;
    }
    // A refused move re-renders the table; the ghost then returns to where the cards are.
    if (await this.view.play(move)) drag.ghost.remove();
    else snapBack();
  }

  // -- taps ---------------------------------------------------------------------------

  tapCard(col, index) {
    const cards = this.game.columns[col - 1];
    const now = Date.now();
    const top = index === cards.length - 1;
    if (top && this.lastTap.col === col && now - this.lastTap.time < DOUBLE_TAP) {
      this.lastTap = { col: 0, time: 0 };
      this.view.play(moveText(col, 1, "F"));
      return;
    }
    this.lastTap = { col: top ? col : 0, time: now };
    const selected = this.selected;
    if (selected) {
      this.select(null);
      if (selected.col !== col) this.view.play(moveText(selected.col, selected.count, col));
      return;
    }
    this.select({ col, count: cards.length - index });
  }

  tapColumn(col) {
    const selected = this.selected;
    if (!selected || selected.col === col) return;
    this.select(null);
    this.view.play(moveText(selected.col, selected.count, col));
  }

  tapFoundation() {
    const selected = this.selected;
    if (!selected) return;
    this.select(null);
    if (selected.count !== 1) {
      toast(t("Only one card at a time goes to a foundation."), "error");
      return;
    }
    this.view.play(moveText(selected.col, 1, "F"));
  }

  select(selection, { fromKeys = false } = {}) {
    if (fromKeys) this.view.state.pickUp(selection);
    else this.view.state.select(selection);
    if (!selection) return;
    const cards = this.game.columns[selection.col - 1];
    const base = cards[cards.length - selection.count];
    announce(selection.count > 1
      ? nt("Picked up {card} with {n} card above it from column {col}. Choose a target.",
        "Picked up {card} with {n} cards above it from column {col}. Choose a target.",
        selection.count - 1, { card: cardName(base), col: selection.col })
      : t("Picked up {card} from column {col}. Choose a target.",
        { card: cardName(base), col: selection.col }));
  }

  // -- keyboard -----------------------------------------------------------------------

  keydown(event) {
    const view = this.view;
    if (!this.game || event.defaultPrevented) return;
    if (document.querySelector("dialog[open]")) return;
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const key = event.key;
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && (key === "z" || key === "Z")) {
      event.preventDefault();
      view.action(event.shiftKey ? "redo" : "undo");
      return;
    }
    if (ctrl && (key === "y" || key === "Y")) {
      event.preventDefault();
      view.action("redo");
      return;
    }
    if (ctrl || event.altKey) return;
    const inTable = !!event.target.closest && !!event.target.closest(".table");
    const ui = view.state.ui;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    switch (lower) {
      case "u": view.action("undo"); break;
      case "h": view.hint(); break;
      case "d": view.deal(); break;
      case "e":
        if (this.game.reprieve !== null) view.play("S");
        break;
      case "f": {
        event.preventDefault();
        const col = this.selected ? this.selected.col : ui.focusCol;
        if (this.selected && this.selected.count !== 1) {
          toast(t("Only one card at a time goes to a foundation."), "error");
          break;
        }
        view.play(moveText(col, 1, "F"));
        break;
      }
      case "Escape":
        if (this.selected) {
          this.select(null);
          announce(t("Nothing picked up."));
        }
        break;
      case "ArrowLeft":
      case "ArrowRight":
        if (!inTable && event.target !== document.body) return;
        event.preventDefault();
        this.focusColumn(ui.focusCol + (key === "ArrowLeft" ? -1 : 1));
        break;
      case "ArrowUp":
      case "ArrowDown": {
        if (!event.target.classList || !event.target.classList.contains("column")) return;
        event.preventDefault();
        if (this.selected) break;
        const cards = this.game.columns[ui.focusCol - 1];
        const open = this.game.reprieve !== null ? cards.length : runLength(cards);
        const most = Math.max(1, open);
        view.state.setDepth(Math.max(1, Math.min(most, ui.depth + (key === "ArrowUp" ? 1 : -1))));
        const base = cards[cards.length - ui.depth];
        if (base) announce(nt("{card}: {n} card", "{card}: {n} cards", ui.depth,
          { card: cardName(base) }));
        break;
      }
      case "Enter":
      case " ": {
        const el = event.target;
        if (el.classList && el.classList.contains("column")) {
          event.preventDefault();
          this.keyPick(Number(el.dataset.col));
        } else if (el === view.els.stock) {
          event.preventDefault();
          view.deal();
        } else if (el.classList && el.classList.contains("foundation")) {
          event.preventDefault();
          this.tapFoundation();
        }
        break;
      }
      default:
        return;
    }
  }

  focusColumn(col) {
    const { els, state } = this.view;
    const n = this.game.columns.length;
    const next = ((col - 1 + n) % n) + 1;
    state.focusColumn(next);  // the render gives focus back to the old column for now
    const el = columnEl(els, next);
    if (el) el.focus();
    markKeyboardDepth(els, state);
  }

  keyPick(col) {
    const ui = this.view.state.ui;
    if (this.selected) {
      this.tapColumn(col);
      if (this.selected && this.selected.col === col) {
        this.select(null);
        announce(t("Nothing picked up."));
      }
      return;
    }
    const cards = this.game.columns[col - 1];
    if (!cards.length) {
      announce(t("Column {col}: empty", { col }));
      return;
    }
    this.select({ col, count: Math.min(ui.depth, cards.length) }, { fromKeys: true });
  }
}
