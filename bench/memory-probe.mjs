/**
 * Loaded into the server by the load bench (`node --expose-gc --import=bench/memory-probe.mjs`),
 * never by the product: on SIGUSR2 it runs a full garbage collection and prints the process's
 * memory on one line, for the bench to read the server at rest before and after the measured
 * minute (load.ts, "Memory").
 */
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
  console.log(
    `MEMORY-PROBE rss=${mb(m.rss)} heapTotal=${mb(m.heapTotal)} heapUsed=${mb(m.heapUsed)} arrayBuffers=${mb(m.arrayBuffers)}`,
  );
});
