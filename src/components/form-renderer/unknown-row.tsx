import { formMessages } from '@/contract/forms';

/** A row the renderer cannot show (unknown kind, malformed): says so plainly, with its label when it has one. */
export function UnknownRow({ label }: { label: string | null }) {
  return (
    <p className="form-unknown">
      {label ? <span className="form-unknown__label">{label}</span> : null}
      <span className="form-unknown__message">{formMessages.cannotShow}</span>
    </p>
  );
}
