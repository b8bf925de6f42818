import type { ObjectStore } from './archive/repository.js';
import type { AiidaStore } from './storage/aiida/open.js';

/** One served database: an archive or an AiiDA PostgreSQL profile, with its repository objects. */
export interface Source {
  /** URL prefix segment and `profile=` name; the default source is also served at `/api/v4`. */
  name: string;
  store: AiidaStore;
  objects: ObjectStore;
  close(): Promise<void>;
}
