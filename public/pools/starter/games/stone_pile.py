import random
import re


class StonePileEnv:
    """Mathematical reasoning: a take-away game against the house. Take 1, 2 or 3 stones; whoever
    takes the last stone wins. The house picks at random unless it can finish the pile."""

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.pile = 0
        self.rng = random.Random(0)
        self.history = []

    def reset(self, seed=None):
        self.rng = random.Random(seed)
        self.pile = 4 * self.rng.randint(3, 5) + self.rng.choice([1, 2, 3])
        self.history = []
        self.turn_count = 0
        return self._observe("A pile of stones lies between you and the house; you move first."), {}

    def _observe(self, head):
        groups, rest = divmod(self.pile, 4)
        noun = "stone" if self.pile == 1 else "stones"
        return (f"{head} Pile: {self.pile} {noun} ({self.pile} = 4 x {groups} + {rest}). "
                "Whoever takes the last stone wins. Take 1, 2 or 3 stones with \\boxed{take k}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).strip().lower().split()
        count = words[-1] if words else ""
        if count not in ("1", "2", "3") or int(count) > self.pile:
            return self._observe("The house waits: take 1, 2 or 3 stones, no more than the pile."), 0.0, False, truncated, {}
        self.pile -= int(count)
        self.history.append(("you", int(count)))
        if self.pile == 0:
            return f"You take the last stone{'s' if int(count) > 1 else ''}. You win!", 1.0, True, False, {}
        house = self.pile if self.pile <= 3 else self.rng.randint(1, 3)
        self.pile -= house
        self.history.append(("house", house))
        if self.pile == 0:
            return f"You took {count}; the house takes the last {house}. The house wins.", 0.0, True, False, {}
        return self._observe(f"You took {count}; the house took {house}."), 0.0, False, truncated, {}

    def solution(self):
        return "Always leave a multiple of four: take (pile mod 4) stones whenever it is not zero."
