"""Playing games with agents: random and first-legal players, Monte Carlo tree search and
information-set search (mcts), many games in parallel (simulate). Above runtime.
"""
