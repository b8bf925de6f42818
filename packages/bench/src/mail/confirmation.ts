import type { Message } from './outbox.js';

export interface ConfirmationText {
  email: string;
  name: string;
  /** `signup` or `login`, for the wording. */
  purpose: 'signup' | 'login';
  token: string;
  consoleUrl: string;
  ttlMinutes: number;
}

/** The confirmation email, as Bencher words it: a link to the console's confirm page and the code itself. */
export function confirmationMessage(confirm: ConfirmationText): Message {
  const link = new URL('/auth/confirm', confirm.consoleUrl);
  link.searchParams.set('token', confirm.token);
  const verb = confirm.purpose === 'signup' ? 'sign up' : 'log in';
  return {
    to: confirm.email,
    subject: confirm.purpose === 'signup' ? 'Confirm Bench Signup' : 'Confirm Bench Login',
    text: [
      `Ahoy ${confirm.name}!`,
      '',
      `Please, click the link below or use the provided code to ${verb}.`,
      `The link and the code work once, within ${confirm.ttlMinutes} minutes.`,
      '',
      `Confirm: ${link.href}`,
      '',
      `Code: ${confirm.token}`,
      '',
      'If you did not ask for this, ignore this message.',
    ].join('\n'),
  };
}
