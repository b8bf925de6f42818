/** Kysely table types of the bench database. Times are Unix milliseconds. */
export interface OrganizationTable {
  uuid: string;
  name: string;
  slug: string;
  created: number;
  modified: number;
}

export interface BenchDatabase {
  organization: OrganizationTable;
}
