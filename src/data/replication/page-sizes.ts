/**
 * Page sizes of the replica's pulls, apart from the pull itself so that the endpoint table
 * (./endpoints.ts), which screens reach, does not bring the pull's code (RxDB's replication) into
 * their first load (issue 13, tests/build/budgets.test.ts).
 */
import { MAX_PAGE_SIZE } from '@/contract/sync';

export const DEFAULT_PER_PAGE = 100;
/**
 * Page size of collections whose rows are short and of fixed shape (calendar instances, the points
 * ledger and reward history, staff): the server's most (src/contract/sync.ts, 1,000). An initial
 * sync of 5,000 calendar instances is 6 requests instead of 51; every page costs a round trip on a
 * poor connection, a server query, and an RxDB write (whose puts go out in slices:
 * ../database/puts-in-slices.ts). Rows with free text up to 5,000 characters or form definitions
 * (entries, feedback, tasks, documents, forms) keep 100.
 */
export const SHORT_ROWS_PER_PAGE = MAX_PAGE_SIZE;
