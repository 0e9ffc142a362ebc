import random
import re
from collections import deque


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return " ".join(match.group(1).upper().split()) if match else None


class JugMeasureEnv:
    """Optimization: measure a volume with two unmarked jugs in the fewest possible moves."""

    MOVES = ("FILL A", "FILL B", "EMPTY A", "EMPTY B", "POUR A B", "POUR B A")

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.caps = (1, 1)
        self.target = 0
        self.state = (0, 0)
        self.budget = 0
        self.plan = []

    def _move(self, state, move):
        (a, b), (ca, cb) = state, self.caps
        if move.startswith("FILL"):
            return (ca, b) if move[-1] == "A" else (a, cb)
        if move.startswith("EMPTY"):
            return (0, b) if move[-1] == "A" else (a, 0)
        flow = min(a, cb - b) if move == "POUR A B" else -min(b, ca - a)
        return a - flow, b + flow

    def _shortest(self):
        queue, seen = deque([((0, 0), [])]), {(0, 0)}
        while queue:
            state, path = queue.popleft()
            if self.target in state:
                return path
            for move in self.MOVES:
                nxt = self._move(state, move)
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, path + [move]))
        return None

    def _routine(self, big, small):
        state, moves = (0, 0), 0
        while self.target not in state and moves < 40:
            i, j = "AB".index(big), "AB".index(small)
            move = f"FILL {big}" if state[i] == 0 else f"EMPTY {small}" if state[j] == self.caps[j] else f"POUR {big} {small}"
            state, moves = self._move(state, move), moves + 1
        return moves

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self.caps = tuple(rng.sample(range(3, 14), 2))
            self.target = rng.randint(1, max(self.caps) - 1)
            self.plan = self._shortest()
            if self.plan and 4 <= len(self.plan) <= 8 and self.target not in self.caps:
                big = "A" if self.caps[0] > self.caps[1] else "B"
                if self._routine(big, "B" if big == "A" else "A") > len(self.plan):
                    break
        self.state, self.budget = (0, 0), len(self.plan)
        self.turn_count = 0
        return self._observe("[Jug Measure] Two unmarked jugs stand by a tap."), {}

    def _observe(self, head):
        litres = f"{self.target} litre{'s' if self.target > 1 else ''}"
        return (f"{head} Jug A holds up to {self.caps[0]} litres and jug B up to {self.caps[1]}. Get exactly {litres} "
                "into either jug; you have only as many moves as the fewest-move plan needs. Moves: \\boxed{fill A}, "
                "\\boxed{empty B}, \\boxed{pour A B} (pours A into B until A is empty or B is full), and the same for "
                f"the other jug. Now: A has {self.state[0]}, B has {self.state[1]}. Moves left: {self.budget}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        move = _boxed(action)
        if move not in self.MOVES:
            return self._observe("Unreadable move."), 0.0, False, truncated, {}
        self.state, self.budget = self._move(self.state, move), self.budget - 1
        if self.target in self.state:
            return f"Measured {self.target} litres!", 1.0, True, False, {}
        if self.budget == 0:
            return f"Out of moves. A best plan: {', '.join(self.plan).lower()}.", 0.0, True, False, {}
        return self._observe(f"Done: {move.lower()}."), 0.0, False, truncated, {}

    def solution(self):
        return "Fewest moves: " + ", ".join(self.plan).lower() + "."
