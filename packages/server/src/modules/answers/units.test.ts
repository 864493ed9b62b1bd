import type { SearchPassage } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { store } from '../../../../testkit/src/server/files-api.js';
import { settled } from '../../../../testkit/src/server/files-indexing.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { postgresTestUrl } from '../../../../testkit/src/server/postgres.js';
import { silentLogger } from '../../logger.js';
import { UseLiteEmbedder } from '../../search/embed/index.js';
import type { Retrieved } from './retrieval.js';
import type { Selection } from './selection.js';
import { type UnitMatcher, unitMatcher, unitQuote, unitsOf, withUnits } from './units.js';

function passage(content: string, heading: string[] = [], extra: Partial<SearchPassage['meta']> = {}) {
  return {
    content,
    score: 0.5,
    meta: { subtype: 'paragraph', position: Math.floor(Math.random() * 1e6), ...extra },
    file: {
      id: `file_${heading.join('_') || 'none'}`,
      key: `${heading[0] ?? 'doc'}.txt`,
      contentType: 'text/plain',
      metadata: {},
      tags: {},
      createdAt: '2026-12-06T00:00:00.000Z',
      updatedAt: '2026-12-06T00:00:00.000Z',
    },
    ...(heading.length > 0
      ? { context: [{ text: heading.join(' › '), offset: 0, type: 'breadcrumb' }] }
      : {}),
  } as SearchPassage;
}

const nothing: Selection = { quotes: [], by: 'none', best: undefined };
const retrievedOf = (found: SearchPassage[]): Retrieved => ({
  found,
  semantic: [],
  scoped: {} as Retrieved['scoped'],
});

const invoices = passage(
  'Where do I find my invoices? Under Settings > Billing > Invoices, as PDF files. Can I pay by bank transfer? Yes, on the Business plan.',
  ['Billing FAQ'],
);
const giftCards = passage('How long are gift cards valid? Gift cards are valid for three years.', [
  'Shop FAQ',
]);
const support = passage('Our support team answers on weekdays from 9 am to 5 pm.', [
  'Support',
  'Opening hours',
]);

describe('short units of a passage', () => {
  it('are the innermost heading above it and its short FAQ question lines', () => {
    expect(unitsOf(support).map((u) => [u.kind, u.text])).toEqual([['heading', 'Opening hours']]);
    expect(unitsOf(invoices).map((u) => [u.kind, u.text])).toEqual([
      ['heading', 'Billing FAQ'],
      ['question', 'Where do I find my invoices?'],
      ['question', 'Can I pay by bank transfer?'],
    ]);
  });

  it('leave out a passage that is only a heading and a long question', () => {
    expect(unitsOf(passage('Returns', ['Returns'], { subtype: 'subtitle' }))).toEqual([]);
    const long = `${'Is it true that '.repeat(5)}this works?`;
    expect(unitsOf(passage(long)).filter((u) => u.kind === 'question')).toEqual([]);
  });

  it('quote an FAQ line with its answer, up to the next question', () => {
    const [, line] = unitsOf(invoices);
    if (!line) throw new Error('no question line');
    const quote = unitQuote({ unit: line, similarity: 0.7, margin: 0.1 });
    expect(quote.text).toBe(
      'Where do I find my invoices? Under Settings > Billing > Invoices, as PDF files.',
    );
    expect(quote.heading).toEqual(['Billing FAQ']);
    expect(quote.passage).toBe(invoices);
  });
});

/** Vectors by the first word of a text (unit length): texts sharing their first word are identical. */
const fakeEmbedder = () => {
  const axes = new Map<string, number>();
  const embed = vi.fn(async (texts: string[]) =>
    texts.map((t) => {
      const key = t.toLowerCase().split(/\W+/)[0] ?? '';
      if (!axes.has(key)) axes.set(key, axes.size);
      const v = new Float32Array(64);
      v[axes.get(key) ?? 0] = 1;
      return v;
    }),
  );
  return { embed };
};

describe('the unit matcher', () => {
  it('finds the closest unit, its margin over the next wording, and embeds each text once', async () => {
    const embedder = fakeEmbedder();
    const matcher = unitMatcher(embedder);
    const match = await matcher.closest('where is my invoice', [invoices, support]);
    expect(match?.unit.text).toBe('Where do I find my invoices?');
    expect(match?.similarity).toBeCloseTo(1);
    expect(match?.margin).toBeCloseTo(1);
    await matcher.closest('where is my invoice', [invoices, support]);
    const embedded = embedder.embed.mock.calls.flatMap(([texts]) => texts);
    expect(embedded).toHaveLength(new Set(embedded).size);
  });
});

describe('withUnits', () => {
  const matcher = (similarity: number, margin: number): UnitMatcher => ({
    closest: async (_q, passages) => {
      const unit = passages.flatMap(unitsOf).find((u) => u.kind === 'question');
      return unit && { unit, similarity, margin };
    },
  });

  it('answers from the unit when the words gate found nothing and the unit is close and clear', async () => {
    const { selection, debug } = await withUnits(
      matcher(0.7, 0.1),
      silentLogger,
      'receipts?',
      retrievedOf([invoices]),
      nothing,
    );
    expect(selection.by).toBe('meaning');
    expect(selection.quotes.map((q) => q.text)).toEqual([
      'Where do I find my invoices? Under Settings > Billing > Invoices, as PDF files.',
    ]);
    expect(debug).toMatchObject({ units: { text: 'Where do I find my invoices?', used: true } });
  });

  it('keeps "not found" below the bar or without a margin over the next unit', async () => {
    for (const [similarity, margin] of [
      [0.6, 0.2],
      [0.8, 0.01],
    ] as const) {
      const { selection, debug } = await withUnits(
        matcher(similarity, margin),
        silentLogger,
        'q',
        retrievedOf([invoices]),
        nothing,
      );
      expect(selection.quotes).toEqual([]);
      expect(debug).toMatchObject({ units: { used: false } });
    }
  });

  it('leaves an answer by words, a missing name and a failing embedder alone', async () => {
    const [heading] = unitsOf(support);
    if (!heading) throw new Error('no heading');
    const byWords: Selection = {
      quotes: [unitQuote({ unit: heading, similarity: 0, margin: 0 })],
      by: 'words',
      best: undefined,
    };
    expect(
      (await withUnits(matcher(0.9, 0.5), silentLogger, 'q', retrievedOf([invoices]), byWords)).selection,
    ).toBe(byWords);
    const missing: Selection = { ...nothing, missingNames: ['Zorblax'] };
    expect(
      (await withUnits(matcher(0.9, 0.5), silentLogger, 'q', retrievedOf([invoices]), missing)).selection,
    ).toBe(missing);
    const warn = vi.fn();
    const failing: UnitMatcher = { closest: () => Promise.reject(new Error('worker gone')) };
    const log = { ...silentLogger, warn } as typeof silentLogger;
    expect((await withUnits(failing, log, 'q', retrievedOf([invoices]), nothing)).selection).toBe(nothing);
    expect(warn).toHaveBeenCalledOnce();
  });
});

describe('with the shipped USE-lite model', () => {
  const embedder = new UseLiteEmbedder({ workers: 1 });
  let matcher: UnitMatcher;
  beforeAll(async () => {
    await embedder.ready();
    matcher = unitMatcher(embedder);
  }, 60_000);
  afterAll(() => embedder.close());

  const kb = [
    invoices,
    giftCards,
    support,
    passage('Delivery takes 1 to 2 working days.', ['Delivery', 'How fast we ship']),
  ];

  it('a paraphrase reaches the FAQ line of its answer, close and clear enough to answer', async () => {
    const { selection } = await withUnits(
      matcher,
      silentLogger,
      'where do i find receipts for what we paid',
      retrievedOf(kb),
      nothing,
    );
    expect(selection.quotes[0]?.text).toContain('Settings > Billing > Invoices');
  });

  it('a question the knowledge does not answer stays "not found"', async () => {
    for (const q of ['do you sell coffee beans', 'is there a dark mode', 'how much is the yearly plan']) {
      const { selection } = await withUnits(matcher, silentLogger, q, retrievedOf(kb), nothing);
      expect(selection.quotes, q).toEqual([]);
    }
  });
});

const FAQ = `Billing questions

Where do I find my invoices?
Under Settings > Billing > Invoices, as PDF files for every payment.

Can I pay by bank transfer?
Yes, on the Business plan, against an invoice due in 14 days.

How long are gift cards valid?
Gift cards are valid for three years from the day they are bought.
`;
const MANUAL = `# Brisa F2 quick start

Thank you for choosing the Brisa F2 desk fan. This guide gets it running in five minutes.

## In the box

The Brisa F2, its round base, the USB-C power cable and this guide.

## Setting up

Push the fan onto its base until it clicks, then plug the cable into the back of the base. Place the fan on a
flat table at least 20 cm away from curtains.

## Connecting to the app

Install the Brisa Home app on your phone. Hold the Wi-Fi button for 5 seconds until the light blinks, then
follow the steps in the app.

## First run

Press the power button once. The fan starts at speed 2 and the light turns white.
`;

/** The app's own responder (services.ts wires the unit matcher with USE-lite), on each database. */
function askedOfTheApp(label: string, databaseUrl: string | undefined) {
  describe(`asked of the app's knowledge responder (${label})`, () => {
    const embedder = new UseLiteEmbedder({ workers: 1 });
    let t: TestApp;
    beforeAll(async () => {
      await embedder.ready();
      t = await createTestApp({ workers: true, embedder, ...(databaseUrl ? { databaseUrl } : {}) });
      for (const [key, text] of [
        ['billing-faq.txt', FAQ],
        ['quick-start.md', MANUAL],
      ]) {
        const file = await store(t, key as string, text as string, { index: true });
        expect((await settled(t, file.id, 2400)).status).toBe('indexing_completed');
      }
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await embedder.close();
    });

    const ask = async (text: string) => {
      const responder = t.app.services.responder;
      if (!responder) throw new Error('no responder');
      const message = {
        id: `msg_${text.length}`,
        createdAt: new Date().toISOString(),
        conversationId: 'conv_units',
        userId: 'visitor',
        isBot: false,
        payload: { type: 'text' as const, text },
      };
      return responder.answer({
        workspaceId: t.workspaceId,
        botId: t.botId,
        conversationId: 'conv_units',
        message,
        history: [message],
      });
    };

    it('answers a question worded as its heading with the section under it, its document as the source', async () => {
      const reply = await ask('what comes in the box');
      const payload = reply.messages[0]?.payload;
      expect(reply.debug?.mode).toBe('passages');
      expect(payload?.type === 'markdown' ? payload.markdown : '').toContain('the USB-C power cable');
      expect(reply.messages[0]?.metadata?.sources).toMatchObject([{ key: 'quick-start.md' }]);
    });

    it('quotes nothing when no heading or FAQ line is close', async () => {
      const reply = await ask('do you sell coffee beans');
      expect(reply.debug?.mode).not.toBe('passages');
      expect(reply.debug?.units).toMatchObject({ used: false });
    });
  });
}

askedOfTheApp('SQLite', undefined);
const postgresUrl = postgresTestUrl();
if (postgresUrl) askedOfTheApp('PostgreSQL', postgresUrl);
