"""The shape of a training loop on the Gymnasium environment (nothing is trained).

    python examples/train_loop.py

Replace ``policy`` with a learner: it gets the observation and the action
mask and must return a legal action.
"""

import gymnasium
import numpy as np

import milligan.env  # noqa: F401  (registers the milligan/ ids)

envs = gymnasium.make_vec("milligan/Classic-v0", num_envs=4, vectorization_mode="sync")
rng = np.random.default_rng(0)


def policy(observations: dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
    """Uniform over the legal actions (0 for an env whose episode just ended)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


observations, infos = envs.reset(seed=0)
wins = episodes = 0
for _ in range(2_000):
    actions = policy(observations, infos["action_mask"])
    observations, rewards, terminated, truncated, infos = envs.step(actions)
    # a learner would store (observation, action, reward, ...) and update here
    wins += int(rewards.sum() >= 1)
    episodes += int((terminated | truncated).sum())
print(f"{episodes} episodes, {wins} won")
envs.close()
