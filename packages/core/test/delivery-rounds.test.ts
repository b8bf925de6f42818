import { describe, expect, it } from 'vitest';
import { DeliveryRounds } from '../src/index.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('DeliveryRounds', () => {
  it('runs one more round after the running one however often it is kicked meanwhile, and none after close', async () => {
    let rounds = 0;
    let release: () => void = () => undefined;
    const scheduler = new DeliveryRounds(
      () => {
        rounds++;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      () => undefined,
    );
    scheduler.kick();
    scheduler.kick();
    scheduler.kick();
    expect(rounds).toBe(1);
    release();
    await tick();
    expect(rounds).toBe(2);
    release();
    await tick();
    expect(rounds).toBe(2);
    const closing = scheduler.close();
    expect(scheduler.closed).toBe(true);
    await closing;
    scheduler.kick();
    expect(rounds).toBe(2);
  });

  it('reports a failed round and runs the next one', async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    const scheduler = new DeliveryRounds(
      async () => {
        rounds++;
        if (rounds === 1) throw new Error('smtp down');
      },
      (error) => errors.push(error),
    );
    scheduler.kick();
    await tick();
    scheduler.kick();
    await tick();
    expect(rounds).toBe(2);
    expect(errors.map((error) => (error as Error).message)).toEqual(['smtp down']);
    await scheduler.close();
  });
});
