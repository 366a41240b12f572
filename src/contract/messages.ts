/**
 * Texts copied exactly from SPEC §5 and §8. Server and PWA both import these so a
 * message can never drift between the two sides.
 */
export const messages = {
  notFound: (path: string) => `Page not found: ${path}`,
  sessionExpired: 'Session expired',
  invalidUserType: 'Invalid user type. Redirecting to login.',
  connectionError: (product: string) => `Error connecting to ${product}, please try again.`,
  invalidMfaSession: 'Invalid MFA session',
  mfaSessionExpired: 'MFA session expired. Please try again.',
  codeRequired: 'Verification code is required',
  codeSixDigits: 'Code must be 6 digits',
  codeIncorrect: 'Incorrect verification code',
  codeIncomplete: 'Please enter the complete verification code',
  offline: 'You are currently offline',
  backToSafety: 'Back to safety',
  imageInappropriate: 'Image added is inappropriate',
  fileTypeNotAllowed: 'File type not allowed',
  voiceMissingData: 'The information needed for this page is not here right now.',
} as const;

/** Texts the spec leaves open; chosen in docs/decisions.md. */
export const chosenMessages = {
  invalidCredentials: 'The username or password is not right. Please check them and try again.',
  tooManyAttempts: (minutes: number) =>
    `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
  recoveryCodeRequired: 'Recovery code is required',
  recoveryCodeFormat: 'Recovery codes look like abcde-12345',
  recoveryCodeIncorrect: 'That recovery code is not right, or it has already been used',
  emailRequired: 'Email address is required',
  emailInvalid: 'Please enter a valid email address',
  currentPasswordRequired: 'Current password is required',
  newPasswordRequired: 'New password is required',
  confirmationRequired: 'Please type your new password again',
  passwordsMustMatch: 'Passwords must match',
  passwordTooShort: (length: number) => `Password must be at least ${length} characters`,
  passwordTooLong: (length: number) => `Password must be at most ${length} characters`,
  currentPasswordWrong: 'Your current password is not right',
  passwordSameAsCurrent: 'Your new password must be different from your current one',
  passwordChanged: 'Your password has been changed',
  passwordChangeFailed: 'Your password could not be changed. Please try again.',
  validationFailed: 'Some details need fixing',
  unsavableText: "This has a character that can't be saved. Please remove it and try again.",
  tooDeeplyNested: 'This is nested too deeply',
  /** JSON text with a "__proto__" key (json-text.ts). */
  reservedJsonKey: 'The name "__proto__" cannot be used here',
  formUnreadable: 'The form could not be read. Please try again.',
  unauthenticated: 'Please sign in',
  forbidden: 'You are not allowed to do that',
  notFound: 'Not found',
  serverError: 'Something went wrong on our side. Please try again.',
  csrfMissing: 'Session expired',
  mfaSetupRequired: 'Please set up two-factor sign-in first',
  mfaAlreadyEnabled: 'That two-factor method is already on',
  mfaCodeSent: 'We have sent a code to your email address',
  mfaEmailNotSetUp: 'Email codes are not set up for this account',
  mfaSetupNotStarted: 'Please start setting up two-factor sign-in again',
  mfaEnabled: 'Two-factor sign-in is now on',
  unknownSite: 'We could not find that site. Please check its name.',
  loggedOut: 'You have signed out',
} as const;
