import { describe, expect, it } from 'vitest';
import { ExtractionError } from '../../types.js';
import { rootElement, textContent, XmlBudget } from './xml.js';
import { xmlText } from './xml-scan.js';

type Event = [string, ...(string | number)[]];

/** The events a streaming read reports, texts decoded. */
function events(source: string, budget = new XmlBudget('doc.xml', 100, 10)): Event[] {
  const seen: Event[] = [];
  budget.stream(source, {
    open: (name, depth, tag) => seen.push(['open', name, depth, tag.attribute('id') ?? '-']),
    close: (name, depth) => seen.push(['close', name, depth]),
    text: (source, start, end, cdata) => seen.push(['text', xmlText(source, start, end, cdata)]),
  });
  return seen;
}

describe('XML budget', () => {
  it('counts the elements of every part checked against the document limit, naming it', () => {
    const budget = new XmlBudget('doc.xml', 5, 100);
    budget.check('<a><b/><c/></a>');
    expect(() => budget.check('<a><b/><c/></a>')).toThrow(
      '"doc.xml" is too large to index: it has more XML elements than the limit of 5.',
    );
  });

  it('parses a part into a DOM only within the budget', () => {
    const budget = new XmlBudget('doc.xml', 3, 100);
    const root = rootElement(budget.parse('<a><b>one &amp; two</b></a>'));
    expect(root && textContent(root)).toBe('one & two');
    expect(() => budget.parse('<a><b/></a>')).toThrow(ExtractionError);
  });

  it('fails too_large past the nesting limit, at any depth of nesting, without overflowing the stack', () => {
    const budget = new XmlBudget('doc.xml', 10_000_000, 1000);
    expect(() => budget.check(`${'<a>'.repeat(1000)}${'</a>'.repeat(1000)}`)).not.toThrow();
    for (const depth of [1001, 100_000, 1_000_000]) {
      expect(() => budget.stream(`${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`, {})).toThrow(
        '"doc.xml" is too large to index: it has more levels of XML nesting than the limit of 1,000.',
      );
    }
  });

  it('reports elements by local name with depth, attributes by local name, text and CDATA in order', () => {
    const source =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "<y>">]><!-- <no/> -->' +
      '<x:root xmlns:x="urn:x" xmlns:id="urn:not-an-attribute" x:id="r1">' +
      "<item id='a > b'>fish &amp; chips &#x2713;&#65;&bogus;</item><?pi <no/>?><![CDATA[<raw> & ]]><empty/></x:root>";
    expect(events(source)).toEqual([
      ['open', 'root', 1, 'r1'],
      ['open', 'item', 2, 'a > b'],
      ['text', 'fish & chips ✓A&bogus;'],
      ['close', 'item', 2],
      ['text', '<raw> & '],
      ['open', 'empty', 2, '-'],
      ['close', 'empty', 2],
      ['close', 'root', 1],
    ]);
  });

  it('throws on malformed XML: tags that do not match, stay open, or no root at all', () => {
    for (const source of [
      '<a><b></a></b>',
      '<a><b>',
      '</a>',
      '',
      'just text',
      '<a></a><b></b>',
      '<a x="1>',
    ]) {
      expect(() => events(source), source).toThrow(/malformed XML/);
    }
  });
});
