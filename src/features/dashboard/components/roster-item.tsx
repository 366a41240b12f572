import type { RosterDoc } from '@/data/replica';
import { PersonAvatar } from '@/components/person-avatar';

/** One person on shift today: photo or initials, name, and hours "07:00–15:00". */
export function RosterItem({ shift, isKeyWorker }: { shift: RosterDoc; isKeyWorker: boolean }) {
  const name = `${shift.user.first_name} ${shift.user.last_name}`.trim();
  return (
    <li className="roster__item">
      <PersonAvatar person={shift.user} size={44} />
      <span className="roster__text">
        <span className="roster__name">{name}</span>
        {isKeyWorker ? <span className="roster__tag">Your key worker</span> : null}
        <span className="roster__hours">
          <time dateTime={shift.starts_at}>{shift.starts_at}</time>–<time dateTime={shift.ends_at}>{shift.ends_at}</time>
        </span>
      </span>
    </li>
  );
}
