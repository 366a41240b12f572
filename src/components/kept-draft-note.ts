/** Said under a form that came back with what the person had started writing (an encrypted draft). */
export const KEPT_DRAFT_NOTE = 'We kept what you started writing on this device.';
