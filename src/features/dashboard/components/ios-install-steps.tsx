/**
 * "Add to Home Screen" on iPhone and iPad, step by step, with simple drawings of what to tap (inline
 * SVG: nothing to download). The drawings are decorative: each step names what to tap in words.
 */
function ShareIcon() {
  return (
    <svg className="install-steps__icon" width="32" height="32" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M8 9H6.5A1.5 1.5 0 0 0 5 10.5v9A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5v-9A1.5 1.5 0 0 0 17.5 9H16M12 15V3M8 7l4-4 4 4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function AddToHomeScreenIcon() {
  return (
    <svg className="install-steps__icon" width="32" height="32" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="4" y="4" width="16" height="16" rx="4" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path d="M12 8.5v7M8.5 12h7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

function HomeScreenIcon() {
  return (
    <svg className="install-steps__icon" width="32" height="32" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="18" height="18" rx="5" fill="#3b2a6b" />
      <path d="M12 6.5l5 4.3V17H7v-6.2z" fill="#fff8ef" />
      <path d="M12 11.2c.9 1 1.4 1.8 1.4 2.6a1.4 1.4 0 0 1-2.8 0c0-.8.5-1.6 1.4-2.6z" fill="#ff9f1c" />
    </svg>
  );
}

export function IosInstallSteps({ id }: { id?: string }) {
  return (
    // role="list": Safari drops the list semantics of a list without bullets.
    <ol className="install-steps" id={id} role="list">
      <li className="install-steps__step">
        <ShareIcon />
        <span>
          Tap the <strong>Share</strong> button: a square with an arrow pointing up, at the bottom of Safari (at the top on an iPad).
        </span>
      </li>
      <li className="install-steps__step">
        <AddToHomeScreenIcon />
        <span>
          Scroll down the list and tap <strong>Add to Home Screen</strong>.
        </span>
      </li>
      <li className="install-steps__step">
        <HomeScreenIcon />
        <span>
          Tap <strong>Add</strong>, then open Hearth from its new icon on your Home Screen.
        </span>
      </li>
    </ol>
  );
}
