import { describe, expect, it } from 'vitest';
import { extractText } from '../../../../../testkit/src/server/extract-fixtures.js';
import { extractHtml } from './html.js';

const PAGE = `<!doctype html>
<html>
<head><title>Fruit &amp; Co</title><style>p { color: red }</style><script>var hidden = 1;</script></head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <h1>Fruit guide</h1>
  <p>Apples are <b>crisp</b>&nbsp;and sweet.</p>
  <h2>Buying</h2>
  <ul><li>Pick firm fruit<ul><li>no bruises</li></ul></li><li>Smell the stem</li></ul>
  <ol start="3"><li>Third</li></ol>
  <table>
    <thead><tr><th>Fruit</th><th>Price</th></tr></thead>
    <tbody><tr><td>Apple</td><td>1.20</td></tr><tr><td>Pear</td><td>0.90</td></tr></tbody>
  </table>
  <h3>Storage</h3>
  <pre><code>store(apple, { cold: true });
  check(apple);</code></pre>
  <blockquote><p>An apple a day.</p><p>Keeps the doctor away.</p></blockquote>
  <div>Loose text in a div <img src="x.png" alt="A basket of apples"></div>
  <script>document.write('never')</script>
</body>
</html>`;

describe('HTML extraction', () => {
  it('maps elements to typed blocks and skips scripts, styles and navigation', async () => {
    const document = await extractText(PAGE, 'text/html; charset=utf-8', 'fruit.html');
    expect(document.title).toBe('Fruit & Co');
    expect(document.blocks).toEqual([
      { type: 'title', text: 'Fruit guide', level: 1 },
      { type: 'paragraph', text: 'Apples are crisp\u00a0and sweet.'.replace('\u00a0', ' ') },
      { type: 'subtitle', text: 'Buying', level: 2 },
      { type: 'list', text: '- Pick firm fruit' },
      { type: 'list', text: '  - no bruises' },
      { type: 'list', text: '- Smell the stem' },
      { type: 'list', text: '3. Third' },
      { type: 'table', text: 'Apple | 1.20\nPear | 0.90', header: 'Fruit | Price' },
      { type: 'subtitle', text: 'Storage', level: 3 },
      { type: 'code', text: 'store(apple, { cold: true });\n  check(apple);' },
      { type: 'blockquote', text: 'An apple a day. Keeps the doctor away.' },
      { type: 'paragraph', text: 'Loose text in a div' },
      { type: 'image', text: 'A basket of apples' },
    ]);
    const all = document.blocks.map((block) => block.text).join(' ');
    expect(all).not.toMatch(/hidden|never|color|Home/);
  });

  it('guesses a header row for a table without th cells', () => {
    const { blocks } = extractHtml(
      '<table><tr><td>Name</td><td>Age</td></tr><tr><td>Ann</td><td>31</td></tr></table>',
    );
    expect(blocks).toEqual([{ type: 'table', text: 'Ann | 31', header: 'Name | Age' }]);
    const numeric = extractHtml('<table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>');
    expect(numeric.blocks).toEqual([{ type: 'table', text: '1 | 2\n3 | 4' }]);
  });

  it('reads a fragment without html or body elements', () => {
    expect(extractHtml('<p>One</p>Two <em>three</em>').blocks).toEqual([
      { type: 'paragraph', text: 'One' },
      { type: 'paragraph', text: 'Two three' },
    ]);
  });

  it('fails empty_document for a page with only scripts and navigation', async () => {
    const html = '<html><body><nav>Menu</nav><script>x()</script></body></html>';
    await expect(extractText(html, 'text/html', 'empty.html')).rejects.toMatchObject({
      code: 'empty_document',
    });
  });
});
