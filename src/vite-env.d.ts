/// <reference types="vite/client" />

declare const __BUILD_ID__: string;
declare const __APP_VERSION__: string;
