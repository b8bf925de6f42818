/**
 * Requests of the recorded AiiDA answers (test/fixtures/aiida-diff) where this server answers differently
 * on purpose, each with its reason (the package README, *Deliberate differences*, says more).
 * `request` matches the replay tool's label `METHOD path[ body]`; `archive` limits an entry to one set.
 */
export interface DeliberateDifference {
  request: RegExp;
  archive?: string;
  reason: string;
}

export const DELIBERATE_DIFFERENCES: DeliberateDifference[] = [
  {
    request: /^GET \/api\/v4\/users\/\d+$/,
    reason: 'AiiDA answers 500 (`no OrmEntityLoader available`) for /users/<int>; here the user',
  },
  {
    request: /^GET \/api\/v4\/nodes\/[0-9a-f-]+\/contents\/derived_properties$/,
    reason: 'AiiDA answers 500 (`lowtrans` unbound) for classes without a translator; here {"derived_properties": {}}',
  },
  {
    request: /attributes=true&attributes_filter=|extras=true&extras_filter=|"attributes":\{"has_key":"value"\}/,
    reason: "booleans inside JSON on AiiDA's SQLite backend come back as 0/1; here true/false (as on PostgreSQL)",
  },
  {
    request: /download\?download_format=cif(&download=false)?$/,
    reason:
      "StructureData `cif` depends on the PyCifRW/ASE versions (tagged `env`): PyCifRW's column padding and final newline are approximated",
  },
];
