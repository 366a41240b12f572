import type { FastifyInstance } from 'fastify';
import { paths } from '../../../src/contract/paths';
import type { TaskLogStatus } from '../../../src/contract/tasks';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, fetchPage, parseListQuery } from '../../lib/list-query';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { reachableResident } from '../../domain/access';
import { FORM_SPEC, formsQuery, presentForms } from '../../domain/tasks/forms';
import { balanceOf, POINTS_SPEC, pointsQuery, presentPoints } from '../../domain/tasks/points';
import { latestTaskLog, presentTaskLogs, residentLogsQuery, showTask, showTaskComment, TASK_LOG_SPEC } from '../../domain/tasks/queries';

/**
 * Objectives, reads (SPEC §7 Tasks and the additions in docs/api.md): the two tabs as checkpoint
 * lists of task logs, one task, a task's latest log, one comment, the points ledger, the forms.
 * The queries and the access rule live in domain/.
 */
export default async function taskReadRoutes(app: FastifyInstance) {
  const tabs: [string, TaskLogStatus][] = [
    [paths.tasksIncomplete.pattern, 'current'],
    [paths.tasksComplete.pattern, 'completed'],
  ];
  for (const [path, status] of tabs) {
    app.get(path, async (request) => {
      const auth = requireAuth(request);
      const { id } = parse(idParamsSchema, request.params);
      const resident = await reachableResident(app, auth, id);
      const list = parseListQuery(request.query, TASK_LOG_SPEC);
      const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(residentLogsQuery(app, auth, resident.id, status), list, TASK_LOG_SPEC).execute());
      return { ...page, data: await presentTaskLogs(app, auth, page.data) };
    });
  }

  app.get(paths.task.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await showTask(app, auth, id) };
  });

  app.get(paths.taskLatestLog.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await latestTaskLog(app, auth, id) };
  });

  app.get(paths.taskLogComment.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await showTaskComment(app, auth, id) };
  });

  app.get(paths.residentPoints.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const resident = await reachableResident(app, auth, id);
    const list = parseListQuery(request.query, POINTS_SPEC);
    const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(pointsQuery(app, auth.tenantId, resident.id), list, POINTS_SPEC).execute());
    return { ...page, data: presentPoints(page.data), balance: await balanceOf(app, auth.tenantId, resident.id) };
  });

  app.get(paths.forms.pattern, async (request) => {
    const auth = requireAuth(request);
    const list = parseListQuery(request.query, FORM_SPEC);
    const readable = await formsQuery(app, auth);
    const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(readable, list, FORM_SPEC).execute());
    return { ...page, data: presentForms(page.data) };
  });
}
