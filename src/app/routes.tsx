import type { RouteObject } from 'react-router-dom';
import { DefaultLayout } from './layouts/default-layout';
import { lazyPage } from './lazy-page';
import type { RouteHandle } from './route-handle';
import { NotFoundPage } from './shell/not-found-page';
import { PageLoading, RootLayout } from './shell/root-layout';
import { RouteErrorPage } from './shell/route-error-page';

const h = (handle: RouteHandle): RouteHandle => handle;

const journal = { offline: true, flag: 'journal_enabled' } as const;
const voice = { offline: true, flag: 'voice_enabled' } as const;
const rewards = { offline: true, flag: 'rewards_enabled' } as const;

/** Every route of SPEC §2, each page in its own lazily loaded chunk. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        // Public pages.
        element: <DefaultLayout />,
        children: [
          { index: true, handle: h({}), lazy: lazyPage(() => import('@/features/auth/components/login-page'), (m) => m.LoginPage) },
          {
            path: 'terms-and-conditions',
            handle: h({ name: 'Terms and conditions' }),
            lazy: lazyPage(() => import('@/features/legal/components/terms-page'), (m) => m.TermsPage),
          },
          {
            path: 'privacy-policy',
            handle: h({ name: 'Privacy policy' }),
            lazy: lazyPage(() => import('@/features/legal/components/privacy-page'), (m) => m.PrivacyPage),
          },
          {
            path: 'auth/mfa',
            children: [
              {
                index: true,
                handle: h({ name: 'Two-factor sign-in' }),
                lazy: lazyPage(() => import('@/features/mfa/components/mfa-index-page'), (m) => m.MfaIndexPage),
              },
              {
                path: 'verify',
                handle: h({ name: 'Two-factor verification' }),
                lazy: lazyPage(() => import('@/features/mfa/components/verify-page'), (m) => m.VerifyPage),
              },
              {
                path: 'configure',
                children: [
                  {
                    index: true,
                    handle: h({ name: 'Two-factor set-up' }),
                    lazy: lazyPage(() => import('@/features/mfa/components/configure-page'), (m) => m.ConfigurePage),
                  },
                  {
                    path: 'authenticator',
                    handle: h({ name: 'Authenticator app' }),
                    lazy: lazyPage(() => import('@/features/mfa/components/authenticator-page'), (m) => m.AuthenticatorPage),
                  },
                  {
                    path: 'email',
                    handle: h({ name: 'Email code' }),
                    lazy: lazyPage(() => import('@/features/mfa/components/email-page'), (m) => m.EmailPage),
                  },
                ],
              },
            ],
          },
          {
            path: 'dev',
            handle: h({ name: 'Developer' }),
            lazy: lazyPage(() => import('@/features/dev/components/dev-page'), (m) => m.DevPage),
          },
          { path: '*', handle: h({ name: 'Page not found' }), element: <NotFoundPage /> },
        ],
      },
      {
        // SIGNED_IN_SHELL (scripts/route-js.ts reads the pages below this marker as signed in).
        // The signed-in shell: `auth` guard for all; `offline` and `feature-flag` from each handle.
        // Lazy like the pages (loaded in parallel with the page's chunk): the login screen needs none of it.
        id: 'signed-in',
        lazy: lazyPage(() => import('./layouts/signed-in-shell'), (m) => m.SignedInShell),
        children: [
          {
            path: 'dashboard',
            handle: h({ name: 'Dashboard', offline: true }),
            lazy: lazyPage(() => import('@/features/dashboard/components/dashboard-page'), (m) => m.DashboardPage),
          },
          {
            path: 'calendar',
            handle: h({ name: 'Calendar', offline: true }),
            lazy: lazyPage(() => import('@/features/calendar/components/calendar-page'), (m) => m.CalendarPage),
          },
          {
            path: 'change-password',
            handle: h({ name: 'Change password' }),
            lazy: lazyPage(() => import('@/features/account/components/change-password-page'), (m) => m.ChangePasswordPage),
          },
          {
            // SPEC §2 lists no guard for /documents: it reads the replica and works offline; a document
            // that is not kept says so itself (docs/decisions.md "Documents (issue 11): client").
            path: 'documents',
            handle: h({ name: 'Documents', offline: true }),
            lazy: lazyPage(() => import('@/features/documents/components/documents-page'), (m) => m.DocumentsPage),
          },
          {
            path: 'documents/:id',
            handle: h({ name: 'Document', offline: true }),
            lazy: lazyPage(() => import('@/features/documents/components/document-page'), (m) => m.DocumentPage),
          },
          {
            path: 'documents/:id/page/:pageId',
            handle: h({ name: 'Book page', offline: true }),
            lazy: lazyPage(() => import('@/features/documents/components/book-page'), (m) => m.BookPageView),
          },
          {
            path: 'feedback',
            // Offline too (issue 10): the replica's copy, like the dashboard's "New replies".
            handle: h({ name: 'Feedback', offline: true }),
            lazy: lazyPage(() => import('@/features/feedback/components/feedback-page'), (m) => m.FeedbackPage),
          },
          {
            path: 'journal',
            handle: h({ name: 'Journal', ...journal }),
            lazy: lazyPage(() => import('@/features/journal/components/journal-page'), (m) => m.JournalPage),
          },
          {
            path: 'journal/entries',
            handle: h({ name: 'Journal entries', ...journal }),
            lazy: lazyPage(() => import('@/features/journal/components/journal-entries-page'), (m) => m.JournalEntriesPage),
          },
          {
            path: 'journal/customise',
            handle: h({ name: 'Customise journal', ...journal }),
            lazy: lazyPage(() => import('@/features/journal/components/customise-journal-page'), (m) => m.CustomiseJournalPage),
          },
          {
            path: 'journal/edit/:id',
            handle: h({ name: 'Edit journal entry', ...journal }),
            lazy: lazyPage(() => import('@/features/journal/components/edit-journal-entry-page'), (m) => m.EditJournalEntryPage),
          },
          {
            path: 'entries/comments/:id',
            handle: h({ name: 'Comments', ...journal }),
            lazy: lazyPage(() => import('@/features/journal/components/entry-comments-page'), (m) => m.EntryCommentsPage),
          },
          {
            path: 'voice',
            handle: h({ name: 'Voice', ...voice }),
            lazy: lazyPage(() => import('@/features/voice/components/voice-page'), (m) => m.VoicePage),
          },
          {
            path: 'voice/entries',
            handle: h({ name: 'Voice entries', ...voice }),
            lazy: lazyPage(() => import('@/features/voice/components/voice-entries-page'), (m) => m.VoiceEntriesPage),
          },
          {
            path: 'voice/edit/:id',
            handle: h({ name: 'Edit voice entry', ...voice }),
            lazy: lazyPage(() => import('@/features/voice/components/edit-voice-entry-page'), (m) => m.EditVoiceEntryPage),
          },
          {
            path: 'voice/success',
            handle: h({ name: 'Voice sent', ...voice }),
            lazy: lazyPage(() => import('@/features/voice/components/voice-success-page'), (m) => m.VoiceSuccessPage),
          },
          {
            path: 'voice/comments/:id',
            handle: h({ name: 'Comments', ...voice }),
            lazy: lazyPage(() => import('@/features/voice/components/voice-comments-page'), (m) => m.VoiceCommentsPage),
          },
          {
            path: 'objectives',
            handle: h({ name: 'Objectives', offline: true }),
            lazy: lazyPage(() => import('@/features/objectives/components/objectives-page'), (m) => m.ObjectivesPage),
          },
          {
            path: 'objectives/category/:category_name',
            handle: h({ name: 'Objectives', offline: true }),
            lazy: lazyPage(() => import('@/features/objectives/components/objective-category-page'), (m) => m.ObjectiveCategoryPage),
          },
          {
            path: 'objectives/:task_log_id',
            handle: h({ name: 'Objective', offline: true }),
            lazy: lazyPage(() => import('@/features/objectives/components/objective-page'), (m) => m.ObjectivePage),
          },
          {
            path: 'objectives/:task_log_id/success',
            handle: h({ name: 'Objective complete', offline: true }),
            lazy: lazyPage(() => import('@/features/objectives/components/objective-success-page'), (m) => m.ObjectiveSuccessPage),
          },
          {
            path: 'objectives/:task_log_id/comment/edit/:comment_id',
            handle: h({ name: 'Edit comment' }),
            lazy: lazyPage(() => import('@/features/objectives/components/edit-objective-comment-page'), (m) => m.EditObjectiveCommentPage),
          },
          {
            path: 'rewards',
            handle: h({ name: 'Rewards', ...rewards }),
            lazy: lazyPage(() => import('@/features/rewards/components/rewards-page'), (m) => m.RewardsPage),
          },
          {
            // SPEC §2 shows only the auth layout and the flag for it; it reads the replica like the other
            // rewards screens, so it works offline too (docs/decisions.md "Rewards (issue 10): client").
            path: 'rewards/history',
            handle: h({ name: 'Reward history', ...rewards }),
            lazy: lazyPage(() => import('@/features/rewards/components/reward-history-page'), (m) => m.RewardHistoryPage),
          },
          {
            path: 'rewards/:reward_id/confirmation',
            handle: h({ name: 'Confirm reward', ...rewards }),
            lazy: lazyPage(() => import('@/features/rewards/components/reward-confirmation-page'), (m) => m.RewardConfirmationPage),
          },
          {
            path: 'rewards/:reward_id/congratulations',
            handle: h({ name: 'Congratulations', ...rewards }),
            lazy: lazyPage(() => import('@/features/rewards/components/reward-congratulations-page'), (m) => m.RewardCongratulationsPage),
          },
        ],
      },
    ],
  },
];
