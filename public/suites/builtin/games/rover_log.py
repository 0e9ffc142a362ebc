import random
import re

HEADINGS = ("north", "east", "south", "west")
STEPS = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


def _drive(x, y, heading, commands, left=-1):
    h = HEADINGS.index(heading)
    for command in commands:
        if command in ("L", "R"):
            h = (h + (left if command == "L" else -left)) % 4
            continue
        dx, dy = STEPS[HEADINGS[h]]
        n = int(command[1:]) * (1 if command[0] == "F" else -1)
        x, y = x + dx * n, y + dy * n
    return x, y


class RoverLogEnv:
    """Spatial reasoning: replay a rover's turn-and-drive log to find where it ends up."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.start = (0, 0, "north")
        self.commands = []
        self.end = (0, 0)
        self.question = ""

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            x, y, heading = rng.randint(-5, 5), rng.randint(-5, 5), rng.choice(HEADINGS)
            commands = []
            for _ in range(rng.randint(8, 10)):
                kind = rng.choice("FFFBLLRR")
                commands.append(kind if kind in "LR" else f"{kind}{rng.randint(1, 5 if kind == 'F' else 3)}")
            end = _drive(x, y, heading, commands)
            turns = sum(c in ("L", "R") for c in commands)
            if turns >= 3 and end != _drive(x, y, heading, commands, left=1) and end != (x, y):
                break
        self.start, self.commands, self.end = (x, y, heading), commands, end
        self.turn_count = 0
        self.question = (f"A rover starts at x = {x}, y = {y} facing {heading} (north is +y, east is +x). "
                         f"Its log: {', '.join(commands)}. F n drives n squares forward, B n drives n squares "
                         "backward without turning, L and R turn a quarter turn left or right on the spot. "
                         "Where does it end?")
        return f"[Rover Log] {self.question} Reply with \\boxed{{x, y}}. One wrong answer ends the game.", {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        numbers = re.findall(r"-?\d{1,6}", _boxed(action) or "")
        if len(numbers) != 2:
            return f"Expected two numbers, e.g. \\boxed{{3, -2}}. {self.question}", 0.0, False, truncated, {}
        if (int(numbers[0]), int(numbers[1])) == self.end:
            return f"Correct: the rover ends at x = {self.end[0]}, y = {self.end[1]}.", 1.0, True, False, {}
        return f"Wrong: the rover ends at x = {self.end[0]}, y = {self.end[1]}.", 0.0, True, False, {}

    def solution(self):
        return f"Track heading and position command by command: the rover ends at ({self.end[0]}, {self.end[1]})."
