/**
 * Long CPU work (planning 5,000 rows, the edited-copy check) in slices of `sliceMs`: between them the event loop
 * runs — the API, the UI's requests and the in-process scheduler share it with an import (docs/publishing.md#import).
 */
export function eventLoopSlices(sliceMs = 20) {
  let sliceStart = performance.now();
  let cpuStart = process.cpuUsage();
  let cpuBefore = 0;
  const cpuInSlice = () => {
    const used = process.cpuUsage(cpuStart);
    return (used.user + used.system) / 1000;
  };
  return {
    /** Lets the event loop run once this slice has taken `sliceMs` (wall time: what the loop's other work waits). */
    async pause() {
      if (performance.now() - sliceStart < sliceMs) return;
      cpuBefore += cpuInSlice();
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
      cpuStart = process.cpuUsage();
    },
    /** CPU milliseconds this process used in the slices so far (not while others ran between them). */
    cpuSpent: () => cpuBefore + cpuInSlice(),
  };
}
