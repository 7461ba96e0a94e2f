/**
 * Loaded into the server by the load bench (`node --expose-gc --import=bench/memory-probe.mjs`),
 * never by the product. Each second it prints the process's memory — RSS and V8's heap read at
 * the same instant, so the memory outside the heap is their difference — and on SIGUSR2 it runs a
 * full garbage collection and prints the memory after it, for the bench to read the server at
 * rest before and after the measured minute (load.ts, "Memory").
 */
const line = (label) => {
  const m = process.memoryUsage();
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
  console.log(
    `${label} rss=${mb(m.rss)} heapTotal=${mb(m.heapTotal)} heapUsed=${mb(m.heapUsed)} arrayBuffers=${mb(m.arrayBuffers)}`,
  );
};

setInterval(() => line('MEMORY-SAMPLE'), 1000).unref();

process.on('SIGUSR2', () => {
  globalThis.gc?.();
  line('MEMORY-PROBE');
});
