/** What other modules use of the bots module beside its service: the bot's own words per language. */
export {
  answerTexts,
  BOT_WORD_LANGUAGES,
  type BotWords,
  builtInWords,
  ENGLISH_WORDS,
  fillWords,
  tagChain,
  wordsFor,
} from './words.js';
