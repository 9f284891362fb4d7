// The one way to reach a user's Library (type-only import: this module also
// runs in Node, in the offline benchmark, where the object is a stand-in).
import type { Library } from "./Library";

export interface LibraryBinding {
  LIBRARY: DurableObjectNamespace<Library>;
}

/** The Library of this user: the id always comes from a verified token or a stored row, never from input. */
export function library(env: LibraryBinding, userId: string) {
  return env.LIBRARY.get(env.LIBRARY.idFromName(userId));
}
