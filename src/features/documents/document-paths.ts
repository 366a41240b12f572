/** The documents screens' addresses (registered in src/app/routes.tsx). */
export const DOCUMENTS_PATH = '/documents';
export const documentPath = (id: string): string => `/documents/${encodeURIComponent(id)}`;
export const bookPagePath = (id: string, pageId: string): string => `/documents/${encodeURIComponent(id)}/page/${encodeURIComponent(pageId)}`;
