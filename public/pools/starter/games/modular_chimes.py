import random
import re


class ModularChimesEnv:
    """Pattern recognition: a clock tower chimes numbers made by a hidden rule
    next = (k * previous + c) mod 29. Predict three upcoming chimes correctly to win."""

    MOD = 29
    GOAL = 3

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.k = 2
        self.c = 1
        self.chimes = []
        self.correct = 0

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.k = rng.randint(3, self.MOD - 2)
        self.c = rng.randint(1, self.MOD - 1)
        self.chimes = [rng.randint(0, self.MOD - 1)]
        for _ in range(4):
            self.chimes.append(self._next(self.chimes[-1]))
        self.correct = 0
        self.turn_count = 0
        return self._observe("The tower has chimed five times."), {}

    def _next(self, value):
        return (self.k * value + self.c) % self.MOD

    def _observe(self, head):
        heard = ", ".join(str(x) for x in self.chimes)
        return (f"{head} Chimes so far: {heard}. Correct predictions: {self.correct} of {self.GOAL}. "
                f"Every chime is between 0 and {self.MOD - 1}. Predict the next chime with \\boxed{{number}}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        text = (match.group(1) if match else str(action)).strip()
        actual = self._next(self.chimes[-1])
        self.chimes.append(actual)
        if not text.lstrip("-").isdigit():
            return self._observe(f"No prediction read; the tower chimed {actual}."), 0.0, False, truncated, {}
        if int(text) == actual:
            self.correct += 1
            if self.correct >= self.GOAL:
                return f"The tower chimed {actual}, as you said. You read the rule!", 1.0, True, False, {}
            return self._observe(f"Right, the tower chimed {actual}."), self.correct / self.GOAL * 0.5, False, truncated, {}
        return self._observe(f"The tower chimed {actual}, not {int(text)}."), 0.0, False, truncated, {}

    def solution(self):
        return f"next = ({self.k} * previous + {self.c}) mod {self.MOD}; the next chime is {self._next(self.chimes[-1])}."
