// The support set's documents (issue 13): a fictional company's knowledge base in several formats. The text
// lives in files beside this module; the PDF manual and the Word security policy are drawn from their JSON
// text at test time with pdf-lib and docx, as people's own files would be.
import { readFileSync } from 'node:fs';
import { type Sectioned, sectionedDocx, sectionedPdf } from '../../shared/sectioned.js';

/** A document of the support set: the file key it is uploaded as and its bytes. */
export interface SupportDocument {
  key: SupportKey;
  bytes: Buffer;
}

/** The keys of the support set's documents. */
export type SupportKey =
  | 'handbook.md'
  | 'faq.txt'
  | 'manual.pdf'
  | 'prices.csv'
  | 'security-policy.docx'
  | 'terms.html';

const here = (name: string) => new URL(`./${name}`, import.meta.url);
const text = (name: string) => readFileSync(here(name), 'utf8');

function manualText(): Sectioned {
  const json = JSON.parse(text('manual.json')) as { title: string; pages: Sectioned['parts'] };
  return { title: json.title, parts: json.pages };
}

function securityText(): Sectioned {
  const json = JSON.parse(text('security.json')) as { title: string; sections: Sectioned['parts'] };
  return { title: json.title, parts: json.sections };
}

/**
 * The support set: a customer handbook (Markdown, ## sections), an FAQ (plain text), a product manual (PDF,
 * one page per topic), a price list (CSV), a security policy (DOCX) and long terms of service (HTML, about
 * 3,200 words full of "refund", "payment" and "data" that answer none of the questions).
 */
export async function supportDocuments(): Promise<SupportDocument[]> {
  return [
    { key: 'handbook.md', bytes: Buffer.from(text('handbook.md')) },
    { key: 'faq.txt', bytes: Buffer.from(text('faq.txt')) },
    { key: 'manual.pdf', bytes: await sectionedPdf(manualText()) },
    { key: 'prices.csv', bytes: Buffer.from(text('prices.csv')) },
    { key: 'security-policy.docx', bytes: await sectionedDocx(securityText()) },
    { key: 'terms.html', bytes: Buffer.from(text('terms.html')) },
  ];
}
