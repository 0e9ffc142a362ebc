import random
import re
from collections import deque


class LanternMazeEnv:
    """Spatial reasoning: walk a 6x6 maze by lantern light; only the four neighbouring cells are visible."""

    SIZE = 6
    MOVES = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}

    def __init__(self, max_turns=20):
        self.max_turns = max_turns
        self.turn_count = 0
        self.walls = set()
        self.pos = (0, 0)
        self.exit = (0, 0)
        self.path = []

    def _inside(self, cell):
        return 0 <= cell[0] < self.SIZE and 0 <= cell[1] < self.SIZE

    def _open(self, cell):
        return self._inside(cell) and cell not in self.walls

    def _bfs(self, start, goal):
        queue = deque([(start, [])])
        seen = {start}
        while queue:
            cell, path = queue.popleft()
            if cell == goal:
                return path
            for name in "NSWE":
                dr, dc = self.MOVES[name]
                nxt = (cell[0] + dr, cell[1] + dc)
                if self._open(nxt) and nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, path + [name]))
        return None

    def reset(self, seed=None):
        rng = random.Random(seed)
        cells = [(r, c) for r in range(self.SIZE) for c in range(self.SIZE)]
        while True:
            self.walls = {cell for cell in cells if cell != (0, 0) and rng.random() < 0.28}
            free = [cell for cell in cells if cell not in self.walls and cell != (0, 0)]
            self.exit = rng.choice(free)
            path = self._bfs((0, 0), self.exit)
            if path is not None and 4 <= len(path) <= 9:
                break
        self.pos = (0, 0)
        self.path = path
        self.turn_count = 0
        return self._observe("You hold a lantern in a dark 6x6 maze."), {}

    def _observe(self, head):
        around = []
        for name in "NSWE":
            dr, dc = self.MOVES[name]
            cell = (self.pos[0] + dr, self.pos[1] + dc)
            around.append(f"{name}: {'open' if self._open(cell) else 'blocked'}")
        return (f"{head} You are at row {self.pos[0]}, column {self.pos[1]}; the exit is at row "
                f"{self.exit[0]}, column {self.exit[1]}. Around you: {', '.join(around)}. "
                f"Move one step per turn with \\boxed{{N}}, \\boxed{{S}}, \\boxed{{W}} or \\boxed{{E}}.")

    def step(self, action):
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        move = (match.group(1) if match else str(action)).strip().upper()
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        if move not in self.MOVES:
            return self._observe(f"'{move}' is not a direction."), 0.0, False, truncated, {}
        dr, dc = self.MOVES[move]
        nxt = (self.pos[0] + dr, self.pos[1] + dc)
        if not self._open(nxt):
            return self._observe("You bump into a wall."), 0.0, False, truncated, {}
        self.pos = nxt
        if self.pos == self.exit:
            return self._observe("You found the exit!"), 1.0, True, False, {"steps": self.turn_count}
        return self._observe("You move."), 0.0, False, truncated, {}

    def solution(self):
        return "Shortest path: " + " ".join(self.path)
