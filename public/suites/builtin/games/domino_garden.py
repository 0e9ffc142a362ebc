import random
import re

TILES = "ABCDE"


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().upper() if match else None


class DominoGardenEnv:
    """Causal inference: push tiles to see what falls, and tell direct links from knock-on effects."""

    def __init__(self, max_turns=8):
        self.max_turns = max_turns
        self.turn_count = 0
        self.parent = {}
        self.pushes = []

    def _falls(self, tile):
        fallen = {tile}
        while True:
            more = {t for t, p in self.parent.items() if p in fallen} - fallen
            if not more:
                return sorted(fallen)
            fallen |= more

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            order = rng.sample(TILES, len(TILES))
            self.parent = {t: rng.choice(order[:i]) for i, t in enumerate(order) if i > 0}
            if len(set(self.parent.values())) < len(self.parent):
                break
        self.pushes = []
        self.turn_count = 0
        return self._observe("[Domino Garden] Five tiles, A to E, stand in a garden."), {}

    def _observe(self, head):
        seen = "; ".join(f"push {t} -> {', '.join(self._falls(t))}" for t in self.pushes) or "nothing yet"
        return (f"{head} Hidden links join them: when a tile falls, every tile it links to falls too. Each tile is "
                "linked from at most one other tile. Push one tile per turn with \\boxed{push B}: you see everything "
                "that falls, then the tiles are stood up again. Finally list every direct link as "
                "\\boxed{links A>B, B>C} (A>B means A knocks B over directly). A wrong list ends the game. "
                f"Seen so far: {seen}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action) or ""
        push = re.fullmatch(r"PUSH ([A-E])", text)
        if push:
            self.pushes.append(push.group(1))
            return self._observe(f"{', '.join(self._falls(push.group(1)))} fell."), 0.0, False, truncated, {}
        links = re.findall(r"([A-E])\s*>\s*([A-E])", text)
        if not text.startswith("LINKS") or not links:
            return self._observe("Unreadable action."), 0.0, False, truncated, {}
        if set(links) == {(p, t) for t, p in self.parent.items()} and len(links) == len(self.parent):
            return "Correct: those are exactly the direct links!", 1.0, True, False, {}
        return f"Wrong: the direct links are {self.solution()}.", 0.0, True, False, {}

    def solution(self):
        return ", ".join(f"{p}>{t}" for t, p in sorted(self.parent.items(), key=lambda x: (x[1], x[0])))
