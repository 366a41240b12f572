import type { TaskLogItem } from '../hooks/use-task-logs';
import { TaskLogCard } from './task-log-card';

export function TaskLogList({ items, label, headingLevel = 3 }: { items: readonly TaskLogItem[]; label: string; headingLevel?: 2 | 3 | 4 }) {
  return (
    <ul className="objectives__list" aria-label={label}>
      {items.map((item) => (
        <li key={item.log.id}>
          <TaskLogCard item={item} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
