import random
import re


def _grid(cells):
    return "/".join("".join("#" if (r, c) in cells else "." for c in range(3)) for r in range(3))


TRANSFORMS = {
    "mirror left-right": lambda r, c: (r, 2 - c), "mirror top-bottom": lambda r, c: (2 - r, c),
    "turn clockwise": lambda r, c: (c, 2 - r), "turn anticlockwise": lambda r, c: (2 - c, r),
    "half turn": lambda r, c: (2 - r, 2 - c), "swap rows and columns": lambda r, c: (c, r),
    "shift right": lambda r, c: (r, (c + 1) % 3), "shift down": lambda r, c: ((r + 1) % 3, c),
}


def _apply(name, cells):
    if name == "invert":
        return frozenset((r, c) for r in range(3) for c in range(3)) - cells
    return frozenset(TRANSFORMS[name](r, c) for r, c in cells)


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


class PixelRuleEnv:
    """Pattern recognition: spot the grid transformation shown by two examples and apply it to a third grid."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.rule = "invert"
        self.answer = ""

    def reset(self, seed=None):
        rng = random.Random(seed)
        names = sorted(TRANSFORMS) + ["invert"]
        board = [(r, c) for r in range(3) for c in range(3)]
        while True:
            self.rule = rng.choice(names)
            grids = [frozenset(rng.sample(board, rng.randint(3, 5))) for _ in range(3)]
            fits = [n for n in names if all(_apply(n, g) == _apply(self.rule, g) for g in grids[:2])]
            out = _apply(self.rule, grids[2])
            if all(_apply(n, grids[2]) == out for n in fits) and out != grids[2]:
                break
        self.answer = _grid(out)
        shown = "; ".join(f"Example {i + 1}: [{_grid(g)}] -> [{_grid(_apply(self.rule, g))}]" for i, g in enumerate(grids[:2]))
        self.turn_count = 0
        return (f"[Pixel Rule] Each 3x3 grid is written row by row from the top, rows separated by /, # filled and . "
                f"empty. The same change turns every input into its output. {shown}. Test: [{_grid(grids[2])}] -> ? "
                "Reply with the output grid, e.g. \\boxed{#../.#./..#}. One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = (_boxed(action) or "").replace(" ", "")
        if not re.fullmatch(r"[.#]{3}/[.#]{3}/[.#]{3}", text):
            return "Expected three rows of three . or # separated by /, e.g. \\boxed{#../.#./..#}.", 0.0, False, truncated, {}
        if text == self.answer:
            return "Correct grid!", 1.0, True, False, {}
        return f"Wrong: the output was {self.answer}.", 0.0, True, False, {}

    def solution(self):
        return f"The change is '{self.rule}'; the test output is {self.answer}."
