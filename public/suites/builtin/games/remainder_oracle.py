import random
import re


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().lower() if match else None


class RemainderOracleEnv:
    """Mathematical reasoning: pin down a hidden number from three remainder questions."""

    QUESTIONS = 3

    def __init__(self, max_turns=6):
        self.max_turns = max_turns
        self.turn_count = 0
        self.secret = 0
        self.known = []

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.secret = rng.randint(100, 1000)
        self.known = []
        self.turn_count = 0
        return self._observe("[Remainder Oracle] I am thinking of a whole number from 1 to 1000."), {}

    def _observe(self, head):
        facts = ", ".join(f"n mod {k} = {r}" for k, r in self.known) or "nothing yet"
        left = self.QUESTIONS - len(self.known)
        return (f"{head} Ask for its remainder after division by any k from 2 to 13 with \\boxed{{mod k}} "
                f"({left} question(s) left), then name the number with \\boxed{{answer n}}. "
                f"Known so far: {facts}. A wrong answer ends the game.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        words = (_boxed(action) or "").split()
        if len(words) == 2 and words[0] == "mod" and re.fullmatch(r"\d{1,9}", words[1]):
            k = int(words[1])
            if not 2 <= k <= 13:
                return self._observe(f"k must be from 2 to 13, not {k}."), 0.0, False, truncated, {}
            if len(self.known) >= self.QUESTIONS:
                return self._observe("No questions left: answer now."), 0.0, False, truncated, {}
            self.known.append((k, self.secret % k))
            return self._observe(f"Dividing by {k} leaves {self.secret % k}."), 0.0, False, truncated, {}
        if len(words) == 2 and words[0] == "answer" and re.fullmatch(r"-?\d{1,9}", words[1]):
            if int(words[1]) == self.secret:
                return f"Correct, the number was {self.secret}!", 1.0, True, False, {}
            return f"Wrong: the number was {self.secret}.", 0.0, True, False, {}
        return self._observe("Unreadable action."), 0.0, False, truncated, {}

    def solution(self):
        return (f"The number is {self.secret}. Ask mod 7, mod 11 and mod 13 (7 x 11 x 13 = 1001 > 1000): "
                "exactly one number up to 1000 has those three remainders.")
