import './entry.css';

/**
 * "Closed": staff closed the conversation on this entry (locked_at set), so it can no longer be
 * changed or replied to. Shown the same way on journal cards and voice messages.
 */
export function ClosedBadge() {
  return (
    <span className="badge badge--closed">
      Closed<span className="visually-hidden"> conversation</span>
    </span>
  );
}
