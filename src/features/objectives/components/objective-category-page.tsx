import { Link, useParams } from 'react-router-dom';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { useTaskLogs } from '../hooks/use-task-logs';
import { TaskLogList } from './task-log-list';
import './objectives.css';

/**
 * /objectives/category/{category_name}: one category's objectives (a form's name), completed ones
 * (the group the Completed tab links from) and, above them, any current ones of the same kind, so
 * the young person sees the whole of it in one place. Newest task date first, from the replica.
 */
export function ObjectiveCategoryPage() {
  const { category_name: name = '' } = useParams();
  const completed = useTaskLogs('completed', name);
  const current = useTaskLogs('current', name);
  const loading = completed.loading || current.loading;
  const nothing = completed.data.length === 0 && current.data.length === 0;

  return (
    <div className="page objectives">
      <PageHeading>{name}</PageHeading>
      {nothing && loading ? <LoadingText /> : null}
      {nothing && !loading ? (
        <div className="objectives__empty">
          <p className="objectives__empty-title">No objectives in this group.</p>
          <p>Objectives called “{name}” will be listed here, newest first.</p>
        </div>
      ) : null}
      {current.data.length > 0 ? (
        <section className="objective__section" aria-labelledby="category-current">
          <h2 id="category-current" className="section-title">
            Current
          </h2>
          <TaskLogList items={current.data} label={`Current ${name} objectives`} />
        </section>
      ) : null}
      {completed.data.length > 0 ? (
        <section className="objective__section" aria-labelledby="category-completed">
          <h2 id="category-completed" className="section-title">
            Completed
          </h2>
          <TaskLogList items={completed.data} label={`Completed ${name} objectives`} />
        </section>
      ) : null}
      <p className="objective__links">
        <Link to="/objectives?tab=1">Back to completed objectives</Link>
      </p>
    </div>
  );
}
