import random
import re


class SonarGridEnv:
    """Spatial reasoning: a chest is buried in a 20x20 beach. Every dig that misses reports the
    compass direction of the chest, which shrinks the region it can be in."""

    SIZE = 20

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.chest = (1, 1)
        self.region = [1, self.SIZE, 1, self.SIZE]
        self.last = None

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.chest = (rng.randint(1, self.SIZE), rng.randint(1, self.SIZE))
        self.region = [1, self.SIZE, 1, self.SIZE]
        self.last = None
        self.turn_count = 0
        return self._observe("You stand at (1, 1), the north-west corner of the beach."), {}

    def _observe(self, head):
        r0, r1, c0, c1 = self.region
        centre = ((r0 + r1) // 2, (c0 + c1) // 2)
        return (f"{head} The chest can be in rows {r0}-{r1}, columns {c0}-{c1}; the centre of that region is "
                f"({centre[0]}, {centre[1]}). Digs left: {self.max_turns - self.turn_count}. "
                "Dig with \\boxed{dig ROW COL} (rows grow southward, columns eastward).")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).replace(",", " ").strip().lower().split()
        if len(words) != 3 or words[0] != "dig" or not words[1].isdigit() or not words[2].isdigit():
            return self._observe("The shovel waits for dig ROW COL."), 0.0, False, truncated, {}
        r, c = int(words[1]), int(words[2])
        if not (1 <= r <= self.SIZE and 1 <= c <= self.SIZE):
            return self._observe("That spot is in the sea."), 0.0, False, truncated, {}
        if (r, c) == self.chest:
            return f"Clunk! The chest is at ({r}, {c}). Treasure found!", 1.0, True, False, {}
        cr, cc = self.chest
        ns = "south" if cr > r else "north" if cr < r else ""
        ew = "east" if cc > c else "west" if cc < c else ""
        direction = "-".join(p for p in (ns, ew) if p)
        if cr > r:
            self.region[0] = max(self.region[0], r + 1)
        elif cr < r:
            self.region[1] = min(self.region[1], r - 1)
        else:
            self.region[0] = self.region[1] = r
        if cc > c:
            self.region[2] = max(self.region[2], c + 1)
        elif cc < c:
            self.region[3] = min(self.region[3], c - 1)
        else:
            self.region[2] = self.region[3] = c
        step = (r + (cr > r) - (cr < r), c + (cc > c) - (cc < c))
        head = (f"Sand only at ({r}, {c}). The sonar points {direction}; "
                f"one step that way is ({step[0]}, {step[1]}).")
        return self._observe(head), 0.0, False, truncated, {}

    def solution(self):
        return f"Dig the centre of the live region each time (2-D bisection). The chest is at {self.chest}."
