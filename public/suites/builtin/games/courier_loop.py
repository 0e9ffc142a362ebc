import random
import re
from itertools import permutations

STOPS = "PQRST"


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().upper() if match else None


class CourierLoopEnv:
    """Optimization: drive the shortest loop through five stops and back; fuel allows nothing longer."""

    def __init__(self, max_turns=10):
        self.max_turns = max_turns
        self.turn_count = 0
        self.spots = {}
        self.at = "H"
        self.visited = []
        self.fuel = 0
        self.best = []

    def _dist(self, x, y):
        return abs(self.spots[x][0] - self.spots[y][0]) + abs(self.spots[x][1] - self.spots[y][1])

    def _length(self, route):
        path = ["H", *route, "H"]
        return sum(self._dist(a, b) for a, b in zip(path, path[1:]))

    def _nearest(self):
        route, at = [], "H"
        while len(route) < len(STOPS):
            at = min((s for s in STOPS if s not in route), key=lambda s: (self._dist(at, s), s))
            route.append(at)
        return route

    def reset(self, seed=None):
        rng = random.Random(seed)
        grid = [(x, y) for x in range(10) for y in range(10)]
        while True:
            self.spots = dict(zip("H" + STOPS, rng.sample(grid, 6)))
            self.best = list(min(permutations(STOPS), key=self._length))
            if self._length(self._nearest()) > self._length(self.best):
                break
        self.at, self.visited, self.fuel = "H", [], self._length(self.best)
        self.turn_count = 0
        return self._observe("[Courier Loop] A van at depot H must visit every stop and return to H."), {}

    def _observe(self, head):
        places = ", ".join(f"{s} ({x}, {y})" for s, (x, y) in self.spots.items())
        return (f"{head} Places: {places}. Driving follows the street grid, so a trip costs |x1 - x2| + |y1 - y2| fuel. The tank holds "
                "exactly enough for the shortest loop. Drive with \\boxed{go P}; return with \\boxed{go H} once every "
                f"stop is visited. Now at {self.at}; visited: {', '.join(self.visited) or 'none'}; fuel left {self.fuel}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        words = (_boxed(action) or "").split()
        if len(words) != 2 or words[0] != "GO" or words[1] not in self.spots:
            return self._observe("Unreadable action."), 0.0, False, truncated, {}
        place = words[1]
        if place in self.visited or place == self.at or (place == "H" and len(self.visited) < len(STOPS)):
            return self._observe(f"Going to {place} now is not allowed."), 0.0, False, truncated, {}
        cost = self._dist(self.at, place)
        if cost > self.fuel:
            return f"The tank runs dry on the way to {place}. Shortest loop: H {' '.join(self.best)} H.", 0.0, True, False, {}
        self.fuel -= cost
        self.at = place
        if place == "H":
            return "Back at the depot with every parcel delivered!", 1.0, True, False, {}
        self.visited.append(place)
        return self._observe(f"Drove to {place} using {cost} fuel."), 0.0, False, truncated, {}

    def solution(self):
        return f"Shortest loop: H {' '.join(self.best)} H, {self._length(self.best)} fuel."
