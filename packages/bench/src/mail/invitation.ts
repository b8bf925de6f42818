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
  /** Unix milliseconds. */
  expires: number;
}

/** The invitation email, as Bencher words it, with the code for `atrium bench auth accept`. */
export function invitationMessage(invite: InvitationText): Message {
  const link = new URL('/auth/login', invite.consoleUrl);
  link.searchParams.set('invite', invite.token);
  return {
    to: invite.email,
    subject: `Invitation to join ${invite.organization}`,
    text: [
      invite.name ? `Ahoy ${invite.name}!` : 'Ahoy!',
      '',
      `${invite.inviter.name} (${invite.inviter.email}) invites you to join ${invite.organization} as a ${invite.role}.`,
      `Accept at ${link.href}`,
      `or with: atrium bench auth accept ${invite.token}`,
      `The invitation works once, until ${new Date(invite.expires).toISOString()}.`,
      '',
      `Invite code: ${invite.token}`,
    ].join('\n'),
  };
}
