// Dialogs: new game, settings, confirmation, share link.

import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { t, LANGUAGES, language } from "./i18n.js";
import { settings, saveSettings } from "./settings.js";
import { VARIANTS, variantTitle } from "./variants.js";

function modal(className, titleText, build) {
  const dialog = h("dialog", { class: className, "aria-labelledby": `${className}-title` });
  const close = () => {
    dialog.close();
    dialog.remove();
  };
  const form = h("form", { method: "dialog" });
  form.append(h("h2", { id: `${className}-title` }, titleText));
  build(form, close);
  dialog.append(form);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, close };
}

/** Ask before something drastic; resolves true when confirmed. */
export function confirmDialog(question, okLabel) {
  return new Promise((resolve) => {
    let answered = false;
    const { dialog } = modal("confirm-dialog", question, (form, close) => {
      form.append(h("div", { class: "buttons" },
        h("button", { type: "button", onclick: () => { close(); } }, t("Cancel")),
        h("button", { type: "button", class: "primary", "data-action": "confirm",
          onclick: () => { answered = true; close(); } }, okLabel)));
    });
    dialog.addEventListener("close", () => resolve(answered));
  });
}

/** Show a deal's share link with a copy button. */
export function shareDialog(url) {
  modal("share-dialog", t("Share this deal"), (form, close) => {
    const input = h("input", { type: "text", readonly: true, value: url, class: "share-link",
      "aria-label": t("Link to this deal") });
    form.append(h("p", {}, t("Anyone with this link gets the same cards.")), input,
      h("div", { class: "buttons" },
        h("button", { type: "button", onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
            toast(t("Link copied."));
          } catch {
            input.select();
            toast(t("Select the link and copy it."));
          }
        } }, t("Copy")),
        h("button", { type: "button", class: "primary", onclick: close }, t("Close"))));
    window.setTimeout(() => input.select(), 0);
  });
}

/** Choose a variant and a random or numbered deal, then start it. */
export function openNewGameDialog(app, current) {
  const currentVariant = current && typeof current.variant === "string"
    ? current.variant : settings.variant || "classic";
  modal("new-game-dialog", t("New game"), (form, close) => {
    const select = h("select", { id: "new-variant", name: "variant" },
      VARIANTS.map((key) => h("option", { value: key, selected: key === currentVariant },
        variantTitle(key))));
    const random = h("input", { type: "radio", name: "deal-kind", id: "deal-random",
      value: "random", checked: true });
    const winnable = h("input", { type: "radio", name: "deal-kind", id: "deal-winnable",
      value: "winnable" });
    const numbered = h("input", { type: "radio", name: "deal-kind", id: "deal-numbered",
      value: "numbered" });
    const number = h("input", { type: "number", id: "deal-number", min: "0", step: "1",
      inputmode: "numeric", "aria-label": t("Deal number"), placeholder: "42" });
    number.addEventListener("input", () => { numbered.checked = true; });
    const error = h("p", { class: "form-error", role: "alert" });
    form.append(
      h("label", { for: "new-variant" }, t("Variant")), select,
      h("fieldset", {}, h("legend", {}, t("Deal")),
        h("div", { class: "radio" }, random, h("label", { for: "deal-random" }, t("Random deal"))),
        h("div", { class: "radio" }, winnable, h("label", { for: "deal-winnable" },
          t("Random deal proven winnable"))),
        h("div", { class: "radio" }, numbered, h("label", { for: "deal-numbered" },
          t("Deal number")), number)),
      error,
      h("div", { class: "buttons" },
        h("button", { type: "button", onclick: close }, t("Cancel")),
        h("button", { type: "submit", class: "primary", "data-action": "start" }, t("Start"))));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      let deal = null;
      if (numbered.checked) {
        const text = number.value.trim();
        if (!/^\d+$/.test(text)) {
          error.textContent = t("A deal number is a whole number from 0 up.");
          return;
        }
        deal = Number(text);
        if (!Number.isSafeInteger(deal)) deal = text;
      }
      settings.variant = select.value;
      saveSettings();
      try {
        const game = await api.create(select.value, deal, winnable.checked);
        close();
        app.navigate(`/game/${game.id}`);
      } catch (problem) {
        error.textContent = problem.message;
      }
    });
  });
}

/** Language, four-colour deck, animations and auto-move. */
export function openSettingsDialog(app) {
  modal("settings-dialog", t("Settings"), (form, close) => {
    const languageSelect = h("select", { id: "setting-language" },
      Object.entries(LANGUAGES).map(([code, name]) =>
        h("option", { value: code, selected: code === language() }, name)));
    const check = (id, key, label) => {
      const box = h("input", { type: "checkbox", id, checked: !!settings[key] });
      box.addEventListener("change", () => {
        settings[key] = box.checked;
        saveSettings();
        app.refresh();
      });
      return h("div", { class: "check" }, box, h("label", { for: id }, label));
    };
    languageSelect.addEventListener("change", async () => {
      settings.language = languageSelect.value;
      saveSettings();
      await app.setLanguage(languageSelect.value);
      close();
    });
    form.append(
      h("label", { for: "setting-language" }, t("Language")), languageSelect,
      check("setting-four", "fourColour", t("Four-colour deck")),
      check("setting-animations", "animations", t("Animations")),
      check("setting-auto", "autoMove", t("Move safe cards to the foundations automatically")),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", onclick: close }, t("Close"))));
  });
}
