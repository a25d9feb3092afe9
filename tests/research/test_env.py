"""The Gymnasium environment: registration, checks, masks, fairness, determinism."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from milligan import Game, Record, Variant
from milligan.deal import deal_order
from milligan.variants import PRESETS

from .conftest import need

gymnasium = need("gymnasium")
env_module = need("milligan.env")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from milligan.env import ENV_IDS, MilliganEnv, action_to_move, move_to_action, status  # noqa: E402
from milligan.env.layout import Actions, encode  # noqa: E402

CUSTOM = {"decks": 1, "columns": 6, "opening_rows": 2, "face_down_rows": 1, "reprieve": "strict"}


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[key], b[key]) for key in a)


def random_steps(
    env: Any, rng: np.random.Generator, info: dict[str, Any], no_deal: bool = False
) -> int:
    """A random legal action (0 when none is legal) that mostly keeps a reprieve settled.

    Uniform choice gets stuck in a reprieve within a few moves; this one
    makes a free move that leaves cards out of place only now and then,
    and often stops a reprieve or deals, so that playouts see most of a game.
    """
    mask = info["action_mask"]
    size = len(mask)
    deal, stop = size - 2, size - 1
    if no_deal:
        mask = mask.copy()
        mask[deal] = 0
    legal = np.flatnonzero(mask)
    if not len(legal):
        return 0
    if rng.random() < 0.1:
        return int(rng.choice(legal))
    if mask[stop] and rng.random() < 0.5:
        return stop
    if mask[deal] and rng.random() < 0.05:
        return deal
    unwrapped = env.unwrapped
    position = unwrapped.position
    moves = unwrapped.actions.moves
    tidy = [
        a
        for a in legal
        if a >= deal or position.reprieve is None or position.apply(moves[a]).is_settled()
    ]
    return int(rng.choice(tidy or legal))


@pytest.mark.parametrize("name", sorted(ENV_IDS))
def test_every_preset_is_registered_and_passes_check_env(name: str) -> None:
    env = gymnasium.make(ENV_IDS[name])
    assert env.unwrapped.variant == Variant.named(name)
    assert env.spec.max_episode_steps == 2000
    check_env(env.unwrapped, skip_render_check=True)


def test_custom_settings_and_the_module_prefix() -> None:
    env = gymnasium.make("milligan.env:milligan/Milligan-v0", variant=CUSTOM)
    assert env.unwrapped.variant == Variant(**CUSTOM)
    assert env.action_space.n == 6 * 51 * 5 + 6 + 2
    check_env(env.unwrapped, skip_render_check=True)


def test_reset_deals_the_deal_its_seed_names() -> None:
    env = gymnasium.make("milligan/Classic-v0")
    _, first = env.reset(seed=3)
    _, again = env.reset(seed=3)
    assert first["deal"] == again["deal"]
    assert env.unwrapped.position.columns == Game.new("classic", first["deal"]).position.columns
    _, chosen = env.reset(options={"deal": 42})
    assert chosen["deal"] == 42
    moves = [str(m) for m in env.unwrapped.legal_moves]
    assert moves == ["5>F", "3>6", "4>2", "D"]
    assert [str(action_to_move("classic", a)) for a in np.flatnonzero(chosen["action_mask"])] == [
        "3>6",
        "4>2",
        "5>F",
        "D",
    ]
    assert chosen["action_mask"].dtype == np.int8


def test_actions_cover_every_move_and_round_trip() -> None:
    for name in PRESETS:
        actions = Actions.of(name)
        variant = Variant.named(name)
        n, k = variant.columns, variant.deck_size - 1
        assert actions.size == n * k * (n - 1) + n + 2
        for index in range(0, actions.size, 97):
            assert move_to_action(name, action_to_move(name, index)) == index
        assert actions.mask(actions.moves).all()
        assert list(np.flatnonzero(actions.mask(actions.moves[5::7]))) == list(
            range(5, actions.size, 7)
        )
    assert move_to_action("classic", "8:103>7") == 8 * 103 * 7 - 1
    with pytest.raises(ValueError):
        move_to_action("one-deck", "5>1")


@pytest.mark.parametrize("variant", [*sorted(PRESETS), "custom"])
def test_the_mask_is_the_legal_moves_over_random_playouts(variant: str) -> None:
    env = MilliganEnv(CUSTOM if variant == "custom" else variant)
    actions = env.actions
    rng = np.random.default_rng(5)
    full_checks = steps = 0
    for episode in range(8):
        observation, info = env.reset(seed=episode)
        terminated = False
        game = Game(env.variant, deal=info["deal"])
        for step in range(250):
            mask = info["action_mask"]
            legal = env.legal_moves
            assert same(observation, encode(env.position.observe()))
            assert set(np.flatnonzero(mask)) == {move_to_action(env.variant, m) for m in legal}
            assert list(game.legal_moves()) == list(legal) or (terminated and not legal)
            # Now and then: every action the mask refuses is illegal.
            if step % 60 == 7 and full_checks < 6 and not terminated:
                full_checks += 1
                position = env.position
                refused = np.flatnonzero(mask == 0)
                assert not any(position.is_legal(actions.moves[a]) for a in refused)
            engine = game.status
            mine = info["status"]
            assert mine == engine or (mine == "stuck" and engine == "playing")
            if terminated:
                break
            action = random_steps(env, rng, info)
            observation, _, terminated, _, info = env.step(action)
            game.play(action_to_move(env.variant, action))
            steps += 1
        assert env.record().replay().position == env.position
    assert steps >= 100


def twin_orders(variant: Variant, number: int) -> tuple[list[Any], list[Any], list[int]]:
    """Deal ``number``'s order and a twin with hidden cards swapped, and the swapped slots.

    Swapped: the last two stock cards (different ones), and with face-down
    rows the bottom cards of columns 1 and 2.
    """
    order = list(deal_order(variant, number))
    twin = list(order)
    slots: list[int] = []
    last = len(order) - 1
    other = next(i for i in range(last - 1, 0, -1) if order[i] != order[last])
    slots += [last, other]
    if variant.face_down_rows:
        first = next(c for c in range(1, variant.columns) if order[c] != order[0])
        slots += [0, first]
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        twin[a], twin[b] = twin[b], twin[a]
    return order, twin, slots


@pytest.mark.parametrize("name", ["classic", "improved", "one-deck"])
def test_twin_deals_give_the_same_observations(name: str) -> None:
    variant = Variant.named(name)
    order, twin, slots = twin_orders(variant, 11)
    hidden_columns = slots[2:]  # row 0: the order index is the column (from 0)
    assert order != twin
    one, two = MilliganEnv(name), MilliganEnv(name)
    obs_one, info_one = one.reset(options={"order": order})
    obs_two, info_two = two.reset(options={"order": twin})
    rng = np.random.default_rng(1)
    steps = 0
    for _ in range(300):
        assert same(obs_one, obs_two)
        assert np.array_equal(info_one["action_mask"], info_two["action_mask"])
        assert one.position != two.position  # the hidden cards differ
        # The last deal would show a swapped card: never make it.
        action = random_steps(one, rng, info_one, no_deal=obs_one["stock_rows"][0] == 1)
        if not info_one["action_mask"][action]:
            break
        obs_one, r_one, end_one, _, info_one = one.step(action)
        obs_two, r_two, end_two, _, info_two = two.step(action)
        steps += 1
        if any(one.position.face_down[c] == 0 for c in hidden_columns):
            break  # a swapped face-down card may have turned up
        assert (r_one, end_one) == (r_two, end_two)
        if end_one:
            break
    assert steps >= 10
    records = one.record(), two.record()
    assert records[0].order == tuple(order)
    views = [Record.from_json(r.to_json()).replay().position.observe() for r in records]
    assert views[0] == views[1]


def test_a_seeded_episode_repeats_exactly() -> None:
    def episode() -> list[Any]:
        env = gymnasium.make("milligan/Improved-v0")
        rng = np.random.default_rng(9)
        observation, info = env.reset(seed=2024)
        out = [info["deal"], observation]
        for _ in range(200):
            action = random_steps(env, rng, info)
            observation, reward, terminated, truncated, info = env.step(action)
            out += [action, observation, reward, terminated, truncated]
            if terminated or truncated:
                break
        return out

    first, second = episode(), episode()
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert same(a, b) if isinstance(a, dict) else a == b


def test_a_solved_deal_wins_and_shaping_adds_the_foundation_cards() -> None:
    solver = pytest.importorskip("milligan.solver")
    result = solver.solve(Game.new("classic", 1), max_positions=200_000)
    assert result.result == "won"
    for shaping, total in ((False, 1.0), (True, 2.0)):
        env = gymnasium.make("milligan/Classic-v0", shaping=shaping)
        env.reset(options={"deal": 1})
        rewards = []
        for move in result.moves:
            _, reward, terminated, truncated, info = env.step(move_to_action("classic", move))
            rewards.append(reward)
        assert terminated and not truncated and info["status"] == "won"
        assert sum(rewards) == pytest.approx(total)
        assert rewards[-1] >= 1.0


def test_an_illegal_action_changes_nothing() -> None:
    env = MilliganEnv("classic", illegal_reward=-0.5)
    observation, info = env.reset(options={"deal": 42})
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert same(observation, after) and info["illegal"] and reward == -0.5
    assert not terminated and not truncated


def test_dead_ends_terminate_as_the_engine_says() -> None:
    env = MilliganEnv("spanish")
    rng = np.random.default_rng(0)
    ends = set()
    for seed in range(4):
        _, info = env.reset(seed=seed)
        for _ in range(2000):
            _, _, terminated, _, info = env.step(random_steps(env, rng, info))
            if terminated:
                ends.add(info["status"])
                assert status(env.position, env.position.legal_moves()) == info["status"]
                assert not info["action_mask"].any()
                break
    assert "lost" in ends


def test_without_dead_end_searches_a_lost_game_runs_on() -> None:
    env = gymnasium.make("milligan/Spanish-v0", dead_ends=False, max_episode_steps=300)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    for _ in range(300):
        _, _, terminated, truncated, info = env.step(random_steps(env, rng, info))
        if terminated or truncated:
            break
    position = env.unwrapped.position
    assert truncated or (terminated and info["status"] in ("won", "lost"))
    if truncated:
        assert status(position, env.unwrapped.legal_moves) == "lost"


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_environments(mode: str) -> None:
    envs = gymnasium.make_vec("milligan/OneDeck-v0", num_envs=3, vectorization_mode=mode)
    try:
        observations, infos = envs.reset(seed=4)
        assert observations["columns"].shape == (3, 4, 52)
        assert infos["action_mask"].shape == (3, envs.single_action_space.n)
        assert len(set(infos["deal"])) == 3
        rng = np.random.default_rng(4)
        ended = 0
        for _ in range(60):
            actions = [
                int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in infos["action_mask"]
            ]
            observations, _, terminated, _, infos = envs.step(np.array(actions))
            ended += int(terminated.sum())
        assert ended > 0  # one-deck games end fast; the vector resets them
    finally:
        envs.close()
