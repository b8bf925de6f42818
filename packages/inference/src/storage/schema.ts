/** Kysely table types of the inference database. Times are Unix milliseconds. */
export interface ProjectTable {
  id: string;
  name: string;
  created: number;
}

export interface InferenceDatabase {
  project: ProjectTable;
}
