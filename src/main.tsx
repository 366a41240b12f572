import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { startServiceWorker } from '@/app/shell/service-worker';
import { startApiBaseSync } from '@/data/api-base-sync';
import { loadAppConfig } from '@/data/app-config-store';
import { startOutbox } from '@/data/outbox/start-outbox';
import { getSettings } from '@/data/settings-store';
import '@/app/styles/themes.css';
import '@/app/styles/base.css';
import '@/app/styles/shell.css';

// Before the first paint: the chosen theme, the API base, and the app config request.
document.documentElement.dataset.theme = getSettings().theme;
startApiBaseSync();
void loadAppConfig();
// The worker (offline shell, outbox replay) and the page's side of the outbox.
startServiceWorker();
startOutbox();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(<App />);
