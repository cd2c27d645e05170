"""Network delays between the fake and its clients, drawn reproducibly from a seed."""

import random

from fakediscord.config import Latency


class Delays:
    """Draws each delay from the live `Latency` settings.

    The gateway and REST have generators of their own, so how many REST requests a run
    makes does not change the delays its gateway frames get.
    """

    def __init__(self, config: Latency) -> None:
        self.config = config
        self._gateway = random.Random(f"{config.seed}:gateway")
        self._rest = random.Random(f"{config.seed}:rest")

    def gateway(self) -> float:
        return self._draw(self.config.gateway, self._gateway)

    def rest(self) -> float:
        return self._draw(self.config.rest, self._rest)

    def _draw(self, base: float, generator: random.Random) -> float:
        jitter = self.config.jitter
        return base + (generator.uniform(0.0, jitter) if jitter else 0.0)
