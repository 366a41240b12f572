import { Link } from 'react-router-dom';
import type { TaskLogItem } from '../hooks/use-task-logs';
import { commentCount, formatTaskDate, objectivePath } from '../task-dates';

/**
 * One objective in a list: its title (the link), date, category, status, comment count, and what
 * is still on its way from this device. Completed ones say whether they are reviewed.
 */
export function TaskLogCard({ item, headingLevel = 3 }: { item: TaskLogItem; headingLevel?: 2 | 3 | 4 }) {
  const { log } = item;
  const Heading = `h${headingLevel}` as const;
  const completed = log.status === 'completed';
  const titleId = `objective-${log.id}-title`;
  return (
    <article className={`objective-card${item.failed ? ' objective-card--failed' : ''}`} aria-labelledby={titleId}>
      <Heading id={titleId} className="objective-card__title">
        <Link to={objectivePath(log.id)}>{log.task.title}</Link>
      </Heading>
      <p className="objective-card__when">{formatTaskDate(log.task.task_date)}</p>
      <ul className="objective-card__meta" aria-label="About this objective">
        <li className="badge">{log.task.form.name}</li>
        <li className={`badge badge--${log.status}`}>{completed ? 'Completed' : 'Current'}</li>
        {completed ? (
          <li className={`badge ${item.reviewed ? 'badge--reviewed' : 'badge--review'}`}>{item.reviewed ? 'Reviewed' : 'Ready to review'}</li>
        ) : null}
        <li className="objective-card__count">{commentCount(item.thread.length)}</li>
        {item.waiting > 0 ? <li className="badge badge--pending">Waiting to send</li> : null}
        {item.failed > 0 ? <li className="badge badge--failed">Not sent</li> : null}
      </ul>
    </article>
  );
}
