// Player settings, kept in localStorage.

const KEY = "milligan.settings";

const DEFAULTS = {
  language: null,
  fourColour: false,
  animations: true,
  autoMove: false,
  variant: "classic",
};

export const settings = { ...DEFAULTS };

export function loadSettings() {
  try {
    const saved = JSON.parse(window.localStorage.getItem(KEY) || "{}");
    for (const key of Object.keys(DEFAULTS)) {
      if (key in saved) settings[key] = saved[key];
    }
  } catch {
    // A broken entry is ignored: the defaults stay.
  }
  return settings;
}

export function saveSettings() {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Private mode or full storage: settings last for this visit only.
  }
}
