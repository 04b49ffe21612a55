/**
 * The composer's tus chunk (and the benchmark's): small enough to resume often after a dropped connection, and what
 * the server holds of an upload at most at once (the bytes stream to disk as they arrive).
 */
export const VIDEO_CHUNK_BYTES = 5 * 1024 * 1024;
