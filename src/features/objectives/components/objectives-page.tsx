import { useRef, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { HeldRegion } from '@/components/held-region';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { taskMessages, type TaskLogStatus } from '@/contract/tasks';
import { useTaskLogs, type TaskLogItem } from '../hooks/use-task-logs';
import { useTaskTabFailed } from '../hooks/use-task-tab-status';
import { categoryPath } from '../task-dates';
import { TaskLogList } from './task-log-list';
import './objectives.css';

/** SPEC §4: the tabs are current (0) and completed (1); the address keeps the chosen one (`?tab=1`). */
export const TABS: readonly { status: TaskLogStatus; label: string; failed: string; empty: string; emptyText: string }[] = [
  {
    status: 'current',
    label: 'Current',
    failed: taskMessages.fetchCurrentFailed,
    empty: 'No current objectives.',
    emptyText: 'When you and your carers set an objective, it will be here.',
  },
  {
    status: 'completed',
    label: 'Completed',
    failed: taskMessages.fetchCompletedFailed,
    empty: 'No completed objectives yet.',
    emptyText: 'Objectives you have finished will be here, grouped by kind.',
  },
];

export function tabIndexOf(value: string | null): number {
  return value === '1' ? 1 : 0;
}

/** Completed objectives by form name (the category), in the order of their newest objective. */
export function groupByCategory(items: readonly TaskLogItem[]): { name: string; items: TaskLogItem[] }[] {
  const groups = new Map<string, TaskLogItem[]>();
  for (const item of items) {
    const name = item.log.task.form.name;
    const list = groups.get(name) ?? [];
    list.push(item);
    groups.set(name, list);
  }
  return [...groups].map(([name, list]) => ({ name, items: list }));
}

function FetchFailed({ message }: { message: string }) {
  return (
    <div className="objectives__failed" role="alert">
      <p className="objectives__failed-title">{message}</p>
      <p>They will show here once Hearth can reach the internet again.</p>
    </div>
  );
}

/** A tab's list, holding the height it had last time while the replica opens (issue 13). */
function TabContent({ tab }: { tab: (typeof TABS)[number] }) {
  const items = useTaskLogs(tab.status);
  const failed = useTaskTabFailed(tab.status);
  return (
    <HeldRegion name={`objectives.${tab.status}`} loading={items.data.length === 0 && items.loading && !failed}>
      <TabList tab={tab} items={items.data} loading={items.loading} failed={failed} />
    </HeldRegion>
  );
}

function TabList({ tab, items, loading, failed }: { tab: (typeof TABS)[number]; items: TaskLogItem[]; loading: boolean; failed: boolean }) {
  if (items.length === 0) {
    if (failed) return <FetchFailed message={tab.failed} />;
    if (loading) return <LoadingText />;
    return (
      <div className="objectives__empty">
        <p className="objectives__empty-title">{tab.empty}</p>
        <p>{tab.emptyText}</p>
      </div>
    );
  }
  if (tab.status === 'current') return <TaskLogList items={items} label="Current objectives" headingLevel={2} />;
  return (
    <div className="objectives__groups">
      {groupByCategory(items).map((group, index) => (
        <section key={group.name} className="objectives__group" aria-labelledby={`objectives-group-${index}`}>
          <div className="objectives__group-header">
            <h2 id={`objectives-group-${index}`} className="section-title">
              {group.name}
            </h2>
            <Link to={categoryPath(group.name)} className="objectives__group-link">
              All {group.name} objectives
            </Link>
          </div>
          <TaskLogList items={group.items} label={`Completed ${group.name} objectives`} headingLevel={3} />
        </section>
      ))}
    </div>
  );
}

/**
 * /objectives: Current and Completed (SPEC §4), newest task date first; completed ones grouped by
 * form name with a link to each category's page. A WAI-ARIA tablist (arrow keys, Home, End),
 * everything read from the replica.
 */
export function ObjectivesPage() {
  const [params, setParams] = useSearchParams();
  const selected = tabIndexOf(params.get('tab'));
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  const choose = (index: number, focus = false) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', String(index));
        return next;
      },
      { replace: true },
    );
    if (focus) tabs.current[index]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const last = TABS.length - 1;
    const moves: Record<string, number> = {
      ArrowRight: selected === last ? 0 : selected + 1,
      ArrowLeft: selected === 0 ? last : selected - 1,
      Home: 0,
      End: last,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    choose(target, true);
  };

  return (
    <div className="page objectives">
      <PageHeading>Objectives</PageHeading>
      <div role="tablist" aria-label="Objectives" className="objectives__tabs">
        {TABS.map((t, index) => (
          <button
            key={t.status}
            ref={(node) => {
              tabs.current[index] = node;
            }}
            type="button"
            role="tab"
            id={`objectives-tab-${index}`}
            aria-selected={index === selected}
            aria-controls={`objectives-panel-${index}`}
            tabIndex={index === selected ? 0 : -1}
            className="objectives__tab"
            onClick={() => choose(index)}
            onKeyDown={onKeyDown}
          >
            {t.label}
          </button>
        ))}
      </div>
      {TABS.map((t, index) => (
        <div
          key={t.status}
          role="tabpanel"
          id={`objectives-panel-${index}`}
          aria-labelledby={`objectives-tab-${index}`}
          tabIndex={0}
          hidden={index !== selected}
          className="objectives__panel"
        >
          {index === selected ? <TabContent tab={t} /> : null}
        </div>
      ))}
    </div>
  );
}
