import './shell-updates.css';
import { useState } from 'react';
import { updateNow, useUpdateAvailable } from './update-state';

export const UPDATE_READY = 'A new version of Hearth is ready';

/** Offers a waiting build; "Update" activates it and the page reloads (nothing unsent is lost: the outbox is on disk). */
export function UpdateBanner() {
  const available = useUpdateAvailable();
  const [updating, setUpdating] = useState(false);
  if (!available) return null;
  return (
    <div role="status" className="update-banner">
      <span>{UPDATE_READY}</span>
      <button
        type="button"
        className="button button--primary"
        disabled={updating}
        onClick={() => {
          setUpdating(true);
          void updateNow();
        }}
      >
        Update
      </button>
    </div>
  );
}
