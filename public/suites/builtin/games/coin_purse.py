import random
import re


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


def _ways(coins, amount):
    table = [1] + [0] * amount
    for coin in coins:
        for value in range(coin, amount + 1):
            table[value] += table[value - coin]
    return table[amount]


class CoinPurseEnv:
    """Mathematical reasoning: count the ways to pay an exact amount with unlimited coins of three values."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.coins = []
        self.amount = 0
        self.ways = 0
        self.question = ""

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self.coins = sorted(rng.sample(range(2, 13), 3))
            self.amount = rng.randint(25, 70)
            self.ways = _ways(self.coins, self.amount)
            if 5 <= self.ways <= 60 and _ways(self.coins[1:], self.amount) != self.ways:
                break
        a, b, c = self.coins
        self.turn_count = 0
        self.question = (f"A purse holds as many coins as you like of values {a}, {b} and {c}. In how many "
                         f"different ways can you pay exactly {self.amount}? Ways that use the same number of "
                         "each coin count once (order does not matter).")
        return f"[Coin Purse Count] {self.question} Reply with \\boxed{{count}}. One wrong answer ends the game.", {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action)
        if text is None or not re.fullmatch(r"\d{1,9}", text):
            return f"Expected a count inside \\boxed{{}}, e.g. \\boxed{{12}}. {self.question}", 0.0, False, truncated, {}
        if int(text) == self.ways:
            return f"Correct: there are {self.ways} ways.", 1.0, True, False, {}
        return f"Wrong: there are {self.ways} ways.", 0.0, True, False, {}

    def solution(self):
        return (f"{self.ways} ways: count combinations coin by coin (ways[v] += ways[v - coin] for each coin "
                f"{', '.join(map(str, self.coins))}) up to {self.amount}.")
