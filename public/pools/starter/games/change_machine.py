import random
import re


class ChangeMachineEnv:
    """Optimization: pay an exact amount into a machine with as few coins as possible. The machine
    has exactly as many slots as the optimal payment needs, so a wasteful coin jams it."""

    PUZZLES = [
        ([1, 3, 4], 10), ([1, 5, 6], 15), ([1, 4, 5], 12), ([1, 10, 25], 30),
        ([1, 7, 10], 21), ([1, 6, 9], 24), ([1, 3, 4], 9), ([1, 2, 5], 13),
    ]

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.coins = [1, 2, 5]
        self.amount = 0
        self.slots = 0
        self.paid = []

    def reset(self, seed=None):
        rng = random.Random(seed)
        coins, amount = rng.choice(self.PUZZLES)
        self.coins = sorted(coins, reverse=True)
        self.amount = amount
        self.slots = self._fewest(amount)
        self.paid = []
        self.turn_count = 0
        return self._observe(f"The machine asks for exactly {amount} and has {self.slots} coin slots."), {}

    def _fewest(self, amount):
        best = [0] + [10 ** 6] * amount
        for value in range(1, amount + 1):
            for coin in self.coins:
                if coin <= value:
                    best[value] = min(best[value], best[value - coin] + 1)
        return best[amount]

    def _observe(self, head):
        fit = [c for c in self.coins if c <= self.amount]
        meter = []
        for coin in fit:
            need = self._fewest(self.amount - coin)
            verdict = "ok" if need <= self.slots - 1 else "dead end"
            meter.append(f"{coin} -> leaves {self.amount - coin} (needs {need} more), {verdict}")
        return (f"{head} Amount left: {self.amount}. Slots left: {self.slots}. "
                f"Coins that fit (largest first): {', '.join(str(c) for c in fit)}. "
                f"Meter: {'; '.join(meter)}. Insert a coin with \\boxed{{coin value}}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        text = (match.group(1) if match else str(action)).strip()
        if not text.isdigit() or int(text) not in self.coins or int(text) > self.amount:
            return self._observe(f"The machine spits out '{text[:20]}'."), 0.0, False, truncated, {}
        coin = int(text)
        self.paid.append(coin)
        self.amount -= coin
        self.slots -= 1
        if self.amount == 0:
            return f"Paid exactly with {len(self.paid)} coins ({' + '.join(map(str, self.paid))}). The machine hums happily.", 1.0, True, False, {}
        if self.slots == 0:
            return f"All slots are full but {self.amount} is still owed: the machine jams. You paid {' + '.join(map(str, self.paid))}.", 0.0, True, False, {}
        return self._observe(f"Coin {coin} accepted."), 0.0, False, truncated, {}

    def solution(self):
        plan, amount = [], self.amount
        while amount > 0:
            coin = next(c for c in self.coins if c <= amount and self._fewest(amount - c) == self._fewest(amount) - 1)
            plan.append(coin)
            amount -= coin
        return "Pay " + " + ".join(map(str, plan))
