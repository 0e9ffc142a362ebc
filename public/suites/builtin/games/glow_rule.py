import random
import re


def _family():
    rules = [(f"a multiple of {k}", lambda n, k=k: n % k == 0) for k in range(3, 10)]
    rules += [(f"remainder 1 when divided by {k}", lambda n, k=k: n % k == 1) for k in range(3, 7)]
    rules += [(f"last digit at least {d}", lambda n, d=d: n % 10 >= d) for d in range(5, 9)]
    rules += [(f"greater than {t}", lambda n, t=t: n > t) for t in range(15, 50, 5)]
    rules += [("even digit sum", lambda n: sum(map(int, str(n))) % 2 == 0),
              ("odd digit sum", lambda n: sum(map(int, str(n))) % 2 == 1)]
    return rules


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().lower() if match else None


class GlowRuleEnv:
    """Pattern recognition: find which simple number rule makes lamps glow, then classify new numbers."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.rule = ""
        self.queries = []
        self.labels = []

    def reset(self, seed=None):
        rng = random.Random(seed)
        family = _family()
        while True:
            self.rule, test = rng.choice(family)
            glow = [n for n in range(1, 61) if test(n)]
            dark = [n for n in range(1, 61) if not test(n)]
            if min(len(glow), len(dark)) < 7:
                continue
            chosen = rng.sample(glow, 7) + rng.sample(dark, 7)
            shown_glow, shown_dark, queries = sorted(chosen[:5]), sorted(chosen[7:12]), chosen[5:7] + chosen[12:]
            rng.shuffle(queries)
            fits = [t for _, t in family if all(t(n) for n in shown_glow) and not any(t(n) for n in shown_dark)]
            if all([t(q) for q in queries] == [test(q) for q in queries] for t in fits):
                break
        self.queries, self.labels = queries, ["glow" if test(q) else "dark" for q in queries]
        self.turn_count = 0
        return (f"[Glow Rule] A lamp glows for the numbers 1 to 60 that obey one hidden rule. The rule is one of: "
                "a multiple of k (k from 3 to 9); remainder 1 when divided by k (k from 3 to 6); last digit at least "
                "d (d from 5 to 8); greater than t (t = 15, 20, ..., 45); an even digit sum; an odd digit sum. "
                f"Glow: {', '.join(map(str, shown_glow))}. Dark: {', '.join(map(str, shown_dark))}. "
                f"Classify {', '.join(map(str, queries))} in this order, e.g. \\boxed{{glow, dark, dark, glow}}. "
                "One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        words = re.findall(r"[a-z]+", _boxed(action) or "")
        if len(words) != len(self.queries) or not set(words) <= {"glow", "dark"}:
            return "Expected four words, each glow or dark, e.g. \\boxed{glow, dark, dark, glow}.", 0.0, False, truncated, {}
        if words == self.labels:
            return "Correct classification!", 1.0, True, False, {}
        return f"Wrong: the answer was {', '.join(self.labels)}.", 0.0, True, False, {}

    def solution(self):
        return f"The rule is '{self.rule}': " + ", ".join(f"{q} {l}" for q, l in zip(self.queries, self.labels)) + "."
