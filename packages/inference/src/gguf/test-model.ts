import { seededNormal } from './random.js';
import { buildVocabulary, SPACE, type Vocabulary } from './vocabulary.js';
import { encodeGguf, type GgufTensor, type GgufValue } from './writer.js';

/** What the generated model answers to any chat, greedily and at ordinary temperatures. */
export const TEST_MODEL_REPLY = 'Hello! I am a tiny test model.';
export const TEST_MODEL_CONTEXT_LENGTH = 8192;

const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const CHAIN_WORDS = ['Hello', 'I', 'am', 'a', 'tiny', 'test', 'model'];
const WORDS = [
  ...CHAIN_WORDS,
  ...'the be to of and in that have it for not on with he as you do at this but his by from they we say her she or an will my one all would there their what so up out if about who get which go me when make can like time no just him know take people into year your good some could them see other than then now look only come its over think also back after use two how our work first well way even new want because any these give day most us is are was were has had been cat dog sat mat sun moon sky blue red green fast slow big small water fire earth tree river stone bird fish book world hello yes thanks please question answer code data'.split(
    ' ',
  ),
];

const SHAPE = { embd: 64, layers: 2, heads: 4, kvHeads: 2, ff: 128 } as const;

function randomTensor(name: string, dims: readonly number[], next: () => number, scale: number): GgufTensor {
  const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
  for (let i = 0; i < data.length; i++) data[i] = next() * scale;
  return { name, dims, data };
}

const ones = (name: string, size: number): GgufTensor => ({ name, dims: [size], data: new Float32Array(size).fill(1) });

/**
 * The "bigram trick": with near-zero blocks the last hidden state is about the last token's embedding, so
 * setting output row `next` to a multiple of `embedding[previous]` makes `previous → next` overwhelmingly likely.
 * The chain starts at the newline that ends `<|im_start|>assistant\n` and ends with `<|im_end|>`.
 */
function chainOutput(vocab: Vocabulary, embeddings: Float32Array, next: () => number): GgufTensor {
  const { embd } = SHAPE;
  const output = randomTensor('output.weight', [embd, vocab.tokens.length], next, 0.02);
  const chain = [
    vocab.id('<0x0A>'),
    vocab.id(`${SPACE}Hello`),
    vocab.id('!'),
    ...CHAIN_WORDS.slice(1).map((w) => vocab.id(SPACE + w)),
    vocab.id('.'),
    vocab.id('<|im_end|>'),
  ];
  const scale = 3 / Math.sqrt(embd);
  for (let i = 1; i < chain.length; i++) {
    const from = (chain[i - 1] as number) * embd;
    const to = (chain[i] as number) * embd;
    for (let d = 0; d < embd; d++) output.data[to + d] = scale * (embeddings[from + d] as number);
  }
  return output;
}

function metadata(vocab: Vocabulary): Array<readonly [string, GgufValue]> {
  const { embd, layers, heads, kvHeads, ff } = SHAPE;
  const u32 = (value: number) => ({ type: 'u32', value }) as const;
  return [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'atrium-tiny-test-model' }],
    ['general.alignment', u32(32)],
    ['general.file_type', u32(0)],
    ['llama.context_length', u32(TEST_MODEL_CONTEXT_LENGTH)],
    ['llama.embedding_length', u32(embd)],
    ['llama.block_count', u32(layers)],
    ['llama.feed_forward_length', u32(ff)],
    ['llama.attention.head_count', u32(heads)],
    ['llama.attention.head_count_kv', u32(kvHeads)],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.rope.dimension_count', u32(embd / heads)],
    ['llama.rope.freq_base', { type: 'f32', value: 10000 }],
    ['llama.vocab_size', u32(vocab.tokens.length)],
    ['llama.pooling_type', u32(1)],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'array', of: 'string', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'array', of: 'f32', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'array', of: 'i32', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', u32(vocab.id('<unk>'))],
    ['tokenizer.ggml.bos_token_id', u32(vocab.id('<s>'))],
    ['tokenizer.ggml.eos_token_id', u32(vocab.id('<|im_end|>'))],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: CHATML_TEMPLATE }],
  ];
}

/**
 * A tiny llama-architecture GGUF (~180k parameters, F32) that llama.cpp loads and runs: ChatML chat that
 * always answers {@link TEST_MODEL_REPLY}, and mean-pooled bag-of-words embeddings. Deterministic.
 */
export function buildTestModel(seed = 20_240_601): Buffer {
  const { embd, layers, kvHeads, heads, ff } = SHAPE;
  const next = seededNormal(seed);
  const vocab = buildVocabulary(WORDS);
  const kvDim = kvHeads * (embd / heads);
  const tokenEmbedding = randomTensor('token_embd.weight', [embd, vocab.tokens.length], next, 1);
  const tensors: GgufTensor[] = [tokenEmbedding];
  for (let b = 0; b < layers; b++) {
    const p = `blk.${b}.`;
    tensors.push(
      ones(`${p}attn_norm.weight`, embd),
      randomTensor(`${p}attn_q.weight`, [embd, embd], next, 0.02),
      randomTensor(`${p}attn_k.weight`, [embd, kvDim], next, 0.02),
      randomTensor(`${p}attn_v.weight`, [embd, kvDim], next, 0.02),
      randomTensor(`${p}attn_output.weight`, [embd, embd], next, 0.02),
      ones(`${p}ffn_norm.weight`, embd),
      randomTensor(`${p}ffn_gate.weight`, [embd, ff], next, 0.02),
      randomTensor(`${p}ffn_up.weight`, [embd, ff], next, 0.02),
      randomTensor(`${p}ffn_down.weight`, [ff, embd], next, 0.02),
    );
  }
  tensors.push(ones('output_norm.weight', embd), chainOutput(vocab, tokenEmbedding.data, next));
  return encodeGguf(metadata(vocab), tensors);
}
