/**
 * Long CPU work (planning 5,000 rows, the edited-copy check) in slices of `sliceMs`: between them the event loop
 * runs — the API, the UI's requests and the in-process scheduler share it with an import (issue 21.2).
 */
export function eventLoopSlices(sliceMs = 20) {
  let sliceStart = performance.now();
  let spentBefore = 0;
  return {
    /** Lets the event loop run once this slice has taken `sliceMs`. */
    async pause() {
      const now = performance.now();
      if (now - sliceStart < sliceMs) return;
      spentBefore += now - sliceStart;
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    },
    /** Milliseconds spent working in the slices so far (not the time others ran between them). */
    spent: () => spentBefore + performance.now() - sliceStart,
  };
}
