"""Learning environments over croupier's own round engine (issue 30).

Importing this package registers a Gymnasium environment for every shipped profile,
``croupier/<profile>-v0``, and ``croupier/table-v0`` for a profile file of one's own
(``gym.make("croupier/table-v0", profile="house.toml")``); ``gym.make`` also imports it
itself from the id ``"croupier.envs:croupier/peru-2016-v0"``. The actions are the stable
catalogue of ``croupier.envs.actions``; the environment is ``croupier.envs.table``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from croupier.rules.registry import load_profile, shipped_profile_names

ENTRY_POINT = "croupier.envs.table:CroupierEnv"
VECTOR_ENTRY_POINT = "croupier.envs.vector:CroupierVectorEnv"
"""Blackjack's compiled vector environment (``gym.make_vec(..., vectorization_mode=
"vector_entry_point")``); the other games vectorise with Gymnasium's ``sync`` or ``async``."""

ENVIRONMENTS: dict[str, dict[str, Any]] = {
    **{
        f"croupier/{name}-v0": {
            "entry_point": ENTRY_POINT,
            "kwargs": {"profile": name},
            **(
                {"vector_entry_point": VECTOR_ENTRY_POINT}
                if load_profile(name).game == "blackjack"
                else {}
            ),
        }
        for name in shipped_profile_names()
    },
    "croupier/table-v0": {
        "entry_point": "croupier.envs.table:table_env",
        "vector_entry_point": "croupier.envs.vector:table_vector_env",
        "kwargs": {},
    },
}
"""Every id with what ``gym.register`` takes for it (add ``vector_entry_point`` here)."""


def register_environments() -> None:
    """Register every id of ``ENVIRONMENTS`` that is not registered yet."""
    for env_id, spec in ENVIRONMENTS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, **spec)


register_environments()
