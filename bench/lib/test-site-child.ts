// The crawl tests' website (packages/testkit/src/server/test-site.ts) served by a process of its own, for
// benchmarks that time requests to Parley while it crawls the site: in the timing process, serving every page
// the crawler asks for would hold the event loop that reads Parley's answers, and the figure would count the
// site's work as Parley's latency. Prints the site's base URL on a line of its own; stops on SIGTERM.
//
//   node dist/bench/lib/test-site-child.js --pages 200
import { testSite } from '../../packages/testkit/src/server/test-site.js';
import { intOption } from './args.js';

const site = testSite({ pages: intOption('pages', 'BENCH_PAGES', 200, 1, 10_000) });
const base = await site.start();
process.stdout.write(`${base}\n`);
process.once('SIGTERM', () => {
  site.server.closeAllConnections();
  void site.stop().then(() => process.exit(0));
});
