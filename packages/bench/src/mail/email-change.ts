import type { Message } from './outbox.js';

export interface EmailChangeText {
  name: string;
  slug: string;
  oldEmail: string;
  newEmail: string;
  token: string;
  consoleUrl: string;
  ttlMinutes: number;
}

/** To the new address: the link to the account page that confirms it, and the code itself. */
export function emailChangeConfirmation(change: EmailChangeText): Message {
  const link = new URL(`/console/users/${encodeURIComponent(change.slug)}/settings`, change.consoleUrl);
  link.searchParams.set('confirm_email', change.token);
  return {
    to: change.newEmail,
    subject: 'Confirm your new Bench email',
    text: [
      `Ahoy ${change.name}!`,
      '',
      `Please confirm ${change.newEmail} as the email of your Bench account (until now ${change.oldEmail}).`,
      `Open the link below while logged in to that account. It works once, within ${change.ttlMinutes} minutes;`,
      'until then the account keeps its old address.',
      '',
      `Confirm: ${link.href}`,
      '',
      `Code: ${change.token}`,
      '',
      'If you did not ask for this, ignore this message: nothing changes.',
    ].join('\n'),
  };
}

/** To the old address: what was asked, and that nothing changes unless the new address confirms it. */
export function emailChangeNotice(change: Omit<EmailChangeText, 'token' | 'consoleUrl' | 'slug'>): Message {
  return {
    to: change.oldEmail,
    subject: 'Your Bench email is about to change',
    text: [
      `Ahoy ${change.name}!`,
      '',
      `Someone signed in to your Bench account asked to change its email from ${change.oldEmail} to ${change.newEmail}.`,
      `The change takes effect only once it is confirmed from ${change.newEmail}, within ${change.ttlMinutes} minutes.`,
      'Until then you log in with this address.',
      '',
      'If this was not you, set your email back to this address on your account page (that cancels the change)',
      'and look after your account: someone else has access to it.',
    ].join('\n'),
  };
}
