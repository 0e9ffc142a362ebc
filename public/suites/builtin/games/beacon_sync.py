import math
import random
import re


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


class BeaconSyncEnv:
    """Mathematical reasoning: three beacons flash on their own periods; find their next common flash."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.periods = (1, 1, 1)
        self.start = 0
        self.after = 0
        self.answer = 0
        self.question = ""

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            a, b, c = sorted(rng.sample(range(4, 19), 3))
            cycle = math.lcm(a, b, c)
            if not 40 <= cycle <= 600 or cycle == a * b * c:
                continue
            start = rng.randint(0, 60)
            after = start + rng.randint(cycle + 1, 3 * cycle)
            answer = start + ((after - start) // cycle + 1) * cycle
            product = a * b * c
            naive = start + ((after - start) // product + 1) * product
            if naive != answer:
                break
        self.periods, self.start, self.after, self.answer = (a, b, c), start, after, answer
        self.turn_count = 0
        self.question = (f"Three beacons flash every {a}, {b} and {c} seconds. All three flashed together at second "
                         f"{start}. At which second after second {after} do all three next flash together?")
        return (f"[Beacon Sync] {self.question} Reply with the second as \\boxed{{number}}. "
                "One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action)
        if text is None or not re.fullmatch(r"-?\d{1,9}", text):
            return (f"Expected a whole number inside \\boxed{{}}, e.g. \\boxed{{75}}. {self.question}",
                    0.0, False, truncated, {})
        if int(text) == self.answer:
            return f"Correct: all three beacons flash together at second {self.answer}.", 1.0, True, False, {}
        return f"Wrong: the next common flash after second {self.after} is at second {self.answer}.", 0.0, True, False, {}

    def solution(self):
        a, b, c = self.periods
        cycle = math.lcm(a, b, c)
        return (f"The beacons meet every lcm({a}, {b}, {c}) = {cycle} seconds, counting from second {self.start}; "
                f"the first meeting after second {self.after} is at second {self.answer}.")
