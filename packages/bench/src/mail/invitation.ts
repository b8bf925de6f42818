import type { Message } from './outbox.js';

export interface InvitationText {
  email: string;
  /** The invitee's name, when known. */
  name: string | undefined;
  inviter: { name: string; email: string };
  organization: string;
  role: string;
  token: string;
  consoleUrl: string;
  /** Whether an account has the address: its link logs in, else it signs up with the invitation kept. */
  hasAccount: boolean;
  /** Unix milliseconds. */
  expires: number;
}

/**
 * The invitation email, as Bencher words it, with the code for `atrium bench auth accept`. Bencher mails a new
 * address the sign-up page and a known one the log-in page, both keeping the invitation.
 */
export function invitationMessage(invite: InvitationText): Message {
  const link = new URL(invite.hasAccount ? '/auth/login' : '/auth/signup', invite.consoleUrl);
  link.searchParams.set('invite', invite.token);
  if (!invite.hasAccount) link.searchParams.set('email', invite.email);
  return {
    to: invite.email,
    subject: `Invitation to join ${invite.organization}`,
    text: [
      invite.name ? `Ahoy ${invite.name}!` : 'Ahoy!',
      '',
      `${invite.inviter.name} (${invite.inviter.email}) invites you to join ${invite.organization} as a ${invite.role}.`,
      invite.hasAccount ? `Accept at ${link.href}` : `Create your account and accept at ${link.href}`,
      `or with: atrium bench auth accept ${invite.token}`,
      `The invitation works once, until ${new Date(invite.expires).toISOString()}.`,
      '',
      `Invite code: ${invite.token}`,
    ].join('\n'),
  };
}
