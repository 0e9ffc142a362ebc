import random
import re


class SequenceOracleEnv:
    """Pattern recognition: find the rule behind a number sequence and extend it three times.

    Draws from the global `random`, which reset reseeds (as the sandbox also does before each reset).
    """

    def __init__(self, max_turns=10):
        self.max_turns = max_turns
        self.turn_count = 0
        self.terms = []
        self.shown = 5
        self.revealed = 0
        self.rule = ""

    def _make(self):
        kind = random.choice(["arithmetic", "geometric", "alternating", "fibonacci", "squares"])
        a = random.randint(1, 9)
        if kind == "arithmetic":
            d = random.randint(2, 9)
            terms = [a + d * i for i in range(8)]
            rule = f"add {d} each time"
        elif kind == "geometric":
            r = random.randint(2, 3)
            terms = [a * r ** i for i in range(8)]
            rule = f"multiply by {r} each time"
        elif kind == "alternating":
            p, q = random.randint(1, 5), random.randint(6, 12)
            terms = [a]
            for i in range(7):
                terms.append(terms[-1] + (p if i % 2 == 0 else q))
            rule = f"add {p} and {q} alternately"
        elif kind == "fibonacci":
            b = random.randint(1, 9)
            terms = [a, b]
            while len(terms) < 8:
                terms.append(terms[-1] + terms[-2])
            rule = "each term is the sum of the two before it"
        else:
            c = random.randint(-3, 5)
            terms = [(i + 1) ** 2 + c for i in range(8)]
            rule = f"n squared plus {c}"
        return terms, rule

    def reset(self, seed=None):
        if seed is not None:
            random.seed(seed)
        self.terms, self.rule = self._make()
        self.revealed = 0
        self.turn_count = 0
        return self._observe("Extend the hidden sequence."), {}

    def _observe(self, head):
        visible = ", ".join(str(t) for t in self.terms[: self.shown + self.revealed])
        left = 3 - self.revealed
        return (f"{head} Sequence: {visible}, ? You must name the next {left} term(s), one per turn, "
                f"as \\boxed{{number}}. A wrong term ends the game.")

    def step(self, action):
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        text = (match.group(1) if match else str(action)).strip()
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        try:
            guess = int(text)
        except ValueError:
            return self._observe(f"'{text}' is not a whole number."), 0.0, False, truncated, {}
        expected = self.terms[self.shown + self.revealed]
        if guess != expected:
            return f"Wrong: the next term was {expected}. The rule: {self.rule}.", 0.0, True, False, {}
        self.revealed += 1
        if self.revealed == 3:
            return self._observe("Correct, sequence complete!"), 1.0, True, False, {}
        return self._observe("Correct."), round(self.revealed / 3 * 0.5, 3), False, truncated, {}

    def solution(self):
        nxt = self.terms[self.shown : self.shown + 3]
        return f"Rule: {self.rule}. Next terms: " + " ".join(str(t) for t in nxt)
