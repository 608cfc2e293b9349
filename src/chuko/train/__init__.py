"""Agents that learn (docs/training.md): a compact masked PPO written in numpy, trained on
the research environments (chuko.envs), saved as small policy files that
`chuko.bots.policy.policy_bot` plays.

    network.py   multilayer perceptrons with their backward pass, and Adam
    ppo.py       the clipped loss with masked actions and its gradients
    sources.py   batches of games to learn from: against bots, self-play, a compiled twin
    rollout.py   collecting transitions per seat, and generalised advantage estimates
    trainer.py   the training loop and its learning curve
    evaluate.py  a policy against bots on held-out deals, with intervals
    recipes.py   what the examples train: game, opponents, hyperparameters
    run.py       one recipe end to end (examples/train.py), and its plot (plot.py)
"""
