import { clientSnippets } from '../../src/ui/client-snippets.js';
import { allowancesOf } from '../../src/ui/connect-page.js';
import { CONTEXT, MODALITIES, MODEL } from './gateway.js';

/** The copy-paste settings the connect page shows a user of `MODEL` on the gateway at `base`. */
export const connectSettings = (base: string) =>
  clientSnippets({
    base,
    model: MODEL,
    context: CONTEXT,
    output: allowancesOf(CONTEXT).output,
    modalities: MODALITIES,
  });

/** The variables a shell snippet's `export NAME=value` lines set, with `key` where it says `<your key>`. */
export function exportsOf(snippet: string, key: string): Record<string, string> {
  const exports = [...snippet.matchAll(/^export (\w+)=(.*)$/gm)];
  return Object.fromEntries(exports.map(([, name, value]) => [name, (value as string).replace('<your key>', key)]));
}
