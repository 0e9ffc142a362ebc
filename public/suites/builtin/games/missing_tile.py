import random
import re

# Hidden rules the puzzle draws from, and look-alikes every instance must rule out.
RULES = {
    "a*b+a": lambda a, b: a * b + a, "a*b-b": lambda a, b: a * b - b, "a*a+b": lambda a, b: a * a + b,
    "2a+3b": lambda a, b: 2 * a + 3 * b, "(a+b)(a-b)": lambda a, b: (a + b) * (a - b),
    "a*b+a+b": lambda a, b: a * b + a + b, "a*b-a-b": lambda a, b: a * b - a - b, "b*b-a": lambda a, b: b * b - a,
}
DECOYS = {
    "a+b": lambda a, b: a + b, "a*b": lambda a, b: a * b, "a-b": lambda a, b: a - b, "2a+b": lambda a, b: 2 * a + b,
    "a+2b": lambda a, b: a + 2 * b, "a*b+1": lambda a, b: a * b + 1, "a*a+b*b": lambda a, b: a * a + b * b,
    "(a+b)^2": lambda a, b: (a + b) ** 2, "3a+2b": lambda a, b: 3 * a + 2 * b, "a*b-1": lambda a, b: a * b - 1,
}


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


class MissingTileEnv:
    """Pattern recognition: infer the hidden rule a @ b = c from three examples and apply it."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.rule = "a*b+a"
        self.rows = []
        self.query = (0, 0)
        self.answer = 0

    def reset(self, seed=None):
        rng = random.Random(seed)
        every = {**RULES, **DECOYS}
        while True:
            name = rng.choice(sorted(RULES))
            pairs = [(rng.randint(2, 9), rng.randint(1, 9)) for _ in range(4)]
            *shown, (qa, qb) = pairs
            fits = [f for f in every.values() if all(f(a, b) == every[name](a, b) for a, b in shown)]
            answer = every[name](qa, qb)
            if len(set(pairs)) == 4 and all(f(qa, qb) == answer for f in fits) and answer != qa + qb:
                break
        self.rule, self.query, self.answer = name, (qa, qb), answer
        self.rows = [(a, b, every[name](a, b)) for a, b in shown]
        self.turn_count = 0
        lines = "; ".join(f"{a} @ {b} = {c}" for a, b, c in self.rows)
        return (f"[Missing Tile] Every line follows the same hidden rule a @ b = c: {lines}. "
                f"What is {qa} @ {qb}? Reply with \\boxed{{number}}. One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action)
        if text is None or not re.fullmatch(r"-?\d{1,9}", text):
            return "Expected a whole number, e.g. \\boxed{17}.", 0.0, False, truncated, {}
        if int(text) == self.answer:
            return f"Correct: {self.query[0]} @ {self.query[1]} = {self.answer}.", 1.0, True, False, {}
        return f"Wrong: {self.query[0]} @ {self.query[1]} = {self.answer} (rule {self.rule}).", 0.0, True, False, {}

    def solution(self):
        return f"The rule is a @ b = {self.rule}, so {self.query[0]} @ {self.query[1]} = {self.answer}."
