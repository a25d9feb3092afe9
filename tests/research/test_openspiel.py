"""The OpenSpiel game: OpenSpiel's own random simulations, observations, resampling, a bot."""

from __future__ import annotations

import numpy as np
import pytest

from milligan import Game, Variant
from milligan.deal import deal_order
from milligan.variants import PRESETS

from .conftest import need
from .test_env import random_steps, twin_orders

pyspiel = need("pyspiel")
openspiel_game = need("milligan.openspiel_game")
from gymnasium import spaces  # noqa: E402

from milligan.env import MilliganEnv  # noqa: E402
from milligan.openspiel_game import OUTCOME_OF_CARD, deal_state  # noqa: E402


def load(variant: str, max_moves: int = 150) -> object:
    return pyspiel.load_game("python_milligan", {"variant": variant, "max_moves": max_moves})


@pytest.mark.parametrize(
    "variant", [*sorted(PRESETS), "decks:1;columns:6;face_down_rows:1;opening_rows:2"]
)
def test_openspiel_random_simulation(variant: str) -> None:
    pyspiel.random_sim_test(load(variant), num_sims=2, serialize=True, verbose=False)


def test_defaults_and_the_game_shape() -> None:
    game = pyspiel.load_game("python_milligan")
    assert game.get_parameters() == {"variant": "classic", "max_moves": 1000}
    assert game.num_players() == 1
    assert game.num_distinct_actions() == 5778
    assert game.max_chance_outcomes() == 52
    assert game.max_game_length() == 1000
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and sum(p for _, p in outcomes) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["classic", "improved"])
def test_observation_tensor_is_the_gymnasium_observation_flattened(name: str) -> None:
    game = load(name)
    state = deal_state(game, 8)
    env = MilliganEnv(name)
    observation, info = env.reset(options={"deal": 8})
    rng = np.random.default_rng(8)
    for _ in range(80):
        flat = spaces.flatten(env.observation_space, observation)
        assert np.array_equal(np.asarray(state.observation_tensor(0)), flat.astype(np.float32))
        assert state.legal_actions() == list(np.flatnonzero(info["action_mask"]))
        if state.is_terminal():
            break
        action = random_steps(env, rng, info)
        state.apply_action(action)
        observation, _, _, _, info = env.step(action)


def test_twins_share_information_states_and_resampling_keeps_them() -> None:
    variant = Variant.named("improved")
    order, twin, _ = twin_orders(variant, 11)
    game = load("improved")
    states = []
    for cards in (order, twin):
        state = game.new_initial_state()
        for card in cards:
            state.apply_action(OUTCOME_OF_CARD[card])
        states.append(state)
    one, two = states
    assert one.information_state_string(0) == two.information_state_string(0)
    assert str(one) != str(two)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.default_rng(3)
    env = MilliganEnv("improved")
    _, info = env.reset(options={"order": order})
    for _ in range(40):
        action = random_steps(env, rng, info)
        one.apply_action(action)
        _, _, terminated, _, info = env.step(action)
        if terminated:
            break
        again = one.resample_from_infostate(0, sampler)
        assert again.information_state_string(0) == one.information_state_string(0)
        assert again.observation_string(0) == one.observation_string(0)
        assert again.legal_actions() == one.legal_actions()
    differ = sum(str(one.resample_from_infostate(0, sampler)) != str(one) for _ in range(5))
    assert differ >= 4  # 70-odd unseen cards: a reshuffle is practically never the same


def test_a_deal_by_number_matches_the_engine() -> None:
    state = deal_state(load("one-deck"), 5)
    assert state.action_to_string(0) == "1>2"
    legal = Game.new("one-deck", 5).legal_moves()
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == sorted(
        str(move) for move in legal
    )
    assert state.position.stock == deal_order(Variant.named("one-deck"), 5)[4:]
    history = state.history()
    assert len(history) == 52 and not state.is_chance_node()


def test_is_mcts_plays_a_game() -> None:
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = load("one-deck", max_moves=60)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng, max_length=20)
    bot = ismcts.ISMCTSBot(game, evaluator, 1.4, 20, random_state=rng)
    state = deal_state(game, 3)
    moves = 0
    while not state.is_terminal():
        state.apply_action(bot.step(state))
        moves += 1
    assert 1 <= moves <= 60
    assert state.returns() in ([0.0], [1.0])
