import random
import re


class FestivalShowsEnv:
    """Optimization: see as many festival shows as possible in one day. Shows cannot overlap and
    you cannot go back in time; some shows are long. You win by matching the best possible number of shows."""

    NAMES = "ABCDEFGH"

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.shows = {}
        self.clock = 9
        self.seen = []
        self.best = 0

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self.shows = {}
            for name in self.NAMES[:7]:
                start = rng.randint(9, 16)
                self.shows[name] = (start, start + rng.choice([1, 2, 5, 6]))
            self.best = self._best(9)
            if self.best >= 3:
                break
        self.clock = 9
        self.seen = []
        self.turn_count = 0
        return self._observe("The festival gates open at 9:00."), {}

    def _reachable(self, clock):
        return sorted((s, e, n) for n, (s, e) in self.shows.items() if s >= clock and n not in self.seen)

    def _best(self, clock):
        count, now = 0, clock
        for end, start in sorted((e, s) for s, e in self.shows.values()):
            if start >= now:
                count, now = count + 1, end
        return count

    def _observe(self, head):
        options = self._reachable(self.clock)
        listing = ", ".join(f"{n} {s}-{e}" for s, e, n in options) or "none"
        soonest = min(options, key=lambda o: (o[1], o[0]))[2] if options else "none"
        return (f"{head} Clock: {self.clock}:00. Shows seen: {len(self.seen)}. Shows still reachable (by start time): {listing}. "
                f"The reachable show that ends first is {soonest}. "
                "Attend a show with \\boxed{attend NAME}; \\boxed{go home} ends the day.")

    def _finish(self, head):
        if len(self.seen) >= self.best:
            return f"{head} You saw {len(self.seen)} shows, the most possible today. Great day!", 1.0, True, False, {}
        return f"{head} You saw {len(self.seen)} shows; {self.best} were possible.", 0.0, True, False, {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).strip().upper().split()
        if words == ["GO", "HOME"]:
            return self._finish("You head home.")
        if len(words) != 2 or words[0] != "ATTEND" or words[1] not in self.shows:
            return self._observe("The usher shrugs: attend NAME or go home."), 0.0, False, truncated, {}
        name = words[1]
        start, end = self.shows[name]
        if name in self.seen or start < self.clock:
            return self._observe(f"Show {name} is no longer reachable."), 0.0, False, truncated, {}
        self.seen.append(name)
        self.clock = end
        if not self._reachable(self.clock):
            return self._finish(f"Show {name} ends at {end}:00 and nothing else is left.")
        return self._observe(f"You enjoy show {name} until {end}:00."), 0.0, False, truncated, {}

    def solution(self):
        return f"Always pick the reachable show that ends first; {self.best} shows are possible."
