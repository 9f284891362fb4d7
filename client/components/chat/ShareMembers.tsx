// Who the chat is shared with, each with Remove ("Removing..." while it runs).
import type { SharedMember } from "../../../worker/contract/mail";

interface ShareMembersProps {
  members: readonly SharedMember[];
  /** The address being removed, or null. */
  removing: string | null;
  onRemove: (email: string) => void;
}

export function ShareMembers({ members, removing, onRemove }: ShareMembersProps) {
  if (members.length === 0) return null;
  return (
    <section className="share-members" aria-label="Shared with">
      <h3>Shared with</h3>
      <ul>
        {members.map((m) => (
          <li key={m.email}>
            <span className="share-email">{m.email}</span>
            <button
              type="button"
              className="btn btn-outline btn-small"
              aria-label={`Remove ${m.email}`}
              disabled={removing !== null}
              onClick={() => onRemove(m.email)}
            >
              {removing === m.email ? "Removing..." : "Remove"}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
