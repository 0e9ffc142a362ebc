import random
import re


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().upper() if match else None


def _turn(cells):
    return frozenset((c, 3 - r) for r, c in cells)


def _turns(cells):
    out = [frozenset(cells)]
    for _ in range(3):
        out.append(_turn(out[-1]))
    return out


def _draw(cells):
    return "/".join("".join("#" if (r, c) in cells else "." for c in range(4)) for r in range(4))


class TileTurnerEnv:
    """Spatial reasoning: pick the candidate that is the pattern turned on the table, not flipped or altered."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.shape = frozenset()
        self.options = []
        self.answer = "A"

    def reset(self, seed=None):
        rng = random.Random(seed)
        grid = [(r, c) for r in range(4) for c in range(4)]
        while True:
            shape = {rng.choice(grid)}
            while len(shape) < rng.randint(5, 6):
                r, c = rng.choice(sorted(shape))
                nxt = rng.choice([(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)])
                if nxt in grid:
                    shape.add(nxt)
            turns = _turns(shape)
            flips = _turns(frozenset((r, 3 - c) for r, c in shape))
            if len(set(turns)) < 4 or set(turns) & set(flips):
                continue
            options = [turns[rng.randint(1, 3)], flips[rng.randint(0, 3)]]
            for _ in range(40):
                moved = set(rng.choice(turns))
                moved.remove(rng.choice(sorted(moved)))
                moved.add(rng.choice([g for g in grid if g not in moved]))
                if moved not in turns and moved not in flips and moved not in options:
                    options.append(frozenset(moved))
                if len(options) == 4:
                    break
            if len(options) == 4:
                break
        right = options[0]
        rng.shuffle(options)
        self.shape, self.options, self.answer = frozenset(shape), options, "ABCD"[options.index(right)]
        self.turn_count = 0
        shown = "; ".join(f"{k} [{_draw(o)}]" for k, o in zip("ABCD", options))
        return (f"[Tile Turner] A pattern is drawn on a 4x4 grid (rows top to bottom, separated by /; # is filled). "
                f"Original [{_draw(self.shape)}]. Candidates: {shown}. Which candidate is the original turned on "
                "the table by a quarter, half or three-quarter turn, never flipped over? Reply with \\boxed{A}, "
                "\\boxed{B}, \\boxed{C} or \\boxed{D}. One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        choice = _boxed(action)
        if choice not in ("A", "B", "C", "D"):
            return "Expected one letter, e.g. \\boxed{B}.", 0.0, False, truncated, {}
        if choice == self.answer:
            return f"Correct: {self.answer} is the original, turned.", 1.0, True, False, {}
        return f"Wrong: the turned original was {self.answer}.", 0.0, True, False, {}

    def solution(self):
        return f"Candidate {self.answer}: turning the original grid a quarter turn at a time reproduces it exactly."
