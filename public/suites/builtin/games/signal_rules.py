import random
import re

SIGNALS = ("amber", "bell", "chime", "drum", "flare", "gong", "horn", "lamp")


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().lower() if match else None


def _fire(active, rules):
    return set(active) | {result for needs, result in rules if set(needs) <= set(active)}


class SignalRulesEnv:
    """Logical deduction: forward-chain if-then rules from starting signals to the final active set."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.start = []
        self.rules = []
        self.final = set()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            start = sorted(rng.sample(SIGNALS, 2))
            rules = []
            for _ in range(6):
                needs = sorted(rng.sample(SIGNALS, rng.choice([1, 2, 2])))
                result = rng.choice([s for s in SIGNALS if s not in needs])
                rules.append((needs, result))
            final = set(start)
            while _fire(final, rules) != final:
                final = _fire(final, rules)
            idle = [r for r in rules if not set(r[0]) <= final]
            if len(final) - 2 >= 3 and len(final) <= 6 and idle and _fire(start, rules) != final:
                break
        self.start, self.rules, self.final = start, rules, final
        self.turn_count = 0
        return self._observe("[Signal Rules] Signals start active:"), {}

    def _observe(self, head):
        rules = "; ".join(f"if {' and '.join(needs)} then {result}" for needs, result in self.rules)
        return (f"{head} {', '.join(self.start)}. Rules: {rules}. A rule fires when all its conditions are active, "
                "and then its result becomes active too (nothing ever turns off). Which signals are active once no "
                "rule can add anything? Reply with all of them, e.g. \\boxed{name, name, name}. "
                "One wrong answer ends the game.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        words = set(re.findall(r"[a-z]+", _boxed(action) or "")) - {"and"}
        if not words or not words <= set(SIGNALS):
            return self._observe("Name only signals, e.g. \\boxed{amber, bell}. Signals start active:"), 0.0, False, truncated, {}
        if words == self.final:
            return "Correct: " + ", ".join(sorted(self.final)) + " are active.", 1.0, True, False, {}
        return "Wrong: the active signals are " + ", ".join(sorted(self.final)) + ".", 0.0, True, False, {}

    def solution(self):
        return "Apply the rules until nothing changes: " + ", ".join(sorted(self.final)) + " end up active."
