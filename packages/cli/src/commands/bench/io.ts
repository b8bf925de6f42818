/** Where a subcommand writes, and the environment it reads: process streams in the CLI. */
export interface Io {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  warn(message: string): void;
}

export const processIo: Io = {
  env: process.env,
  out: (text) => {
    process.stdout.write(text);
  },
  warn: (message) => {
    process.stderr.write(`${message}\n`);
  },
};

/** Resource subcommands print the server's JSON, pretty, and nothing else. */
export const printJson = (io: Io, value: unknown) => io.out(`${JSON.stringify(value, null, 2)}\n`);
