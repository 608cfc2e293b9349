"""Each game's encoding for research environments (chuko/core/encoding.py): integer
actions, legal masks and observation arrays. Unlike the engines these modules use numpy,
so only the environments (chuko.envs) import them."""
