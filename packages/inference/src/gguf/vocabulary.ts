/** SentencePiece token types as llama.cpp reads them from `tokenizer.ggml.token_type`. */
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const BYTE = 6;

export const SPACE = '\u2581';

export interface Vocabulary {
  tokens: string[];
  scores: Float32Array;
  types: Int32Array;
  id(piece: string): number;
}

const CONTROL_TOKENS = ['<s>', '</s>', '<|im_start|>', '<|im_end|>'];

/**
 * An SPM vocabulary: `<unk>`, the control tokens, all 256 byte tokens (without them llama.cpp aborts on the
 * first character it cannot map), every printable ASCII character, and `▁word` pieces together with all
 * their prefixes (SPM only reaches a piece by merging pairs, so each prefix must exist). Longer pieces score
 * higher so that merges prefer whole words.
 */
export function buildVocabulary(words: readonly string[]): Vocabulary {
  const tokens: string[] = ['<unk>', ...CONTROL_TOKENS];
  const types: number[] = [UNKNOWN, ...CONTROL_TOKENS.map(() => CONTROL)];
  const scores: number[] = tokens.map(() => 0);
  const index = new Map<string, number>();
  const add = (piece: string, type: number, score: number) => {
    if (index.has(piece)) return;
    index.set(piece, tokens.length);
    tokens.push(piece);
    types.push(type);
    scores.push(score);
  };
  for (let b = 0; b < 256; b++) add(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, BYTE, 0);
  add(SPACE, NORMAL, -1000);
  for (let c = 0x21; c < 0x7f; c++) add(String.fromCharCode(c), NORMAL, -1000);
  for (const word of words) {
    const piece = word.startsWith(SPACE) ? word : SPACE + word;
    for (let end = 2; end <= piece.length; end++) add(piece.slice(0, end), NORMAL, end - 1000);
  }
  for (const [i, piece] of tokens.entries()) index.set(piece, i);
  return {
    tokens,
    scores: Float32Array.from(scores),
    types: Int32Array.from(types),
    id(piece) {
      const found = index.get(piece);
      if (found === undefined) throw new Error(`piece ${JSON.stringify(piece)} is not in the vocabulary`);
      return found;
    },
  };
}
