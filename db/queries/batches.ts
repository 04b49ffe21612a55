/**
 * Runs a bounded delete again and again until a batch comes back short (or `maxBatches` ran): short statements,
 * no long lock, for the housekeeping jobs. Returns how many rows went.
 */
export async function deleteInBatches(
  deleteBatch: (batchSize: number) => Promise<number>,
  options: { batchSize?: number; maxBatches?: number } = {},
) {
  const batchSize = options.batchSize ?? 1000;
  let total = 0;
  for (let i = 0; i < (options.maxBatches ?? 100); i++) {
    const deleted = await deleteBatch(batchSize);
    total += deleted;
    if (deleted < batchSize) break;
  }
  return total;
}
