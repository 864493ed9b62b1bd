// The visitor set's questions (issue 33): written as visitors type them into a chat box (short, informal, often
// lower-case), not as the documents word it. Each answerable question names its source document, the topic it
// belongs to (a heading or title of that document) and the facts any right answer states; an unanswerable one
// is a plausible question the documents do not answer (some asked of the wrong business). Whether a question
// shares words with its answer is computed (wording.ts), never written here.
import type { KnowledgeBaseName } from './documents.js';

/** What answers a question: its document, the topic it belongs to, and what a right answer must state. */
export interface ExpectedAnswer {
  /** The file key of the document that answers. */
  source: string;
  /** The heading or title (of that document) the answer sits under. */
  topic: string;
  /** Every one of them must be in the reply (case and spacing aside). */
  facts: string[];
}

/** A question of the visitor set as written. */
export interface WrittenQuestion {
  kb: KnowledgeBaseName;
  text: string;
  /** null: no document of its knowledge base answers it. */
  answer: ExpectedAnswer | null;
}

type Ask = (text: string, source: string, topic: string, ...facts: string[]) => WrittenQuestion;
const asker =
  (kb: KnowledgeBaseName): Ask =>
  (text, source, topic, ...facts) => ({ kb, text, answer: { source, topic, facts } });
const none = (kb: KnowledgeBaseName, texts: string[]): WrittenQuestion[] =>
  texts.map((text) => ({ kb, text, answer: null }));

const shop = asker('shop');
const SHOP: WrittenQuestion[] = [
  shop('how long do i have to send something back', 'returns-and-refunds.md', 'Returning an item', '30 days'),
  shop(
    'Can I return a grinder I bought 3 weeks ago?',
    'returns-and-refunds.md',
    'Returning an item',
    '30 days',
  ),
  shop('can i get my money back if i dont like it', 'returns-and-refunds.md', 'Returning an item', '30 days'),
  shop(
    'when does the money reach my card after i send it',
    'returns-and-refunds.md',
    'Refunds',
    '5 working days',
  ),
  shop('How long do refunds take?', 'returns-and-refunds.md', 'Refunds', '5 working days'),
  shop('do i pay for the return from austria', 'returns-and-refunds.md', 'Return shipping costs', '6.90 EUR'),
  shop(
    'sending it back from france, does that cost me anything?',
    'returns-and-refunds.md',
    'Return shipping costs',
    '6.90 EUR',
  ),
  shop('Can I swap the kettle for a different one?', 'returns-and-refunds.md', 'Exchanges', 'do not swap'),
  shop('my grinder arrived broken what do i do', 'returns-and-refunds.md', 'Damaged on arrival', '48 hours'),
  shop('package came smashed, what now', 'returns-and-refunds.md', 'Damaged on arrival', '48 hours'),
  shop(
    'how long is the warranty on an espresso machine',
    'warranty.pdf',
    'Warranty period',
    '2-year warranty',
  ),
  shop(
    'if it stops working next spring do you repair it free',
    'warranty.pdf',
    'Warranty period',
    '2-year warranty',
  ),
  shop(
    'does registering my ostra grinder give me longer cover',
    'warranty.pdf',
    'Warranty period',
    '3 years',
  ),
  shop('is the brush covered under warranty', 'warranty.pdf', 'What is not covered', 'wear parts'),
  shop(
    'furred up with calcium, will you sort that for nothing?',
    'warranty.pdf',
    'What is not covered',
    'limescale',
  ),
  shop('What do I need to send in with a warranty claim?', 'warranty.pdf', 'Making a claim', 'serial number'),
  shop('what do you need from me when it stops working', 'warranty.pdf', 'Making a claim', 'serial number'),
  shop('how long does a repair take', 'warranty.pdf', 'Repairs and replacement', '10 working days'),
  shop(
    'when do i get my espresso maker back after fixing',
    'warranty.pdf',
    'Repairs and replacement',
    '10 working days',
  ),
  shop('do i get a stand-in while mine is in the shop', 'warranty.pdf', 'Repairs and replacement', '600 EUR'),
  shop('Do you ship to Switzerland?', 'delivery.docx', 'Where we deliver', 'Switzerland'),
  shop('when will my order arrive in germany', 'delivery.docx', 'Delivery times', '1 to 2 working days'),
  shop('how fast is your shipping', 'delivery.docx', 'Delivery times', '1 to 2 working days'),
  shop('if i buy at lunchtime, will it ship today', 'delivery.docx', 'Delivery times', '2 pm'),
  shop('whats the postage to italy', 'delivery.docx', 'Delivery costs', '12.90 EUR'),
  shop('how much is delivery within germany', 'delivery.docx', 'Delivery costs', '4.90 EUR'),
  shop('is there a minimum spend so i dont pay for postage', 'delivery.docx', 'Delivery costs', '59 EUR'),
  shop('which courier do you use', 'delivery.docx', 'Carriers and tracking', 'DHL'),
  shop('how can i follow where my package is', 'delivery.docx', 'Carriers and tracking', 'tracking link'),
  shop('How much is the Ostra grinder?', 'price-list.csv', 'Price list', '249.00'),
  shop('price for new burrs for the ostra?', 'price-list.csv', 'Price list', '34.90'),
  shop('what does the gooseneck kettle cost', 'price-list.csv', 'Price list', '79.00'),
  shop('how much for the dual boiler machine', 'price-list.csv', 'Price list', '1149.00'),
  shop('do you take amex', 'faq.txt', 'Which payment methods do you accept?', 'American Express'),
  shop('where can I try the machines in person', 'faq.txt', 'Can I visit your showroom?', 'Leipzig'),
  shop(
    'what time is the showroom open on saturday',
    'faq.txt',
    'Can I visit your showroom?',
    '11 am to 6 pm',
  ),
  shop('when can i talk to someone', 'faq.txt', 'When is customer service available?', '9 am to 5 pm'),
  shop(
    'I ordered the wrong kettle, can i still cancel?',
    'faq.txt',
    'Can I change or cancel my order?',
    'received',
  ),
  shop('does a voucher expire', 'faq.txt', 'How long are gift cards valid?', '3 years'),
  shop('do i have to sign up to buy', 'faq.txt', 'Do I need an account to order?', 'guest'),
  shop('how often should i descale', 'care-guide.md', 'Descaling', 'every 2 months'),
  shop('how often to remove the chalk buildup', 'care-guide.md', 'Descaling', 'every 2 months'),
  shop('when do the grinding discs need changing', 'care-guide.md', 'Grinder burrs', '500 kg'),
  ...none('shop', [
    'do you sell coffee beans',
    'is there a student discount',
    'can i rent a machine for a wedding',
    'do you run barista courses',
    'how much is the la marzocco linea mini',
    'will you match a cheaper price from another shop',
    'how much is the yearly plan',
    'do you deliver on sundays',
    'how many days holiday do i get',
    'can i trade in my old machine',
    'do you have a loyalty card',
  ]),
];

const saas = asker('saas');
const SAAS: WrittenQuestion[] = [
  saas('how much is the team plan', 'plans-and-pricing.md', 'Plans', '9 EUR per user per month'),
  saas(
    'whats it cost per person for the business tier',
    'plans-and-pricing.md',
    'Plans',
    '19 EUR per user per month',
  ),
  saas('is there a free version', 'plans-and-pricing.md', 'Plans', 'up to 2 users'),
  saas('do you give a discount for annual billing', 'plans-and-pricing.md', 'Yearly billing', '20%'),
  saas('annual subscription cheaper?', 'plans-and-pricing.md', 'Yearly billing', '20%'),
  saas('can i try it before paying', 'plans-and-pricing.md', 'Free trial', '14-day trial'),
  saas(
    'do i need a credit card for the trial',
    'plans-and-pricing.md',
    'Free trial',
    'No credit card is needed',
  ),
  saas(
    "we're a charity, any discount?",
    'plans-and-pricing.md',
    'Discounts for non-profits and education',
    '50%',
  ),
  saas(
    'do universities get a reduced price',
    'plans-and-pricing.md',
    'Discounts for non-profits and education',
    '50%',
  ),
  saas(
    'can it come straight out of our bank account',
    'billing-faq.txt',
    'How can I pay?',
    'SEPA direct debit',
  ),
  saas(
    'where do i find receipts for what we paid',
    'billing-faq.txt',
    'Where do I find my invoices?',
    'Settings > Billing > Invoices',
  ),
  saas(
    'how do i stop my subscription',
    'billing-faq.txt',
    'How do I cancel my subscription?',
    'Cancel subscription',
  ),
  saas(
    'if we quit early, do we get reimbursed for the rest',
    'billing-faq.txt',
    'How do I cancel my subscription?',
    'do not refund',
  ),
  saas('what if my card gets declined', 'billing-faq.txt', 'What happens if a payment fails?', '7 days'),
  saas('can i downgrade later', 'billing-faq.txt', 'Can I change my plan later?', 'next billing period'),
  saas('do eu businesses pay vat', 'billing-faq.txt', 'Do you charge VAT?', 'reverse charge'),
  saas('where are your servers', 'security-and-data.docx', 'Where your data is stored', 'Frankfurt'),
  saas('is our data kept in the EU', 'security-and-data.docx', 'Where your data is stored', 'European Union'),
  saas('how often do you save a copy of everything', 'security-and-data.docx', 'Backups', 'every 4 hours'),
  saas('how far back can you restore', 'security-and-data.docx', 'Backups', '35 days'),
  saas('is everything encrypted', 'security-and-data.docx', 'Encryption', 'AES-256'),
  saas('how do you protect stored info from thieves', 'security-and-data.docx', 'Encryption', 'AES-256'),
  saas('do you support 2fa', 'security-and-data.docx', 'Access control', 'two-factor authentication'),
  saas('can we log in with okta', 'security-and-data.docx', 'Access control', 'SAML single sign-on'),
  saas('do you have iso certification', 'security-and-data.docx', 'Certifications', 'ISO 27001'),
  saas('hacked, how soon do we hear about it', 'security-and-data.docx', 'Security incidents', '72 hours'),
  saas('how many api calls can i make', 'api-guide.pdf', 'Rate limits', '120 requests per minute'),
  saas("what's the throttle on your endpoints", 'api-guide.pdf', 'Rate limits', '120 requests per minute'),
  saas('what does a 429 mean', 'api-guide.pdf', 'Rate limits', 'Retry-After'),
  saas('how do I authenticate to the api', 'api-guide.pdf', 'Getting started', 'Bearer token'),
  saas('what if our webhook endpoint is down', 'api-guide.pdf', 'Webhooks', '5 times'),
  saas('how much storage on team', 'plan-limits.csv', 'Plan limits', '50 GB'),
  saas('biggest file I can attach on business?', 'plan-limits.csv', 'Plan limits', '2 GB'),
  saas('whats your uptime guarantee', 'support-and-service.md', 'Uptime', '99.9%'),
  saas('what do we get if you go down', 'support-and-service.md', 'Uptime', 'service credit of 10%'),
  saas('when are you guys around', 'support-and-service.md', 'Contacting support', '8:00 to 18:00 CET'),
  saas('how fast will you get back to me', 'support-and-service.md', 'Contacting support', '1 working day'),
  saas(
    'can i download everything as a spreadsheet',
    'support-and-service.md',
    'Exporting your data',
    'CSV or JSON',
  ),
  saas('once we leave, when is our stuff wiped', 'support-and-service.md', 'Closing your account', '30 days'),
  saas('is there an onboarding call', 'support-and-service.md', 'Onboarding help', '60-minute'),
  ...none('saas', [
    'does it integrate with jira',
    'can i host tallyboard on my own server',
    'is there a lifetime deal',
    'do you have payroll',
    'is there a dark mode',
    'can i track time without internet',
    'how long is the warranty on the purifier',
    'do you have a referral program',
    'can invoices be in dollars',
    'how do i return a grinder',
  ]),
];

const hr = asker('handbook');
const HANDBOOK: WrittenQuestion[] = [
  hr('how many days can i work from home', 'working-from-home.md', 'How often', '3 days a week'),
  hr('how much remote is allowed', 'working-from-home.md', 'How often', '3 days a week'),
  hr('do we have to be in on tuesdays', 'working-from-home.md', 'How often', 'Tuesdays'),
  hr('what hours do i have to be online', 'working-from-home.md', 'Core hours', '10:00 and 15:00'),
  hr('do i get money for a desk at home', 'working-from-home.md', 'Equipment', '500 EUR'),
  hr('does the company pay for my broadband', 'working-from-home.md', 'Equipment', '20 EUR per month'),
  hr('can i work from spain for a bit', 'working-from-home.md', 'Working from abroad', '20 working days'),
  hr(
    'can i spend a month in lisbon doing my job',
    'working-from-home.md',
    'Working from abroad',
    '20 working days',
  ),
  hr('how many vacation days do we get', 'leave-and-absence.pdf', 'Annual leave', '28 days'),
  hr('how much pto do i have', 'leave-and-absence.pdf', 'Annual leave', '28 days'),
  hr('what happens to vacation i didnt use', 'leave-and-absence.pdf', 'Annual leave', '31 March'),
  hr("who do i tell if i'm sick", 'leave-and-absence.pdf', 'Sick leave', 'before 9:30'),
  hr('im not feeling well today what do i do', 'leave-and-absence.pdf', 'Sick leave', 'before 9:30'),
  hr('when do i need a doctors note', 'leave-and-absence.pdf', 'Sick leave', 'third calendar day'),
  hr(
    'got the flu, when do i need paperwork from the gp',
    'leave-and-absence.pdf',
    'Sick leave',
    'third calendar day',
  ),
  hr('my kid is ill, can i stay home', 'leave-and-absence.pdf', 'Sick leave', '15 days per child'),
  hr('how long do i keep getting paid when off sick', 'leave-and-absence.pdf', 'Sick leave', 'six weeks'),
  hr('how long is parental leave', 'leave-and-absence.pdf', 'Parental leave', 'three years'),
  hr('do i get extra money during baby time', 'leave-and-absence.pdf', 'Parental leave', '80%'),
  hr(
    'do i get time off to get married',
    'leave-and-absence.pdf',
    'Special leave',
    '1 day for your own wedding',
  ),
  hr('how do i claim expenses', 'expenses.docx', 'Submitting expenses', 'Spendly'),
  hr(
    'how do i get reimbursed for stuff i bought for work',
    'expenses.docx',
    'Submitting expenses',
    'Spendly',
  ),
  hr('do i need receipts', 'expenses.docx', 'Submitting expenses', 'over 10 EUR'),
  hr('can i go first class on the train', 'expenses.docx', 'Travel', 'over 4 hours'),
  hr('whats the hotel budget in london', 'expenses.docx', 'Travel', '180 EUR per night'),
  hr('how much can i spend on a place to sleep on a trip', 'expenses.docx', 'Travel', '140 EUR per night'),
  hr('how much for lunch and dinner on the road', 'expenses.docx', 'Meals and allowances', '28 EUR'),
  hr("what's the mileage rate", 'expenses.docx', 'Meals and allowances', '0.30 EUR per kilometre'),
  hr('can i expense a beer', 'expenses.docx', 'What is not reimbursed', 'Alcohol'),
  hr('is good friday a day off', 'public-holidays-2026.csv', 'Public holidays 2026', '2026-04-03'),
  hr('are we off on christmas eve', 'public-holidays-2026.csv', 'Public holidays 2026', '2026-12-24'),
  hr('when is payday', 'hr-faq.txt', 'When do we get paid?', 'last working day'),
  hr('how long is probation', 'hr-faq.txt', 'How long is the probation period?', '6 months'),
  hr(
    'is there money for courses',
    'hr-faq.txt',
    'Is there a budget for training and conferences?',
    '1,000 EUR per year',
  ),
  hr(
    'will someone show me the ropes when i start',
    'hr-faq.txt',
    'Will I have someone to help me in my first weeks?',
    'onboarding buddy',
  ),
  hr(
    'how old does my computer have to be before i get a new one',
    'it-and-equipment.md',
    'Your laptop',
    'every 4 years',
  ),
  hr(
    'i left my macbook on the train what now',
    'it-and-equipment.md',
    'Lost or stolen devices',
    'within 24 hours',
  ),
  hr('which password manager do we use', 'it-and-equipment.md', 'Passwords and accounts', '1Password'),
  hr('how do i install software', 'it-and-equipment.md', 'Software', 'Self Service app'),
  ...none('handbook', [
    'is there a gym discount',
    'can i bring my dog to the office',
    'whats the company pension scheme',
    'do we get a christmas bonus',
    'how much does the team plan cost',
    'is there free parking at the office',
    'what is the dress code',
    'do we get stock options',
    'how do i return a kettle',
    'is lunch provided in the office',
  ]),
];

const dev = asker('device');
const DEVICE: WrittenQuestion[] = [
  dev('what comes in the box', 'quick-start.md', 'In the box', 'power adapter'),
  dev('how far from the wall should it be', 'quick-start.md', 'Setting up', '30 cm'),
  dev('where should i put it in the room', 'quick-start.md', 'Setting up', '30 cm'),
  dev('which app do i need', 'quick-start.md', 'Connecting to the app', 'Aerlo Home'),
  dev('how do i hook it up to the internet', 'quick-start.md', 'Connecting to the app', '2.4 GHz'),
  dev('what does auto mode do', 'user-manual.pdf', 'Modes', 'air quality the sensor measures'),
  dev('will it keep me awake at night', 'user-manual.pdf', 'Modes', '22 dB'),
  dev('how long does turbo last', 'user-manual.pdf', 'Modes', '30 minutes'),
  dev(
    'what does it mean when the ring turns yellow',
    'user-manual.pdf',
    'Air quality ring',
    'yellow means moderate',
  ),
  dev(
    'can it switch itself off after a while',
    'user-manual.pdf',
    'Timer and child lock',
    '1, 2, 4 or 8 hours',
  ),
  dev(
    'toddler keeps fiddling with it, can i block that',
    'user-manual.pdf',
    'Timer and child lock',
    'lock button',
  ),
  dev('how often do i replace the filter', 'user-manual.pdf', 'Filter care', '6 to 12 months'),
  dev('can i wash the hepa thing', 'user-manual.pdf', 'Filter care', 'cannot be washed'),
  dev(
    'the outer mesh thing, how often should i hoover it',
    'user-manual.pdf',
    'Filter care',
    'every 2 weeks',
  ),
  dev('how do i clean the sensor', 'user-manual.pdf', 'Cleaning', 'cotton swab'),
  dev("it doesn't switch on", 'troubleshooting.txt', 'The purifier does not turn on.', 'plugged in'),
  dev(
    "app says it can't find the device",
    'troubleshooting.txt',
    'The app cannot find the purifier.',
    '5 metres',
  ),
  dev(
    'filter warning still on after new filter',
    'troubleshooting.txt',
    'The filter light is still red after I changed the filter.',
    '3 seconds',
  ),
  dev('it stinks', 'troubleshooting.txt', 'The purifier smells strange.', 'first few days'),
  dev(
    'why is it making a rattling sound',
    'troubleshooting.txt',
    'It is louder than usual.',
    'not seated properly',
  ),
  dev(
    'what does E2 mean',
    'troubleshooting.txt',
    'The display shows E1 or E2.',
    'air quality sensor has failed',
  ),
  dev('how big a room can it handle', 'specifications.csv', 'Specifications', '40 m2'),
  dev('how loud is it at full blast', 'specifications.csv', 'Specifications', '52 dB'),
  dev('how much electricity does it use', 'specifications.csv', 'Specifications', '36 W'),
  dev('how heavy is it', 'specifications.csv', 'Specifications', '5.8 kg'),
  dev('how tall is the unit', 'specifications.csv', 'Specifications', '58 cm'),
  dev('whats the cadr', 'specifications.csv', 'Specifications', '310 m3/h'),
  dev('can i put it in the bathroom', 'safety-instructions.docx', 'Where to use it', 'bathrooms'),
  dev('is it ok next to the radiator', 'safety-instructions.docx', 'Where to use it', '1 metre'),
  dev('is it ok for my 6yo to operate it', 'safety-instructions.docx', 'Children and pets', 'under 8 years'),
  dev(
    'can i spray air freshener into it',
    'safety-instructions.docx',
    'Cleaning and maintenance',
    'Never spray',
  ),
  dev('how do i throw it away when it dies', 'safety-instructions.docx', 'Disposal', 'collection point'),
  dev('how long is the warranty', 'warranty-and-support.md', 'Warranty', '2-year warranty'),
  dev('how much are new filters', 'warranty-and-support.md', 'Replacement filters', '39 EUR'),
  dev(
    'what number do i call for help',
    'warranty-and-support.md',
    'Contacting Aerlo support',
    '+49 30 555 0147',
  ),
  dev(
    'how long will i be without it if it needs fixing',
    'warranty-and-support.md',
    'Repairs',
    '10 working days',
  ),
  ...none('device', [
    'does it work as a humidifier too',
    'can it run on batteries',
    'does it kill viruses',
    'does it work with alexa',
    'how much is the business plan',
    'can i send it back if i dont like it',
    'can i use it in my car',
    'does it come in white',
    'how many days sick leave do i get',
    'is there an ioniser',
  ]),
];

/** Every question of the visitor set, knowledge base by knowledge base, in the order written. */
export const WRITTEN_QUESTIONS: readonly WrittenQuestion[] = [...SHOP, ...SAAS, ...HANDBOOK, ...DEVICE];
