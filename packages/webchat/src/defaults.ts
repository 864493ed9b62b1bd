/**
 * Defaults for fields neither the dashboard nor the page set (README "Defaults"); the Console's designer
 * previews a cleared field with them (`@parley/webchat/defaults`).
 */
export const DEFAULTS = {
  color: '#3276EA',
  themeMode: 'light',
  variant: 'solid',
  headerVariant: 'glass',
  radius: 1,
  fontFamily: 'inter',
  storageLocation: 'localStorage',
  allowFileUpload: false,
  feedbackEnabled: false,
} as const;
