import random
import re

SIZE = 9


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().lower() if match else None


class BuriedChestEnv:
    """Spatial reasoning: locate a buried chest on a grid from walking distances reported by test digs."""

    DIGS = 4

    def __init__(self, max_turns=6):
        self.max_turns = max_turns
        self.turn_count = 0
        self.chest = (0, 0)
        self.digs = []

    def reset(self, seed=None):
        rng = random.Random(seed)
        cells = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) != (SIZE // 2, SIZE // 2)]
        self.chest = rng.choice(cells)
        self.digs = []
        self.turn_count = 0
        return self._observe("[Buried Chest] A chest is buried under one square of a 9x9 field."), {}

    def _observe(self, head):
        found = " ".join(f"Dig at row {r}, column {c}: nothing; the chest is {d} steps away." for r, c, d in self.digs)
        return (f"{head} Rows and columns are numbered 0 to 8. Dig with \\boxed{{dig row column}}, e.g. "
                "\\boxed{dig 2 7}; a miss tells you how many steps away the chest is, walking only along rows and "
                f"columns. Digs left: {self.DIGS - len(self.digs)}. {found}").rstrip()

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        words = (_boxed(action) or "").replace(",", " ").split()
        if len(words) != 3 or words[0] != "dig" or not all(re.fullmatch(r"\d{1,3}", w) for w in words[1:]):
            return self._observe("Unreadable action."), 0.0, False, truncated, {}
        r, c = int(words[1]), int(words[2])
        if r >= SIZE or c >= SIZE:
            return self._observe(f"Row {r}, column {c} is outside the field."), 0.0, False, truncated, {}
        if (r, c) == self.chest:
            return f"You dig at row {r}, column {c} and find the chest!", 1.0, True, False, {}
        self.digs.append((r, c, abs(r - self.chest[0]) + abs(c - self.chest[1])))
        if len(self.digs) >= self.DIGS:
            return f"Out of digs: the chest was at row {self.chest[0]}, column {self.chest[1]}.", 0.0, True, False, {}
        return self._observe("Nothing here."), 0.0, False, truncated, {}

    def solution(self):
        r, c = self.chest
        return (f"The chest is at row {r}, column {c}. Dig at 0 0 (distance r + c) and 0 8 (distance r + 8 - c), "
                "solve for row and column, then dig there.")
