import random
import re


class SafeDialEnv:
    """Mathematical reasoning: a safe hides a code from 1 to 100. Every try says higher or lower,
    and the display shows the live range and the notch at its centre. Halving wins in 7 tries."""

    LOW = 1
    HIGH = 100

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.code = self.LOW
        self.lo = self.LOW
        self.hi = self.HIGH
        self.tries = []

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.code = rng.randint(self.LOW, self.HIGH)
        self.lo = self.LOW
        self.hi = self.HIGH
        self.tries = []
        self.turn_count = 0
        return self._observe("The safe is locked; its code is a whole number from 1 to 100."), {}

    def _parse(self, action):
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        return (match.group(1) if match else str(action)).strip()

    def _observe(self, head):
        notch = (self.lo + self.hi) // 2
        left = self.max_turns - self.turn_count
        return (f"{head} The code is in [{self.lo}, {self.hi}]; the centre notch is at {notch}. "
                f"Tries left: {left}. Try a code with \\boxed{{n}}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = self._parse(action)
        if not text.isdigit() or not self.LOW <= int(text) <= self.HIGH:
            return self._observe(f"The dial only takes whole numbers from 1 to 100, not '{text[:20]}'."), 0.0, False, truncated, {}
        guess = int(text)
        self.tries.append(guess)
        if guess == self.code:
            return f"Click! The safe opens on {guess} after {len(self.tries)} tries.", 1.0, True, False, {}
        if guess < self.code:
            self.lo = max(self.lo, guess + 1)
            head = f"{guess} is too low."
        else:
            self.hi = min(self.hi, guess - 1)
            head = f"{guess} is too high."
        if truncated:
            return f"{head} Out of tries: the code was {self.code}.", 0.0, False, True, {}
        return self._observe(head), 0.0, False, truncated, {}

    def solution(self):
        return f"Binary search: always try the centre of the live range. The code is {self.code}."
