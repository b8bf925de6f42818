/**
 * Whether a `/console/…` path is a page the console has (as its router in `client/app.ts` reads it): the server
 * answers the others with the same shell, which shows "Page Not Found", but with the honest status 404.
 */
export function isConsolePage(url: string): boolean {
  const [, second, third, fourth] = url.split('?', 1)[0]?.split('/').filter(Boolean) ?? [];
  switch (second) {
    case undefined:
      return true;
    case 'projects':
      return third !== undefined;
    case 'organizations':
      return third === undefined || [undefined, 'projects', 'members', 'settings'].includes(fourth);
    case 'users':
      return (
        [undefined, 'settings'].includes(fourth) || (third !== undefined && ['keys', 'tokens'].includes(fourth ?? ''))
      );
    default:
      return false;
  }
}
