/** One usage entry per `atrium inference` subcommand (the operator ones also take the common options). */
const USAGE: Record<string, string> = {
  'make-test-model': `atrium inference make-test-model <out.gguf>
      writes the tiny llama-architecture test model the embedded engine serves by default`,
  'create-account': `atrium inference create-account --email E --name N [--password-stdin | --password P] [--admin]
      (without either: ATRIUM_INFERENCE_PASSWORD, else a random password printed once;
       --password shows the password to every user of the machine in the process list)`,
  'create-project': 'atrium inference create-project --name N [--organisation O]',
  'list-projects': `atrium inference list-projects
      every project: organisation, members, latest grant end, inference resource`,
  'add-member': 'atrium inference add-member --project P --email E --role pi|deputy|member',
  'add-grant': `atrium inference add-grant --project P --start DATE --end DATE
      --end 2027-12-31: the grant ends when that day ends (UTC); keys are refused from then on, on every route`,
  'set-allocation': 'atrium inference set-allocation --project P --cluster C --node-hours H',
  'set-rate': 'atrium inference set-rate --cluster C --credits-per-node-hour R [--from DATE]',
  convert: 'atrium inference convert --project P --cluster C --node-hours H   (creates the resource if needed)',
  'top-up': 'atrium inference top-up --project P --credits C',
  'set-limits': `atrium inference set-limits --project P [--rpm N] [--tpm N] [--concurrent N]   (omitted: unlimited)
      every gateway process applies the new limits within a second`,
  'list-resources': `atrium inference list-resources
      every inference resource: project, credits total and used, limits`,
  requests: 'atrium inference requests   (open service-desk requests)',
  approve: 'atrium inference approve --request ID --operator EMAIL',
  reject: 'atrium inference reject --request ID --operator EMAIL',
  announce: `atrium inference announce --kind maintenance|incident|model_change --title T [--body B] --start DATE --end DATE
      queues an email to every subscriber and a post to every chat channel ([[inference.announce.channels]])`,
  outbox: `atrium inference outbox [--limit N]
      the newest N (default 50) chat-channel posts and emails: status (pending, sent, failed…), attempts, last error`,
  'create-key': `atrium inference create-key --project P --alias A [--budget TOKENS] [--period day|week|month|Nd] [--models a,b]
      [--expires DATE] [--rpm N] [--tpm N]
      --models: ids of models the gateway serves (the embedded test model when none is configured);
      --expires 2027-12-31: the key works until that day ends (UTC); --rpm/--tpm: the key's own per-minute limits`,
  'edit-key': `atrium inference edit-key (--key ID | --project P --alias A) [--new-alias A2] [--budget TOKENS|none]
      [--period day|week|month|Nd|none] [--models a,b|all] [--expires DATE|none] [--rpm N|none] [--tpm N|none]
      changes only what is given; every gateway process applies it within a second`,
  'rotate-key': `atrium inference rotate-key (--key ID | --project P --alias A)
      a new secret, printed once; same key, settings and usage history; the old secret is refused at once`,
  'list-keys': `atrium inference list-keys [--project P]
      keys with their last four characters, budget, period use, models, state; never a secret`,
  'revoke-key': `atrium inference revoke-key (--key ID | --project P --alias A)
      every gateway process refuses the key within a second, on every route`,
  reload: `atrium inference reload [--url BASE] [--wait SECONDS]
      re-reads the catalogue ([[inference.models]]) of the configuration atrium serve reads; every gateway process
      on the database loads it within a second (SIGHUP reloads one process); waits (default 10 s) for each running
      process to load it, exit 1 if one did not; prints what changed and a pre-filled model-change announcement
      (--url: the service's address for the web-UI link)`,
  usage: `atrium inference usage [--project P [--alias A]] [--model M] [--from DATE] [--to DATE] [--by key|project|model|day] [--csv]
      requests, tokens and credits summed per group (default: per key, the last 30 days); --csv: as CSV`,
};

export const INFERENCE_SUBCOMMANDS: ReadonlySet<string> = new Set(Object.keys(USAGE));

const COMMON =
  'Operator commands work on the database of the configuration; each also takes --json, --config FILE, --data-dir DIR, --help.';

/** The usage of one subcommand, or of all of them. */
export function inferenceUsage(subcommand?: string): string {
  const entries = subcommand && USAGE[subcommand] ? [USAGE[subcommand]] : Object.values(USAGE);
  return `usage:\n${entries.map((e) => `  ${e}`).join('\n')}\n${subcommand === 'make-test-model' ? '' : `${COMMON}\n`}`;
}
