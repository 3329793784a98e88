export type ThemePreference = "light" | "dark" | "system";

/** Local storage key of the theme preference (the app always renders dark). */
export const THEME_KEY = "theme";

export function readThemePreference(): ThemePreference {
  const stored = localStorage.getItem(THEME_KEY);
  return stored === "light" || stored === "dark" || stored === "system" ? stored : "dark";
}

/** Stores the preference; the product stays in its dark theme whatever is chosen. */
export function initTheme(): ThemePreference {
  const pref = readThemePreference();
  localStorage.setItem(THEME_KEY, pref);
  document.documentElement.classList.add("dark");
  document.documentElement.style.colorScheme = "dark";
  return pref;
}
