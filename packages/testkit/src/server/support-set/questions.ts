// The support set's questions (issue 13): worded as visitors type them, not as the documents say it.
import type { SupportKey } from './documents.js';

/** A question of the support set. */
export type SupportQuestion =
  | {
      text: string;
      kind: 'answerable';
      /** The document that answers it. */
      source: SupportKey;
      /** What the first quote must contain (any one of them, case and spacing aside). */
      facts: string[];
      /** `paraphrase`: no content word in common with the passage that answers; `shared`: some. */
      wording: 'shared' | 'paraphrase';
    }
  | {
      text: string;
      kind: 'unanswerable';
    };

/** 22 answerable questions (9 of them paraphrases) and 8 whose answer is in no document. */
export const SUPPORT_QUESTIONS: SupportQuestion[] = [
  // The handbook (Markdown).
  {
    text: 'How do I get my money back?',
    kind: 'answerable',
    source: 'handbook.md',
    facts: ['30 days'],
    wording: 'paraphrase',
  },
  {
    text: 'How soon will my stuff get here?',
    kind: 'answerable',
    source: 'handbook.md',
    facts: ['3 to 5 working days'],
    wording: 'paraphrase',
  },
  {
    text: 'Will you fix my headset if it breaks?',
    kind: 'answerable',
    source: 'handbook.md',
    facts: ['two-year warranty'],
    wording: 'paraphrase',
  },
  {
    text: 'How long is the trial period?',
    kind: 'answerable',
    source: 'handbook.md',
    facts: ['90 days'],
    wording: 'paraphrase',
  },
  {
    text: 'How do I delete my profile for good?',
    kind: 'answerable',
    source: 'handbook.md',
    facts: ['privacy@fernhill.example'],
    wording: 'paraphrase',
  },
  {
    text: 'How long is a gift card good for?',
    kind: 'answerable',
    source: 'handbook.md',
    facts: ['24 months'],
    wording: 'shared',
  },
  {
    text: 'Which credit cards do you take?',
    kind: 'answerable',
    source: 'handbook.md',
    facts: ['American Express'],
    wording: 'shared',
  },
  {
    text: 'How long does delivery abroad take?',
    kind: 'answerable',
    source: 'handbook.md',
    facts: ['7 to 12 working days'],
    wording: 'shared',
  },
  // The FAQ (plain text).
  {
    text: 'When can I talk to a real person?',
    kind: 'answerable',
    source: 'faq.txt',
    facts: ['8 am to 6 pm'],
    wording: 'paraphrase',
  },
  {
    text: 'can i still cancel my order',
    kind: 'answerable',
    source: 'faq.txt',
    facts: ['until it leaves the warehouse'],
    wording: 'shared',
  },
  {
    text: 'Do you price match?',
    kind: 'answerable',
    source: 'faq.txt',
    facts: ['authorised UK retailer'],
    wording: 'shared',
  },
  // The manual (PDF).
  {
    text: 'How long will it play before I need to plug it in?',
    kind: 'answerable',
    source: 'manual.pdf',
    facts: ['30 hours', '40 hours'],
    wording: 'paraphrase',
  },
  {
    text: 'How do I factory reset my headphones?',
    kind: 'answerable',
    source: 'manual.pdf',
    facts: ['15 seconds'],
    wording: 'shared',
  },
  {
    text: 'Can I connect two phones at once?',
    kind: 'answerable',
    source: 'manual.pdf',
    facts: ['two of them at the same time'],
    wording: 'shared',
  },
  {
    text: 'How long does it take to charge?',
    kind: 'answerable',
    source: 'manual.pdf',
    facts: ['about 2 hours'],
    wording: 'shared',
  },
  // The price list (CSV).
  {
    text: 'How much are the Aria H2 headphones?',
    kind: 'answerable',
    source: 'prices.csv',
    facts: ['199.00'],
    wording: 'shared',
  },
  {
    text: 'What does express shipping cost?',
    kind: 'answerable',
    source: 'prices.csv',
    facts: ['9.95'],
    wording: 'shared',
  },
  {
    text: 'What is the price of the extended warranty?',
    kind: 'answerable',
    source: 'prices.csv',
    facts: ['35.00'],
    wording: 'shared',
  },
  // The security policy (DOCX).
  {
    text: 'Do you keep my credit card number?',
    kind: 'answerable',
    source: 'security-policy.docx',
    facts: ['never stores full card numbers'],
    wording: 'shared',
  },
  {
    text: 'How is my information protected?',
    kind: 'answerable',
    source: 'security-policy.docx',
    facts: ['AES-256'],
    wording: 'paraphrase',
  },
  {
    text: 'If you get hacked, when will you tell me?',
    kind: 'answerable',
    source: 'security-policy.docx',
    facts: ['72 hours'],
    wording: 'paraphrase',
  },
  {
    text: 'How long do staff passwords need to be?',
    kind: 'answerable',
    source: 'security-policy.docx',
    facts: ['14 characters'],
    wording: 'shared',
  },
  // In no document, though they share words with them.
  { text: 'Do you offer a student discount?', kind: 'unanswerable' },
  { text: 'What is the refund policy for concert tickets?', kind: 'unanswerable' },
  { text: 'Can I wear the headphones while swimming?', kind: 'unanswerable' },
  { text: 'Does the Tessera speaker support Dolby Atmos?', kind: 'unanswerable' },
  { text: 'Where is your shop in London?', kind: 'unanswerable' },
  { text: 'Is my data used to train AI models?', kind: 'unanswerable' },
  { text: 'Do you have a loyalty points programme for regular customers?', kind: 'unanswerable' },
  { text: 'Can I pay in monthly instalments?', kind: 'unanswerable' },
];
