"""What the games' explicit-chance tests share."""


def play_with_chance(state, rng, on_chance=lambda state: None):
    """Play to the end, random moves and random chance outcomes alike."""
    while state.outcome is None:
        if state.is_chance:
            on_chance(state)
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choice(outcomes)[0])
        else:
            for seat in state.to_move:
                state.play(seat, state.random_move(seat, rng))
    return state
