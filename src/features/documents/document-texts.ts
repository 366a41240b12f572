/** Words the documents screens and actions share (SPEC §8 is silent on documents: docs/decisions.md). */
export const documentTexts = {
  notOnDevice: "This document isn't saved on this device. Connect to the internet to open it, or turn on Keep offline next time.",
  fileNotOnDevice: "This isn't saved on this device yet. Connect to the internet to see it.",
  submitFailed: 'Your answers could not be sent. Please check them and try again.',
  submitOffline: 'You are offline. Your answers are saved on this device and will be sent when you are back online.',
  submitWaiting: 'Your answers are waiting to be sent. They will be sent when you are back online.',
  submitSending: 'Sending your answers…',
  alreadySent: 'You have already sent this form.',
  notAForm: 'This document is not a form.',
  fileGone: 'A file you added is no longer on this device. Please add it again.',
  notFound: 'We can’t find this document.',
  notFoundHelp: 'It may have been withdrawn by staff, or it is not shared with you.',
} as const;
