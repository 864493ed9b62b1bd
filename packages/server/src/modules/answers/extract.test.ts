import { describe, expect, it } from 'vitest';
import { searchPassage } from '../../../../testkit/src/server/search-passage.js';
import { EXTRACT_DEFAULTS, extractQuotes } from './extract.js';
import { termWeights } from './extract-terms.js';
import { sentencesOf } from './sentences.js';

const passage = (
  content: string,
  fileId = 'file_1',
  extra: { subtype?: 'title' | 'paragraph'; breadcrumb?: string; score?: number } = {},
) => searchPassage(content, { fileId, ...extra });

describe('sentencesOf', () => {
  it('cuts lines and sentences, and joins an abbreviation’s fragment to its sentence', () => {
    expect(
      sentencesOf('Refunds take five days. Ask the desk.\n\n- Exchanges: 14 days\nCall the U.S. office now.'),
    ).toEqual([
      'Refunds take five days.',
      'Ask the desk.',
      '- Exchanges: 14 days',
      'Call the U.S. office now.',
    ]);
  });

  it('joins the lines of hard-wrapped prose back, but not list items, table rows or finished lines', () => {
    const wrapped =
      'Yes. Orders are not charged until they ship, so nothing is lost by changing your mind. An order can be\n' +
      'cancelled free of charge from your account page until it leaves the warehouse. If you find it cheaper at an\n' +
      'authorised UK retailer, we refund the difference.\n' +
      '- Returns: 30 days\n' +
      'Aria H2 headphones | AR-H2 | 199.00\n' +
      'Aria H2 case | AR-CASE | 29.00';
    expect(sentencesOf(wrapped)).toEqual([
      'Yes.',
      'Orders are not charged until they ship, so nothing is lost by changing your mind.',
      'An order can be cancelled free of charge from your account page until it leaves the warehouse.',
      'If you find it cheaper at an authorised UK retailer, we refund the difference.',
      '- Returns: 30 days',
      'Aria H2 headphones | AR-H2 | 199.00',
      'Aria H2 case | AR-CASE | 29.00',
    ]);
    // A short line (a heading) starts its own line even without a full stop.
    expect(
      sentencesOf('Shipping\nOrders leave the warehouse within a day of being placed by the customer.'),
    ).toEqual(['Shipping', 'Orders leave the warehouse within a day of being placed by the customer.']);
  });

  it('joins a sentence a PDF’s line spacing cut into paragraphs, but not paragraphs that end a sentence', () => {
    const cut =
      'To make a claim, send the serial number and proof of purchase (receipt or invoice) and the\n\n' +
      'order number if you bought from us directly.\n\nWe reply within 2 working days.\n\nShipping\n\nOrders leave the same day';
    expect(sentencesOf(cut)).toEqual([
      'To make a claim, send the serial number and proof of purchase (receipt or invoice) and the order number if you bought from us directly.',
      'We reply within 2 working days.',
      'Shipping',
      'Orders leave the same day',
    ]);
  });

  it('answers nothing for blank text', () => {
    expect(sentencesOf(' \n\n \t')).toEqual([]);
  });
});

describe('termWeights', () => {
  it('weighs a word by its rarity among the sentences, an absent word the most', () => {
    const pool = [new Set(['refund', 'day']), new Set(['day']), new Set(['day', 'ship'])];
    const w = termWeights(['day', 'refund', 'warranti'], pool);
    expect(w.get('day')).toBeLessThan(w.get('refund') as number);
    expect(w.get('refund')).toBeLessThan(w.get('warranti') as number);
  });
});

describe('extractQuotes', () => {
  const shipping = passage(
    'Orders ship from our warehouse in Lyon. Tracking numbers arrive by e-mail. Parcels are insured. ' +
      'Standard delivery takes three to five working days within the EU.',
    'file_ship',
    { breadcrumb: 'Handbook › Shipping' },
  );

  it('quotes the sentence that answers, even when it is the fourth of its passage', () => {
    const [quote, ...rest] = extractQuotes('How many days does standard delivery take?', [shipping]);
    expect(quote?.text).toBe('Standard delivery takes three to five working days within the EU.');
    expect(quote?.heading).toEqual(['Handbook', 'Shipping']);
    expect(quote?.matched).toEqual(expect.arrayContaining(['standard', 'deliveri', 'dai']));
    expect(rest).toEqual([]);
  });

  it('prefers the sentence holding a time or a number when the question asks for one', () => {
    const gift = passage(
      'Gift cards are sold online and delivered by email. A gift card remains valid for 24 months from the date of purchase.',
    );
    expect(extractQuotes('How long is a gift card good for?', [gift])[0]?.text).toBe(
      'A gift card remains valid for 24 months from the date of purchase.',
    );
    const staff = passage(
      'People in the support team answer every e-mail. The support team counts twelve people.',
    );
    expect(extractQuotes('How many people are in the support team?', [staff])[0]?.text).toBe(
      'The support team counts twelve people.',
    );
    // Without a question for a time or a number, the first of equal sentences is quoted.
    expect(extractQuotes('Gift card?', [gift])[0]?.text).toBe(
      'Gift cards are sold online and delivered by email.',
    );
  });

  /** One passage, one question: the first quote's text. */
  const firstQuotes = [
    {
      does: 'takes the next sentence too when it holds words of the question the first lacks',
      content:
        'Our refund policy is simple. A refund is paid to the original card. It arrives within 30 days of the return.',
      question: 'Is the refund paid to my card within 30 days?',
      quote: 'A refund is paid to the original card. It arrives within 30 days of the return.',
    },
    {
      does: 'quotes the answer after an FAQ’s question line, not the question alone',
      content: 'Can I cancel an order I have just placed? Yes, until it leaves the warehouse.',
      question: 'can i still cancel my order',
      quote: 'Can I cancel an order I have just placed? Yes, until it leaves the warehouse.',
    },
    {
      does: 'takes the whole answer after an FAQ’s question line, up to the next question and within 60 words',
      content:
        'Do you match prices from other shops?\nWe check our prices against the market every week. If you find ' +
        'the same product cheaper at an authorised UK retailer within 14 days, we refund the difference. ' +
        'Marketplace sellers are not included.\nDo you sell gift cards?\nYes, from 10 to 200 pounds.',
      question: 'Do you price match?',
      quote:
        'Do you match prices from other shops? We check our prices against the market every week. If you find ' +
        'the same product cheaper at an authorised UK retailer within 14 days, we refund the difference. ' +
        'Marketplace sellers are not included.',
    },
    {
      does: 'takes a price for a question about what something costs',
      content:
        'Express delivery is available for every order placed before noon.\nExpress delivery | SHIP-EXP | 9.95',
      question: 'What does express delivery cost?',
      quote: 'Express delivery | SHIP-EXP | 9.95',
    },
    {
      does: 'quotes the hours for "what are your support hours", not the sentence about outside those hours',
      content:
        'Support is open Monday to Friday, 9:00–17:00 CET. Support requests by e-mail get a ticket number. ' +
        'Outside these hours, leave a message and support calls you back the next working day.',
      question: 'What are your support hours?',
      quote: 'Support is open Monday to Friday, 9:00–17:00 CET.',
    },
    {
      does: 'quotes both sentences of a passage that carry the asked-for duration (the 14 and the 30 days)',
      content:
        'You can return an item bought in one of our shops within 14 days. Keep the receipt with it. ' +
        'Items bought in our online shop can be returned within 30 days of delivery. Refunds go to the card you paid with.',
      question: 'How many days do I have to return an item?',
      quote:
        'You can return an item bought in one of our shops within 14 days. … ' +
        'Items bought in our online shop can be returned within 30 days of delivery.',
    },
    {
      does: 'takes the sentence before the quote that carries the asked-for place (a weekday is no place)',
      content:
        'Can I visit your showroom?\nYes. Our showroom is at Karl-Heine-Strasse 42 in Leipzig. It is open Thursday ' +
        'to Saturday from 11 am to 6 pm, and you are welcome to try every machine on display.',
      question: 'where can I try the machines in person',
      quote:
        'Our showroom is at Karl-Heine-Strasse 42 in Leipzig. It is open Thursday to Saturday from 11 am to 6 pm, ' +
        'and you are welcome to try every machine on display.',
    },
  ];
  for (const { does, content, question, quote } of firstQuotes)
    it(does, () => {
      expect(extractQuotes(question, [passage(content)])[0]?.text).toBe(quote);
    });

  it('lets a guessed place choose a sentence, but not move one passage above a better one', () => {
    const state = passage('Victoria is a state in the south-east of Australia.', 'file_vic');
    const economy = passage('Victoria’s economy is ranked second in Australia.', 'file_economy');
    expect(extractQuotes('Where in Australia is Victoria located?', [state, economy])[0]?.text).toBe(
      'Victoria is a state in the south-east of Australia.',
    );
  });

  it('quotes a price list row with its header names and currency', () => {
    const prices = searchPassage(
      'SKU | Product | Price (EUR) | In stock\n' +
        'GR-300 | Ostra flat burr grinder | 249.00 | yes\n' +
        'GR-310 | Replacement burr set | 34.90 | yes\n' +
        'DS-250 | Descaler 250 ml | 12.90 | yes',
      { fileId: 'file_prices', subtype: 'table', key: 'price-list.csv' },
    );
    expect(extractQuotes('How much is a replacement burr set?', [prices])[0]?.text).toBe(
      'Replacement burr set — SKU: GR-310, price: 34.90 EUR, in stock: yes',
    );
  });

  it('cuts a long sentence around the words of the question, with ellipses, to at most 60 words', () => {
    const filler = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    const long = passage(`${filler} the warranty covers batteries for two years ${filler}.`);
    const [quote] = extractQuotes('Does the warranty cover batteries?', [long]);
    expect(quote?.text.split(/\s+/).length).toBeLessThanOrEqual(EXTRACT_DEFAULTS.maxWords);
    expect(quote?.text).toMatch(/^….*warranty covers batteries.*…$/);
  });

  it('never quotes a heading, nor a passage that shares no word with the question', () => {
    const heading = passage('Delivery times', 'file_h', { subtype: 'title' });
    const unrelated = passage('Our office dog is called Biscuit.', 'file_dog');
    expect(extractQuotes('delivery times?', [heading, unrelated])).toEqual([]);
  });

  it('answers nothing for a question made of stopwords only', () => {
    expect(extractQuotes('what is it?', [shipping])).toEqual([]);
  });

  it('never quotes the same document twice', () => {
    const a = passage('Returns are accepted within 14 days.', 'file_same');
    const b = passage('Returns of sale items are accepted within 7 days.', 'file_same');
    const quotes = extractQuotes('Are returns of sale items accepted?', [a, b]);
    expect(quotes).toHaveLength(1);
  });

  it('adds a second document only when it says what the first does not, close to the best', () => {
    const price = passage('The Pro plan costs 20 euros a month.', 'file_prices');
    const seats = passage('The Pro plan includes 5 seats.', 'file_plans');
    const repeat = passage('The Pro plan costs 20 euros a month, billed yearly.', 'file_faq');
    const twoFacts = extractQuotes('How much does the Pro plan cost and how many seats?', [price, seats]);
    expect(twoFacts.map((q) => q.passage.file.id)).toEqual(['file_prices', 'file_plans']);
    const same = extractQuotes('How much does the Pro plan cost?', [price, repeat]);
    expect(same.map((q) => q.passage.file.id)).toEqual(['file_prices']);
  });

  it('leaves out a second document far below the best', () => {
    const answer = passage('Gift cards never expire and can be used online or in shops.', 'file_gift');
    const weak = passage('Shops open at nine.', 'file_shops');
    const quotes = extractQuotes('Do gift cards expire, and can they be used in shops?', [answer, weak]);
    expect(quotes.map((q) => q.passage.file.id)).toEqual(['file_gift']);
  });
});
