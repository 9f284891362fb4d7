// Settings > Appearance: Light, Dark or System (the device's setting), applied
// at once and kept for the next visit.
import { useSnapshot } from "valtio";
import { appInfo, setTheme, THEME_CHOICES, type ThemeChoice } from "../../state/app";

const LABELS: Record<ThemeChoice, string> = { light: "Light", dark: "Dark", system: "System" };

export function AppearancePanel() {
  const { theme } = useSnapshot(appInfo);
  return (
    <fieldset className="appearance-choice">
      <legend>Theme</legend>
      {THEME_CHOICES.map((choice) => (
        <label key={choice}>
          <input type="radio" name="theme" value={choice} checked={theme === choice} onChange={() => setTheme(choice)} />
          {LABELS[choice]}
        </label>
      ))}
      <p className="muted">System follows your device's light or dark setting.</p>
    </fieldset>
  );
}
