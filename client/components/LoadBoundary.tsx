// Keeps the app running when a part of it that loads on demand cannot be
// fetched (a network blip, or a deploy since the page was opened): that part
// shows `fallback` instead of the whole page giving way to an error screen.
import { Component, type ReactNode } from "react";

/** What to do when a part of the app could not be loaded. */
export const RELOAD_ADVICE = "Check your connection, then reload the page.";

export class LoadBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error("a part of the app could not be loaded", error);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
