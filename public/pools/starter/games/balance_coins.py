import random
import re


class BalanceCoinsEnv:
    """Logical deduction: nine coins, one slightly heavier. A balance scale may be used twice,
    then the heavy coin must be named. Splitting into thirds always works; halving does not."""

    COINS = 9
    WEIGHINGS = 2

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.heavy = 1
        self.log = []

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.heavy = rng.randint(1, self.COINS)
        self.log = []
        self.turn_count = 0
        return self._observe("Nine coins lie on the table, numbered 1 to 9; one is heavier than the rest."), {}

    def _observe(self, head):
        log = " ".join(f"W{i + 1}: {entry}." for i, entry in enumerate(self.log)) or "empty."
        left = self.WEIGHINGS - len(self.log)
        return (f"{head} Scale log: {log} Weighings left: {left}. "
                "Actions: \\boxed{weigh 1 2 vs 3 4} puts coins on the left and right pans; "
                "\\boxed{accuse K} names the heavy coin (final).")

    def _coins(self, words):
        if not words or not all(w.isdigit() and 1 <= int(w) <= self.COINS for w in words):
            return None
        return [int(w) for w in words]

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).strip().lower().split()
        if len(words) == 2 and words[0] == "accuse" and self._coins(words[1:]):
            coin = int(words[1])
            if coin == self.heavy:
                return f"Coin {coin} is the heavy one. Well deduced!", 1.0, True, False, {}
            return f"Coin {coin} is ordinary; the heavy coin was {self.heavy}.", 0.0, True, False, {}
        if words[:1] == ["weigh"] and "vs" in words:
            if len(self.log) >= self.WEIGHINGS:
                return self._observe("The scale is locked: name the heavy coin."), 0.0, False, truncated, {}
            cut = words.index("vs")
            left, right = self._coins(words[1:cut]), self._coins(words[cut + 1:])
            if not left or not right or set(left) & set(right) or len(left) != len(right):
                return self._observe("Put the same number of different coins on each pan."), 0.0, False, truncated, {}
            if self.heavy in left:
                result = "left heavier"
            elif self.heavy in right:
                result = "right heavier"
            else:
                result = "balanced"
            self.log.append(f"{' '.join(map(str, left))} vs {' '.join(map(str, right))} -> {result}")
            return self._observe(f"The scale settles: {result}."), 0.0, False, truncated, {}
        return self._observe("Use weigh ... vs ... or accuse K."), 0.0, False, truncated, {}

    def solution(self):
        return f"Weigh thirds (1 2 3 vs 4 5 6), then one coin against another within the heavy third. Heavy coin: {self.heavy}."
