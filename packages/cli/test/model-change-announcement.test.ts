import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { announceCommand, announceUrl, modelChangeAnnouncement } from '../src/commands/model-change-announcement.js';

const NOW = Date.parse('2026-11-25T07:30:45Z');
const none = { added: [], removed: [], changed: [] };

describe('modelChangeAnnouncement', () => {
  it.each([
    [{ ...none, added: ['acme/n'] }, 'acme/n added', 'New: acme/n. GET /v1/models lists it.'],
    [
      { ...none, removed: ['acme/o', 'acme/p'] },
      'acme/o, acme/p removed',
      'No longer served: acme/o, acme/p. Requests naming them are refused',
    ],
    [{ ...none, changed: ['acme/c'] }, 'acme/c changed', 'Changed settings: acme/c.'],
    [
      { added: ['acme/n'], removed: ['acme/o'], changed: ['acme/c'] },
      'acme/n added; acme/o removed; acme/c changed',
      '404 model_not_found',
    ],
  ])('%j', (change, title, inBody) => {
    const announcement = modelChangeAnnouncement(change, NOW);
    expect(announcement).toMatchObject({
      kind: 'model_change',
      title,
      starts: '2026-11-25T07:30',
      ends: '2026-12-02T07:30',
    });
    expect(announcement.body).toContain(inBody);
  });

  it('keeps the title within the form’s 200 characters', () => {
    const added = Array.from({ length: 40 }, (_, i) => `acme/model-${i}`);
    expect(modelChangeAnnouncement({ ...none, added }, NOW).title).toHaveLength(200);
  });
});

describe('announceCommand and announceUrl', () => {
  const announcement = { ...modelChangeAnnouncement({ ...none, removed: ['acme/o'] }, NOW), title: "Bob's model" };

  it('quotes the command so that a shell passes every value through unchanged', () => {
    const args = announceCommand(announcement).replace(/^atrium inference announce /, '');
    const echoed = execFileSync('bash', ['-c', `printf '%s\\n' ${args}`], { encoding: 'utf8' }).split('\n');
    expect(echoed.slice(0, 10)).toEqual([
      '--kind',
      'model_change',
      '--title',
      "Bob's model",
      '--body',
      announcement.body,
      '--start',
      '2026-11-25T07:30Z',
      '--end',
      '2026-12-02T07:30Z',
    ]);
  });

  it('links the operator form with every field in its query', () => {
    const url = new URL(announceUrl('https://llm.example.org', announcement));
    expect(url.pathname).toBe('/ui/operator/announcements');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      kind: 'model_change',
      title: "Bob's model",
      body: announcement.body,
      starts: '2026-11-25T07:30',
      ends: '2026-12-02T07:30',
    });
  });
});
