import type { ChatHistoryItem } from 'node-llama-cpp';
import type { ChatMessage } from '../wire/chat.js';

export class EngineInputError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

function textOf(message: ChatMessage, index: number): string {
  const content = message.content;
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (const [p, part] of content.entries()) {
    if (part.type !== 'text' || typeof part.text !== 'string') {
      throw new EngineInputError(
        `messages[${index}].content[${p}]: the embedded engine accepts text parts only`,
        `messages[${index}].content`,
      );
    }
    text += part.text;
  }
  return text;
}

/**
 * OpenAI messages → node-llama-cpp chat history, ending with the empty model turn to generate. System and
 * developer messages become system text; user and tool results become user turns; assistant turns are replayed.
 */
export function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message, i) => {
    const text = textOf(message, i);
    switch (message.role) {
      case 'system':
      case 'developer':
        return { type: 'system', text };
      case 'user':
      case 'tool':
        return { type: 'user', text };
      case 'assistant':
        return { type: 'model', response: [text] };
      default:
        throw new EngineInputError(`messages[${i}].role: unknown role '${message.role}'`, `messages[${i}].role`);
    }
  });
  history.push({ type: 'model', response: [] });
  return history;
}
