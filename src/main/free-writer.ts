// A service's write while a compaction may hold the index's writes (index-db/write/compact.ts): it waits for the
// compaction asynchronously, so the event loop keeps answering, instead of meeting the VACUUM's write lock.
import type { IndexDb } from '../index-db/types.ts';

/**
 * `use` gets the index's writer (null in a process that reads another writer's index) once no compaction holds its
 * writes, in the very turn that found them free: none can begin between that check and the write `use` makes.
 */
export async function withFreeWriter<W extends Pick<IndexDb, 'writesHeld'>, T>(writable: () => W | null, use: (writer: W | null) => T): Promise<T> {
  let writer = writable();
  for (let held = writer?.writesHeld(); held; held = writer?.writesHeld()) {
    await held;
    writer = writable();
  }
  return use(writer);
}
