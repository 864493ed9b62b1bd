import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { ENGLISH, type Strings } from '../i18n.js';

/** The UI texts of the current locale, with the page's overrides. */
export const Texts = createContext<Strings>(ENGLISH);

/** The UI texts in effect where the calling component renders. */
export const useTexts = (): Strings => useContext(Texts);
