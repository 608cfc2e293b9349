"""Agents that learn (docs/training.md): a compact masked PPO written in numpy, trained on
the research environments (chuko.envs), saved as small policy files that
`chuko.bots.policy.policy_bot` plays.

    network.py   multilayer perceptrons with their backward pass, and Adam
    ppo.py       the clipped loss with masked actions and its gradients
    sources.py   batches of games to learn from: one learner against bots, or self-play
    rollout.py   collecting transitions per seat, and generalised advantage estimates
    trainer.py   the training loop, its evaluations and its learning curve
"""
