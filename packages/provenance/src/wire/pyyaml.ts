/**
 * PyYAML's `yaml.dump(mapping, sort_keys=False)` for a flat mapping of plain keys to strings: the scalar
 * style PyYAML's emitter picks (plain, single- or double-quoted, non-ASCII escaped as without
 * `allow_unicode`) and its folding of plain and single-quoted scalars past column 80.
 */

const BREAKS = '\n\x85\u2028\u2029';
const WHITESPACE = `\0 \t\r${BREAKS}`;
const WIDTH = 80;
const INDENT = '  ';

/** Texts PyYAML's implicit resolvers would read as something other than a string (bool, int, null, …). */
const RESOLVED = [
  /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  /^(?:<<)$/,
  /^(?:~|null|Null|NULL|)$/,
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/,
  /^(?:=)$/,
];

type Style = 'plain' | 'single' | 'double';

/** `Emitter.analyze_scalar` + `choose_scalar_style` for a block mapping value. */
function styleOf(text: string): Style {
  if (RESOLVED.some((pattern) => pattern.test(text))) return 'single';
  let blockIndicators = text.startsWith('---') || text.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let [leadingSpace, leadingBreak, trailingSpace, trailingBreak] = [false, false, false, false];
  let [breakSpace, spaceBreak, previousSpace, previousBreak] = [false, false, false, false];
  const chars = [...text];
  chars.forEach((ch, index) => {
    const followed = index + 1 >= chars.length || WHITESPACE.includes(chars[index + 1] as string);
    const preceded = index === 0 || WHITESPACE.includes(chars[index - 1] as string);
    if (index === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      if ('?:-'.includes(ch) && followed) blockIndicators = true;
    } else if ((ch === ':' && followed) || (ch === '#' && preceded)) blockIndicators = true;
    if (BREAKS.includes(ch)) lineBreaks = true;
    if (!(ch === '\n' || (ch >= ' ' && ch <= '~'))) special = true;
    const last = index === chars.length - 1;
    if (ch === ' ') {
      if (index === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      [previousSpace, previousBreak] = [true, false];
    } else if (BREAKS.includes(ch)) {
      if (index === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      [previousSpace, previousBreak] = [false, true];
    } else [previousSpace, previousBreak] = [false, false];
  });
  if (spaceBreak || special) return 'double';
  if (breakSpace) return 'double';
  const plain = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || blockIndicators);
  return plain ? 'plain' : 'single';
}

/** Writes `text` after `column` characters, turning single spaces past column 80 into line breaks. */
function folded(text: string, column: number, quote: string): string {
  let out = '';
  let col = column;
  const runs = text.match(/ +|\n+|[^ \n]+/g) ?? [];
  runs.forEach((run, i) => {
    const edge = i === 0 || i === runs.length - 1;
    if (run === ' ' && col > WIDTH && !edge) {
      out += `\n${INDENT}`;
      col = INDENT.length;
    } else if (run.startsWith('\n')) {
      out += `\n${run}${INDENT}`;
      col = INDENT.length;
    } else {
      const written = quote ? run.replaceAll(quote, quote + quote) : run;
      out += written;
      col += written.length;
    }
  });
  return out;
}

const ESCAPES: Record<string, string> = {
  '\0': '0',
  '\x07': 'a',
  '\b': 'b',
  '\t': 't',
  '\n': 'n',
  '\v': 'v',
  '\f': 'f',
  '\r': 'r',
  '\x1b': 'e',
  '"': '"',
  '\\': '\\',
  '\x85': 'N',
  '\xa0': '_',
  '\u2028': 'L',
  '\u2029': 'P',
};

function doubleQuoted(text: string): string {
  const escaped = [...text].map((ch) => {
    const code = ch.codePointAt(0) as number;
    if (ESCAPES[ch]) return `\\${ESCAPES[ch]}`;
    if (code >= 0x20 && code <= 0x7e) return ch;
    const hex = code.toString(16).toUpperCase();
    if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
    return code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`;
  });
  return `"${escaped.join('')}"`;
}

/** `yaml.dump(mapping, sort_keys=False)` of string and boolean values under plain keys. */
export function dumpYaml(mapping: [key: string, value: string | boolean][]): string {
  return mapping
    .map(([key, value]) => {
      if (typeof value === 'boolean') return `${key}: ${value}\n`;
      const column = key.length + 2;
      const style = styleOf(value);
      if (style === 'plain') return `${key}: ${folded(value, column, '')}\n`;
      if (style === 'single') return `${key}: '${folded(value, column + 1, "'")}'\n`;
      return `${key}: ${doubleQuoted(value)}\n`;
    })
    .join('');
}
