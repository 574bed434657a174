// Loaded into the server process under soak (node --import): every 2 s, one line with the process's RSS and the
// event-loop delay measured since the previous line. Not part of the product.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const timer = setInterval(() => {
  const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
  const line = {
    t: Date.now(),
    rss_mb: Math.round((process.memoryUsage.rss() / 1048576) * 10) / 10,
    heap_mb: Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10,
    eld_mean_ms: ms(histogram.mean),
    eld_p99_ms: ms(histogram.percentile(99)),
    eld_max_ms: ms(histogram.max),
  };
  histogram.reset();
  process.stderr.write(`SOAK-PROBE ${JSON.stringify(line)}\n`);
}, 2_000);
timer.unref();
