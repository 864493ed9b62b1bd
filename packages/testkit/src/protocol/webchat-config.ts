/**
 * Test fixtures of the Webchat configuration, shared by the protocol's validation tests and the server's
 * API tests (by relative path: this folder is not built into the package).
 */

/** A valid value of every field of the Webchat configuration: the spec's table, then Parley's own. */
export const FULL_WEBCHAT_CONFIGURATION = {
  botName: 'Support bot',
  botAvatar: 'https://cdn.example.com/avatar.png',
  botDescription: 'Answers questions about your orders',
  composerPlaceholder: 'Ask me anything…',
  color: '#3276EA',
  themeMode: 'dark',
  variant: 'soft',
  allowFileUpload: true,
  showPoweredBy: false,
  feedbackEnabled: true,
  fabImage: 'http://cdn.example.com/fab.svg',
  radius: 2.5,
  fontFamily: 'ibm plex sans',
  additionalStylesheet: '.bpw { color: red; }',
  additionalStylesheetUrl: 'https://cdn.example.com/chat.css',
  storageLocation: 'sessionStorage',
  footer: 'Powered by **us**',
  headerVariant: 'glass',
  adminKey: 'admin-key-123',
  phone: { title: 'Call us', link: '+1 (555) 010-0000' },
  email: { title: 'Mail us', link: 'help@example.com' },
  website: { title: 'Home', link: 'https://example.com' },
  termsOfService: { title: 'Terms', link: 'https://example.com/terms' },
  privacyPolicy: { title: 'Privacy', link: 'https://example.com/privacy' },
  greeting: 'Hi! I answer questions about **your orders**.',
  suggestedQuestions: ['Where is my order?', 'How do I get a refund?'],
  handoffButton: true,
  handoffKeywords: ['manager', 'talk to someone'],
  defaultLocale: 'fr-CA',
} as const;

/** The fields of the spec's table, in its order. */
export const SPEC_WEBCHAT_FIELDS = [
  'botName',
  'botAvatar',
  'botDescription',
  'composerPlaceholder',
  'color',
  'themeMode',
  'variant',
  'allowFileUpload',
  'showPoweredBy',
  'feedbackEnabled',
  'fabImage',
  'radius',
  'fontFamily',
  'additionalStylesheet',
  'additionalStylesheetUrl',
  'storageLocation',
  'footer',
  'headerVariant',
  'adminKey',
  'phone',
  'email',
  'website',
  'termsOfService',
  'privacyPolicy',
];

/** Parley's own fields after the spec's (the first impression of an empty chat). */
export const PARLEY_WEBCHAT_FIELDS = [
  'greeting',
  'suggestedQuestions',
  'handoffButton',
  'handoffKeywords',
  'defaultLocale',
];
