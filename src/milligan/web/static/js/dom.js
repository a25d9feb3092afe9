// Small DOM helpers shared by every view.

/** Create an element: h("button", {class: "x", onclick: fn}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "html") {
      el.innerHTML = value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Remove every child of an element. */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Say something to screen readers through the polite live region. */
export function announce(text) {
  const region = document.getElementById("live");
  if (!region) return;
  // Re-setting the same text would not be read again; clear first.
  region.textContent = "";
  window.setTimeout(() => { region.textContent = text; }, 30);
}

let toastTimer = 0;

/** Show a short message at the bottom of the screen (and announce it). */
export function toast(text, kind = "info", ms = 3500) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.className = `toast show ${kind}`;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => { el.className = "toast"; }, ms);
  announce(text);
}

/** Format seconds as m:ss or h:mm:ss. */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.round(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** Whether movement should be animated (setting on, no reduced-motion request). */
export function motionAllowed(settings) {
  if (!settings.animations) return false;
  return !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
