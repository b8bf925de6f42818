import { describe, expect, it } from 'vitest';
import { EngineInputError, toChatHistory } from '../src/engine/messages.js';
import { ResourcePool } from '../src/engine/sequence-pool.js';

describe('ResourcePool', () => {
  it('hands out free items, then queues waiters first come first served', async () => {
    const pool = new ResourcePool(['a']);
    expect(await pool.acquire()).toBe('a');
    const order: string[] = [];
    const first = pool.acquire().then((item) => order.push(`first:${item}`));
    const second = pool.acquire().then((item) => order.push(`second:${item}`));
    expect(pool.queued).toBe(2);
    pool.release('a');
    await first;
    pool.release('a');
    await second;
    expect(order).toEqual(['first:a', 'second:a']);
  });

  it('drops a waiter whose signal aborts, so its turn goes to the next', async () => {
    const pool = new ResourcePool(['a']);
    await pool.acquire();
    const controller = new AbortController();
    const abandoned = pool.acquire(controller.signal);
    const next = pool.acquire();
    controller.abort(new Error('gone'));
    await expect(abandoned).rejects.toThrow('gone');
    pool.release('a');
    expect(await next).toBe('a');
    expect([pool.idle, pool.queued]).toEqual([0, 0]);
  });
});

describe('toChatHistory', () => {
  it('maps OpenAI roles and text parts and ends with the model turn to generate', () => {
    expect(
      toChatHistory([
        { role: 'developer', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        { role: 'assistant', content: 'ok' },
        { role: 'tool', content: '42' },
        { role: 'user', content: null },
      ]),
    ).toEqual([
      { type: 'system', text: 'be brief' },
      { type: 'user', text: 'ab' },
      { type: 'model', response: ['ok'] },
      { type: 'user', text: '42' },
      { type: 'user', text: '' },
      { type: 'model', response: [] },
    ]);
  });

  it.each([
    [[{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:' } }] }], /text parts only/],
    [[{ role: 'wizard', content: 'x' }], /unknown role 'wizard'/],
  ])('refuses %j', (messages, message) => {
    expect(() => toChatHistory(messages)).toThrow(EngineInputError);
    expect(() => toChatHistory(messages)).toThrow(message);
  });
});
