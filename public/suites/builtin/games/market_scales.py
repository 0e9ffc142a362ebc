import random
import re

FRUITS = ("apple", "pear", "plum")


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


def _det(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _items(counts):
    return " + ".join(f"{n} {name}" for n, name in zip(counts, FRUITS))


class MarketScalesEnv:
    """Mathematical reasoning: recover three fruit prices from receipts and price a new basket."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.prices = []
        self.basket = []
        self.cost = 0
        self.question = ""

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            prices = [rng.randint(1, 15) for _ in FRUITS]
            rows = [[rng.randint(0, 3) for _ in FRUITS] for _ in range(3)]
            basket = [rng.randint(1, 4) for _ in FRUITS]
            if _det(rows) == 0 or basket in rows or min(sum(r) for r in rows) < 2:
                continue
            totals = [sum(n * p for n, p in zip(row, prices)) for row in rows]
            cost = sum(n * p for n, p in zip(basket, prices))
            if cost != totals[0]:
                break
        self.prices, self.basket, self.cost = prices, basket, cost
        receipts = "; ".join(f"{_items(row)} = {total} coins" for row, total in zip(rows, totals))
        self.question = (f"Each fruit has a fixed whole-number price. Receipts: {receipts}. "
                         f"What do {_items(basket)} cost together?")
        self.turn_count = 0
        return f"[Market Scales] {self.question} Reply with \\boxed{{coins}}. One wrong answer ends the game.", {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action)
        if text is None or not re.fullmatch(r"-?\d{1,9}", text):
            return f"Expected a whole number inside \\boxed{{}}, e.g. \\boxed{{30}}. {self.question}", 0.0, False, truncated, {}
        if int(text) == self.cost:
            return f"Correct: the basket costs {self.cost} coins.", 1.0, True, False, {}
        return f"Wrong: the basket costs {self.cost} coins.", 0.0, True, False, {}

    def solution(self):
        named = ", ".join(f"{name} {p}" for name, p in zip(FRUITS, self.prices))
        return f"Solve the three receipts as equations: {named}. The basket costs {self.cost} coins."
