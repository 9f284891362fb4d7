// Proves the dialog: Escape closes it even after its own action left the focus
// on the page body, only the top one of stacked dialogs closes, focus returns to
// the opener, and a dialog may show a visible Close button.
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Modal } from "../../client/components/Modal";

function Opener({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Modal
          title="Memo"
          closeButton
          onClose={() => {
            onClose?.();
            setOpen(false);
          }}
        >
          <button type="button">Send</button>
        </Modal>
      )}
    </>
  );
}

describe("Modal", () => {
  it("closes on Escape when the focus fell to the page body, and gives the focus back to the opener", () => {
    const onClose = vi.fn();
    render(<Opener onClose={onClose} />);
    const opener = screen.getByRole("button", { name: "Open" });
    opener.focus();
    fireEvent.click(opener);
    expect(screen.getByRole("dialog", { name: "Memo" })).toBeTruthy();
    (document.activeElement as HTMLElement).blur(); // the action disabled the focused button
    expect(document.activeElement).toBe(document.body);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("closes only the top dialog of two (one opened from the other)", () => {
    const outer = vi.fn();
    const inner = vi.fn();
    function Stacked() {
      const [second, setSecond] = useState(false);
      return (
        <Modal title="Outer" onClose={outer}>
          <button type="button" onClick={() => setSecond(true)}>
            More
          </button>
          {second && (
            <Modal title="Inner" onClose={inner}>
              <p>inside</p>
            </Modal>
          )}
        </Modal>
      );
    }
    render(<Stacked />);
    fireEvent.click(screen.getByRole("button", { name: "More" }));
    fireEvent.keyDown(document, { key: "Escape" });
    expect(inner).toHaveBeenCalledTimes(1);
    expect(outer).not.toHaveBeenCalled();
  });

  it("shows a visible Close button when asked", () => {
    const onClose = vi.fn();
    render(<Opener onClose={onClose} />);
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
