/**
 * AiiDA REST v4 query-string grammar (the pyparsing grammar of `Utils.parse_query_string`):
 *
 *   query   := ['&'] [field ('&' field)*] ['&']
 *   field   := key ('=in=' | '=notin=') list | key '=' list | key operator value
 *   list    := value (',' value)+ [',']
 *   value   := "quoted ""string""" | true | false | datetime | number | ['+'|'-'] key
 *
 * The input is the already percent-decoded query string. Failures carry the reference's message.
 */

export type Operator = '=like=' | '=ilike=' | '=in=' | '=notin=' | '=' | '!=' | '>=' | '>' | '<=' | '<';

export interface DatetimeValue {
  kind: 'datetime';
  /** The instant (UTC when no offset was given). */
  instant: Date;
  /** Number of `:`-separated parts after `T` became `:` (date 1, hour 2, minute 3, second 4, +1 for an offset with minutes). */
  precision: number;
}

/** A number pyparsing reads as a Python `float` (`2.0`, `1e3`): integers and floats behave apart in the reference. */
export interface FloatValue {
  kind: 'float';
  value: number;
}

export type Scalar = string | number | boolean | DatetimeValue | FloatValue;
export type FieldValue = Scalar | Scalar[];

export interface QueryField {
  key: string;
  operator: Operator;
  value: FieldValue;
}

const OPERATORS: Operator[] = ['=like=', '=ilike=', '=in=', '=notin=', '=', '!=', '>=', '>', '<=', '<'];
const KEY = /[A-Za-z_][A-Za-z0-9_-]*/y;
const WORD = /[+-]?[A-Za-z_][A-Za-z0-9_-]*/y;
const NUMBER = /[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?/y;
const DATETIME =
  /(\d{4})-(\d{2})-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2}))?)?)?(?:([+-])(\d{2})(?::(\d{2}))?)?(?=&|$)/y;

const WRONG_TIME_FORMAT =
  'time value has wrong format. The right format is <date>T<time><offset>, where <date> is expressed as [YYYY]-[MM]-[DD], <time> is expressed as [HH]:[MM]:[SS], <offset> is expressed as +/-[HH]:[MM] given with respect to UTC';

export class QueryStringError extends Error {
  override readonly name = 'QueryStringError';
}

/** A time value that parsed syntactically but is not a real date (e.g. month 13). */
export class TimeFormatError extends Error {
  override readonly name = 'TimeFormatError';
  constructor() {
    super(WRONG_TIME_FORMAT);
  }
}

function parseError(expected: string, text: string, at: number): QueryStringError {
  const found = at >= text.length ? 'end of text' : `'${text[at]}'`;
  return new QueryStringError(
    `The query string format is invalid. Parser returned this massage: "Expected ${expected}, found ${found}  (at char ${at}), (line:1, col:${at + 1})." Please notice that the column number is counted from the first character of the query string.`,
  );
}

/**
 * `validate_time`: `datetime.fromisoformat` (Python ≥ 3.11) of the matched text. Without a time, the shift's sign
 * is read as the date/time separator and the shift as the time (`2019-04-23+02:00` is 02:00, naive, so UTC);
 * an offset may be anything under 24 hours (`+02:60` is +03:00). Precision: `len(text.replace('T', ':').split(':'))`.
 */
function toDatetime(m: RegExpExecArray): DatetimeValue {
  const [text, y, mo, d, h, mi, s, sign, oh, om] = m;
  const num = (v: string | undefined) => (v === undefined ? 0 : Number(v));
  const shiftIsTime = h === undefined && sign !== undefined;
  const [hour, minute, second] = shiftIsTime ? [num(oh), num(om), 0] : [num(h), num(mi), num(s)];
  const offsetMinutes = shiftIsTime || !sign ? 0 : (sign === '-' ? -1 : 1) * (num(oh) * 60 + num(om));
  const date = new Date(0);
  date.setUTCFullYear(num(y), num(mo) - 1, num(d));
  const valid =
    num(y) >= 1 &&
    date.getUTCFullYear() === num(y) &&
    date.getUTCMonth() === num(mo) - 1 &&
    date.getUTCDate() === num(d) &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    Math.abs(offsetMinutes) < 24 * 60;
  if (!valid) throw new TimeFormatError();
  date.setUTCHours(hour, minute - offsetMinutes, second);
  return { kind: 'datetime', instant: date, precision: text.replace('T', ':').split(':').length };
}

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  private match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (m) this.pos = re.lastIndex;
    return m;
  }

  private literal(word: string): boolean {
    if (!this.text.startsWith(word, this.pos)) return false;
    this.pos += word.length;
    return true;
  }

  private atValueEnd(): boolean {
    const c = this.text[this.pos];
    return c === undefined || c === '&' || c === ',';
  }

  private value(): Scalar {
    const start = this.pos;
    if (this.text[this.pos] === '"') {
      let out = '';
      let i = this.pos + 1;
      for (;;) {
        const q = this.text.indexOf('"', i);
        if (q < 0) throw parseError('end of text', this.text, start);
        out += this.text.slice(i, q);
        if (this.text[q + 1] === '"') {
          out += '"';
          i = q + 2;
          continue;
        }
        this.pos = q + 1;
        return out;
      }
    }
    for (const b of ['true', 'false'] as const) {
      if (this.literal(b)) {
        if (this.atValueEnd()) return b === 'true';
        this.pos = start;
      }
    }
    const dt = this.match(DATETIME);
    if (dt) return toDatetime(dt);
    const n = this.match(NUMBER);
    if (n) return /[.eE]/.test(n[0]) ? { kind: 'float', value: Number(n[0]) } : Number(n[0]);
    const w = this.match(WORD);
    if (w) return w[0];
    throw parseError('end of text', this.text, start);
  }

  /** `value (',' value)+ [',']`, or the first value alone (ending before its comma) when that is no list. */
  private valueOrList(): FieldValue {
    const first = this.value();
    const afterFirst = this.pos;
    try {
      const items = [first];
      while (this.text[this.pos] === ',') {
        this.pos += 1;
        if (this.pos >= this.text.length || this.text[this.pos] === '&') break;
        items.push(this.value());
      }
      if (items.length >= 2) return items;
    } catch (error) {
      if (!(error instanceof QueryStringError)) throw error;
    }
    this.pos = afterFirst;
    return first;
  }

  private field(): QueryField {
    const keyMatch = this.match(KEY);
    if (!keyMatch) throw parseError('end of text', this.text, this.pos);
    const key = keyMatch[0];
    const opStart = this.pos;
    const operator = OPERATORS.find((op) => this.literal(op));
    if (!operator) throw parseError('end of text', this.text, opStart);
    const listed = operator === '=in=' || operator === '=notin=' || operator === '=';
    return { key, operator, value: listed ? this.valueOrList() : this.value() };
  }

  parse(): QueryField[] {
    const fields: QueryField[] = [];
    if (this.text[0] === '&') this.pos = 1;
    while (this.pos < this.text.length) {
      fields.push(this.field());
      if (this.pos >= this.text.length) break;
      if (this.text[this.pos] !== '&') throw parseError('end of text', this.text, this.pos);
      this.pos += 1;
    }
    return fields.filter((f) => f.key !== '_');
  }
}

/** Parses a percent-decoded query string into fields; `_` (cache-buster) fields are dropped. */
export function parseQueryString(text: string): QueryField[] {
  return new Parser(text).parse();
}

/** `urllib.parse.unquote`: percent-decoding of UTF-8 sequences, `+` kept, malformed escapes left as they are. */
export function unquote(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8');
    }
  });
}
