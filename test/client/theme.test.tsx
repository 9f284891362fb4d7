// Proves the theme choice: Settings > Appearance sets Light / Dark / System, the
// page's data-theme follows it (System: the device's setting, also when it
// changes), and the choice is saved with the app state and restored on the next
// visit; a logout keeps it (it is the device's look, not the account's data).
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { subscribeKey } from "valtio/utils";
import { AppearancePanel } from "../../client/components/settings/AppearancePanel";
import { STORAGE_KEYS } from "../../client/lib/constants";
import { applyTheme } from "../../client/lib/theme";
import { appInfo, setTheme } from "../../client/state/app";
import { restoreState } from "../../client/state/persist";
import { resetAll } from "../../client/state/user";

let deviceDark = false;
const listeners = new Set<() => void>();

beforeEach(() => {
  deviceDark = false;
  listeners.clear();
  vi.stubGlobal("matchMedia", (query: string) => ({
    get matches() {
      return query.includes("dark") ? deviceDark : false;
    },
    media: query,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  }));
  localStorage.clear();
  setTheme("system");
  applyTheme("system");
});
afterEach(() => vi.unstubAllGlobals());

const pageTheme = () => document.documentElement.dataset.theme;

describe("the theme", () => {
  it("is chosen in Settings > Appearance and applied at once", async () => {
    const stop = subscribeKey(appInfo, "theme", applyTheme);
    const user = userEvent.setup();
    render(<AppearancePanel />);
    expect((screen.getByRole("radio", { name: "System" }) as HTMLInputElement).checked).toBe(true);
    expect(pageTheme()).toBe("light");
    await user.click(screen.getByRole("radio", { name: "Dark" }));
    expect(appInfo.theme).toBe("dark");
    await vi.waitFor(() => expect(pageTheme()).toBe("dark"));
    await user.click(screen.getByRole("radio", { name: "Light" }));
    await vi.waitFor(() => expect(pageTheme()).toBe("light"));
    stop();
  });

  it("follows the device under System, also when the device changes", () => {
    deviceDark = true;
    applyTheme("system");
    expect(pageTheme()).toBe("dark");
    deviceDark = false;
    act(() => listeners.forEach((fn) => fn()));
    expect(pageTheme()).toBe("light");
    applyTheme("dark"); // a fixed choice stops following the device
    deviceDark = true;
    listeners.forEach((fn) => fn());
    expect(pageTheme()).toBe("dark");
    expect(listeners.size).toBe(0);
  });

  it("is saved with the app state and restored on the next visit", async () => {
    localStorage.setItem(STORAGE_KEYS.root, JSON.stringify({ appInfo: { theme: "dark" } }));
    await restoreState();
    expect(appInfo.theme).toBe("dark");
    setTheme("light");
    await vi.waitFor(() => expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.root)!).appInfo.theme).toBe("light"));
    // a damaged value is ignored
    localStorage.setItem(STORAGE_KEYS.root, JSON.stringify({ appInfo: { theme: "purple" } }));
    await restoreState();
    expect(appInfo.theme).toBe("light");
  });

  it("stays through a logout: the rest of the app info returns to its defaults", () => {
    setTheme("dark");
    appInfo.currentTab = "appearance";
    resetAll();
    expect(appInfo.theme).toBe("dark");
    expect(appInfo.currentTab).toBe("profile");
    expect(appInfo.currentSessionId).toBeNull();
  });
});
