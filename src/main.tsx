import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { startServiceWorker } from '@/app/shell/service-worker';
import { startData } from '@/app/start-data';
import { getSettings } from '@/data/settings-store';
import { getSessionStub } from '@/data/session-store';
import { kidsStyleAttribute, rememberedKidsStyle } from '@/data/kids-style';
import '@/app/styles/themes.css';
import '@/app/styles/base.css';
import '@/app/styles/shell.css';

// Before the first paint: the chosen theme and, for a signed-in person, the style they had last time
// (the app then follows their account; see app-providers.tsx); then the data layer (API base, app
// config, session, replica, outbox, service worker), started once here and nowhere else.
document.documentElement.dataset.theme = getSettings().theme;
document.documentElement.dataset.kidsStyle = kidsStyleAttribute((getSessionStub() && rememberedKidsStyle()) || 'fun_style');
startData({ startServiceWorker });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(<App />);
