const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Other spellings of a JWT that Node's lenient `base64url` decoder reads as the same bytes (so the same signature):
 * padding, the last character's unused low bit set, the standard alphabet, a stray character. A verifier must
 * refuse each; single use must not see them as new tokens (finding M1).
 */
export function respellings(token: string): [string, string][] {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const last = URL_ALPHABET.indexOf(signature.at(-1) as string);
  const spelled: [string, string][] = [
    ['"=" appended', `${token}=`],
    ['"==" appended', `${token}==`],
    [
      "the last character's unused low bit flipped",
      `${header}.${payload}.${signature.slice(0, -1)}${URL_ALPHABET[last ^ 1]}`,
    ],
    ['"+/" for "-_"', token.replace(/-/g, '+').replace(/_/g, '/')],
    ['a "!" inside the signature', `${header}.${payload}.${signature.slice(0, 20)}!${signature.slice(20)}`],
  ];
  return spelled.filter(([, respelled]) => respelled !== token);
}
