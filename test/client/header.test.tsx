// Proves the header's avatar menu works by keyboard like the row menus: its
// first item takes focus as it opens, the arrows move between items, Escape
// closes it back on the avatar, and Settings opens with focus on the avatar,
// where the dialog returns it; the sidebar toggle says whether the sidebar is open.
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { Header } from "../../client/layout/Header";
import { appInfo, closeSettings } from "../../client/state/app";
import { userInfo } from "../../client/state/user";

beforeEach(() => {
  localStorage.setItem("token", "tok");
  userInfo.user = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };
  closeSettings();
  appInfo.isSidebarOpen = false;
});

describe("the header", () => {
  it("runs its avatar menu by keyboard and returns focus to the avatar", async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <Header />
      </MemoryRouter>,
    );
    const avatar = screen.getByRole("button", { name: /Account menu for ann@example.com/ });
    await user.click(avatar);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("menuitem", { name: "Settings" })));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(screen.getByRole("menuitem", { name: "Sign out" }));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(screen.getByRole("menuitem", { name: "Settings" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(avatar);

    await user.click(avatar);
    await user.click(await screen.findByRole("menuitem", { name: "Settings" }));
    expect(appInfo.isOpenSettingsModal).toBe(true);
    expect(document.activeElement).toBe(avatar);
  });

  it("says whether the sidebar is open on its toggle", async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <Header />
      </MemoryRouter>,
    );
    const toggle = screen.getByRole("button", { name: "Toggle sidebar" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
  });
});
