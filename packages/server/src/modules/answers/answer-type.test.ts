import { describe, expect, it } from 'vitest';
import { type AnswerType, carrierWeight, carries, expectedAnswer } from './answer-type.js';

const typesOf = (question: string) => expectedAnswer(question).map((e) => e.type);

describe('expectedAnswer', () => {
  it.each<[string, AnswerType[]]>([
    ['How long do I have to send something back?', ['duration']],
    ['How many days do I have to return an item?', ['duration']],
    ['how soon will my stuff get here', ['duration']],
    ['how often should i descale', ['duration']],
    ['What are your support hours?', ['time']],
    ['what time do you open on saturdays', ['time']],
    ['When is customer service available?', ['time']],
    ['When can I talk to a real person?', ['time']],
    ['How much are the Aria H2 headphones?', ['price', 'number']],
    ['how much is delivery within germany', ['price', 'number']],
    ['What does express shipping cost?', ['price', 'number']],
    ['price for new burrs for the ostra?', ['price', 'number']],
    ['does the company pay for my broadband', ['price', 'number']],
    ['when will my order arrive in germany', ['date', 'time', 'duration']],
    ['is good friday a day off', ['date', 'time', 'duration']],
    ['how many api calls can i make', ['number']],
    ['how much electricity does it use', ['number']],
    ['where can I try the machines in person', ['place']],
    ['Which country is our data stored in?', ['place']],
    ['Who approves my holiday?', ['person']],
    ['Can I wear the headphones while swimming?', []],
    ['do you ship to norway', []],
  ])('%s → %j', (question, types) => {
    expect(typesOf(question)).toEqual(types);
  });

  it('prefers the question’s own type to a looser one', () => {
    expect(expectedAnswer('How much is the case?')).toEqual([
      { type: 'price', weight: 1 },
      { type: 'number', weight: 0.5 },
    ]);
  });

  it('expects nothing in a language it has no rules for', () => {
    expect(expectedAnswer('How long do refunds take?', 'xx')).toEqual([]);
  });
});

describe('carries', () => {
  it.each<[AnswerType, string, boolean]>([
    ['duration', 'You can return it within 30 days of delivery.', true],
    ['duration', 'Refunds take 2 weeks.', true],
    ['duration', 'We deliver the next working day.', true],
    ['duration', 'Returns are free.', false],
    ['time', 'Our team answers Monday to Friday, 9:00–17:00 CET.', true],
    ['time', 'Call us from 9am to 5pm.', true],
    ['time', 'Outside these hours, leave a message and we call you back.', false],
    ['price', 'The replacement burr set costs €34.90.', true],
    ['price', 'Replacement burr set — price: 34.90 EUR', true],
    ['price', 'Genuine filters cost 39 EUR in the app.', true],
    ['price', 'Standard delivery takes 3 to 5 working days.', false],
    ['place', 'Visit our showroom in Leipzig on Saturdays.', true],
    ['place', 'In most cases we answer within a day.', false],
    ['place', 'It is open Thursday to Saturday from 11 am to 6 pm.', false],
    ['person', 'Ask your team lead first.', true],
    ['person', 'Write to people@kestrel.example.', true],
    ['date', 'The office is closed on 2026-12-24.', true],
    ['date', 'Leave is booked in the app.', false],
    ['number', 'The headphones remember up to eight devices.', true],
  ])('%s in %j: %s', (type, sentence, expected) => {
    expect(carries(sentence, type)).toBe(expected);
  });
});

describe('carrierWeight', () => {
  it('weighs a sentence by the best expected type it carries', () => {
    const expected = expectedAnswer('How much are new filters?');
    expect(carrierWeight('Genuine replacement filters cost 39 EUR.', expected)).toBe(1);
    expect(carrierWeight('A subscription delivers a new one every 6 months.', expected)).toBe(0.5);
    expect(carrierWeight('Filters are sold in the app.', expected)).toBe(0);
    expect(carrierWeight('Filters cost 39 EUR.', [])).toBe(0);
  });
});
