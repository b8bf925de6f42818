/** Benchmark names ending in an ignore suffix are stored without it and never alert. */
const SUFFIXES = ['_bencher_ignore', 'BencherIgnore', '-bencher-ignore'];

export function stripIgnoreSuffix(name: string): { name: string; ignored: boolean } {
  for (const suffix of SUFFIXES) {
    if (name.endsWith(suffix) && name.length > suffix.length)
      return { name: name.slice(0, -suffix.length), ignored: true };
  }
  return { name, ignored: false };
}
