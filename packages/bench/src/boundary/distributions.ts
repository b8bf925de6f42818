/**
 * Inverse CDFs of the Normal, Student-t and LogNormal distributions to double precision
 * (what Bencher's thresholds use through `statrs`).
 */

const evaluate = (coefficients: readonly number[], x: number): number => {
  let sum = 0;
  for (let i = coefficients.length - 1; i >= 0; i--) sum = sum * x + (coefficients[i] as number);
  return sum;
};

// Wichura, Algorithm AS 241 (PPND16): relative accuracy about 1e-16.
const CENTRAL_NUM = [
  3.3871328727963665, 133.14166789178438, 1971.5909503065513, 13731.69376550946, 45921.95393154987, 67265.7709270087,
  33430.57558358813, 2509.0809287301227,
];
const CENTRAL_DEN = [
  1, 42.31333070160091, 687.1870074920579, 5394.196021424751, 21213.794301586597, 39307.89580009271, 28729.085735721943,
  5226.495278852854,
];
const NEAR_NUM = [
  1.4234371107496835, 4.630337846156546, 5.769497221460691, 3.6478483247632045, 1.2704582524523684, 0.2417807251774506,
  0.022723844989269184, 0.0007745450142783414,
];
const NEAR_DEN = [
  1, 2.053191626637759, 1.6763848301838038, 0.6897673349851, 0.14810397642748008, 0.015198666563616457,
  0.0005475938084995345, 1.0507500716444169e-9,
];
const FAR_NUM = [
  6.657904643501103, 5.463784911164114, 1.7848265399172913, 0.29656057182850487, 0.026532189526576124,
  0.0012426609473880784, 0.000027115555687434876, 2.0103343992922881e-7,
];
const FAR_DEN = [
  1, 0.599832206555888, 0.1369298809227358, 0.014875361290850615, 0.0007868691311456133, 0.000018463183175100548,
  1.421511758316446e-7, 2.0442631033899397e-15,
];

/** Φ⁻¹(p) of the standard normal distribution; ±Infinity at 0 and 1, NaN outside [0, 1]. */
export function standardNormalInverseCdf(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (q * evaluate(CENTRAL_NUM, r)) / evaluate(CENTRAL_DEN, r);
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let value: number;
  if (r <= 5) {
    r -= 1.6;
    value = evaluate(NEAR_NUM, r) / evaluate(NEAR_DEN, r);
  } else {
    r -= 5;
    value = evaluate(FAR_NUM, r) / evaluate(FAR_DEN, r);
  }
  return q < 0 ? -value : value;
}

export const normalInverseCdf = (p: number, mean: number, stdDev: number): number =>
  mean + stdDev * standardNormalInverseCdf(p);

export const logNormalInverseCdf = (p: number, location: number, scale: number): number =>
  Math.exp(location + scale * standardNormalInverseCdf(p));

// Lanczos approximation as in Numerical Recipes (3rd ed.), about 1e-15 relative accuracy.
const LANCZOS = [
  57.15623566586292, -59.59796035547549, 14.136097974741746, -0.4919138160976202, 0.00003399464998481189,
  0.00004652362892704858, -0.00009837447530487956, 0.0001580887032249125, -0.00021026444172410488,
  0.00021743961811521265, -0.0001643181065367639, 0.00008441822398385275, -0.000026190838401581408,
  0.0000036899182659531625,
];

export function lnGamma(x: number): number {
  let y = x;
  const base = x + 5.2421875;
  const head = (x + 0.5) * Math.log(base) - base;
  let series = 0.9999999999999971;
  for (const c of LANCZOS) series += c / ++y;
  return head + Math.log((2.5066282746310007 * series) / x);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-16) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function regularizedIncompleteBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T > t) for t ≥ 0 of the standard Student-t distribution with `df` degrees of freedom. */
function studentTUpperTail(t: number, df: number): number {
  return 0.5 * regularizedIncompleteBeta(df / 2, 0.5, df / (df + t * t));
}

function studentTDensity(t: number, df: number): number {
  const logNorm = lnGamma((df + 1) / 2) - lnGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  return Math.exp(logNorm - ((df + 1) / 2) * Math.log1p((t * t) / df));
}

/** Quantile of the standard Student-t for an upper-tail probability q in (0, 0.5]. */
function standardStudentTUpperQuantile(q: number, df: number): number {
  if (df === 1) return Math.tan(Math.PI * (0.5 - q));
  if (df === 2) return (1 - 2 * q) * Math.sqrt(2 / (4 * q * (1 - q)));
  // Safeguarded Newton on the upper tail, bracketed in [low, high].
  let low = 0;
  let high = 1;
  while (studentTUpperTail(high, df) > q) high *= 2;
  let t = Math.min(Math.max(-standardNormalInverseCdf(q), low), high);
  for (let i = 0; i < 200; i++) {
    const excess = studentTUpperTail(t, df) - q;
    if (excess === 0) return t;
    if (excess > 0) low = t;
    else high = t;
    let next = t + excess / studentTDensity(t, df);
    if (!(next > low && next < high)) next = (low + high) / 2;
    if (Math.abs(next - t) <= 1e-15 * Math.max(1, Math.abs(t))) return next;
    t = next;
  }
  return t;
}

/** Inverse CDF of the location-scale Student-t distribution. */
export function studentTInverseCdf(p: number, location: number, scale: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) {
    if (p === 0) return Number.NEGATIVE_INFINITY;
    if (p === 1) return Number.POSITIVE_INFINITY;
    return Number.NaN;
  }
  if (p === 0.5) return location;
  const standard = p > 0.5 ? standardStudentTUpperQuantile(1 - p, df) : -standardStudentTUpperQuantile(p, df);
  return location + scale * standard;
}
