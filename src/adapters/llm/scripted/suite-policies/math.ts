// Scripted players of the suite's Mathematical Reasoning environments.
import { boxed, firstOf, grab, grabAll, latestOf, type SuitePolicy } from './policy.ts';

const SKILL = 'Mathematical Reasoning';
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

function beacons(observations: readonly string[]) {
  const text = firstOf(observations);
  const [a, b, c] = grab(text, /every (\d+), (\d+) and (\d+) seconds/).map(Number) as [number, number, number];
  const start = Number(grab(text, /together at second (\d+)/)[0]);
  const after = Number(grab(text, /after second (\d+)/)[0]);
  const nextMeeting = (cycle: number) => start + (Math.floor((after - start) / cycle) + 1) * cycle;
  return { a, b, c, nextMeeting };
}

function waysToPay(coins: readonly number[], amount: number): number {
  const table = [1, ...Array<number>(amount).fill(0)];
  for (const coin of coins) for (let v = coin; v <= amount; v++) table[v]! += table[v - coin]!;
  return table[amount]!;
}

function purse(observations: readonly string[]) {
  const text = firstOf(observations);
  const coins = grab(text, /values (\d+), (\d+) and (\d+)/).map(Number);
  return { coins, amount: Number(grab(text, /pay exactly (\d+)/)[0]) };
}

const det3 = (m: number[][]) =>
  m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
  m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
  m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);

function receipts(observations: readonly string[]) {
  const text = firstOf(observations);
  const rows = grabAll(text, /(\d+) apple \+ (\d+) pear \+ (\d+) plum = (\d+) coins/g).map((row) => row.map(Number));
  const basket = grab(text, /What do (\d+) apple \+ (\d+) pear \+ (\d+) plum cost/).map(Number);
  return { rows, basket };
}

/** Solves the receipts by Cramer's rule and prices the basket. */
function basketCost(observations: readonly string[]): number {
  const { rows, basket } = receipts(observations);
  const matrix = rows.map((row) => row.slice(0, 3));
  const totals = rows.map((row) => row[3]!);
  const d = det3(matrix);
  const prices = [0, 1, 2].map(
    (col) => det3(matrix.map((row, r) => row.map((v, c) => (c === col ? totals[r]! : v)))) / d,
  );
  return Math.round(basket.reduce((sum, n, i) => sum + n * prices[i]!, 0));
}

const ORACLE_PLAN = [7, 11, 13];
const NAIVE_PLAN = [2, 3, 5];

/** Asks the planned moduli in turn, then names the smallest number from 1 to 1000 with the remainders heard. */
function oracle(plan: readonly number[]) {
  return (observations: readonly string[]): string => {
    const known = grabAll(latestOf(observations), /n mod (\d+) = (\d+)/g).map(
      ([k, r]) => [Number(k), Number(r)] as const,
    );
    const next = plan.find((k) => !known.some(([asked]) => asked === k));
    if (next !== undefined) return boxed(`mod ${next}`);
    for (let n = 1; n <= 1000; n++) if (known.every(([k, r]) => n % k === r)) return boxed(`answer ${n}`);
    return boxed('answer 1');
  };
}

/** The suite's Mathematical Reasoning players. */
export const MATH_POLICIES: readonly SuitePolicy[] = [
  {
    title: 'Beacon Sync',
    skill: SKILL,
    win: (obs) => {
      const { a, b, c, nextMeeting } = beacons(obs);
      return boxed(nextMeeting(lcm(lcm(a, b), c)));
    },
    // Multiplies the periods instead of taking their least common multiple.
    lose: (obs) => {
      const { a, b, c, nextMeeting } = beacons(obs);
      return boxed(nextMeeting(a * b * c));
    },
  },
  { title: 'Remainder Oracle', skill: SKILL, win: oracle(ORACLE_PLAN), lose: oracle(NAIVE_PLAN) },
  {
    title: 'Coin Purse Count',
    skill: SKILL,
    win: (obs) => {
      const { coins, amount } = purse(obs);
      return boxed(waysToPay(coins, amount));
    },
    // Forgets the smallest coin.
    lose: (obs) => {
      const { coins, amount } = purse(obs);
      return boxed(waysToPay(coins.slice(1), amount));
    },
  },
  {
    title: 'Market Scales',
    skill: SKILL,
    win: (obs) => boxed(basketCost(obs)),
    // Answers the first receipt's total.
    lose: (obs) => boxed(receipts(obs).rows[0]![3]!),
  },
];
