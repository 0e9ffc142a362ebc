import random
import re
from collections import deque

SIZE = 7
MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().lower() if match else None


class IceRinkEnv:
    """Spatial reasoning: slide across ice that only stops at rocks and walls; come to rest on the goal."""

    def __init__(self, max_turns=10):
        self.max_turns = max_turns
        self.turn_count = 0
        self.rocks = set()
        self.pos = (0, 0)
        self.goal = (0, 0)
        self.plan = []

    def _slide(self, cell, move):
        dr, dc = MOVES[move]
        while True:
            nxt = (cell[0] + dr, cell[1] + dc)
            if not (0 <= nxt[0] < SIZE and 0 <= nxt[1] < SIZE) or nxt in self.rocks:
                return cell
            cell = nxt

    def _shortest(self, start):
        queue, seen = deque([(start, [])]), {start}
        while queue:
            cell, path = queue.popleft()
            if cell == self.goal:
                return path
            for move in MOVES:
                nxt = self._slide(cell, move)
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, path + [move]))
        return None

    def reset(self, seed=None):
        rng = random.Random(seed)
        cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
        while True:
            self.rocks = set(rng.sample(cells, rng.randint(7, 11)))
            self.pos, self.goal = rng.sample([c for c in cells if c not in self.rocks], 2)
            self.plan = self._shortest(self.pos)
            if self.plan is not None and 3 <= len(self.plan) <= 6:
                break
        self.turn_count = 0
        return self._observe("[Ice Rink] You are P on a frozen 7x7 rink; # are rocks and G is the goal."), {}

    def _observe(self, head):
        rows = ["".join("P" if (r, c) == self.pos else "G" if (r, c) == self.goal else "#" if (r, c) in self.rocks
                        else "." for c in range(SIZE)) for r in range(SIZE)]
        return (f"{head} Each move slides you until the next square is a rock or the edge of the rink; you win "
                "by coming to rest on G (sliding over it does not count). Moves: \\boxed{up}, \\boxed{down}, "
                f"\\boxed{{left}}, \\boxed{{right}}. Turn {self.turn_count} of {self.max_turns}. Map, top row first:\n"
                + "\n".join(rows))

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        move = _boxed(action)
        if move not in MOVES:
            return self._observe("Unreadable move."), 0.0, False, truncated, {}
        self.pos = self._slide(self.pos, move)
        if self.pos == self.goal:
            return "You come to rest on the goal!", 1.0, True, False, {}
        return self._observe(f"You slide {move}."), 0.0, False, truncated, {}

    def solution(self):
        return "Fewest slides: " + ", ".join(self.plan) + "."
