"""A gamedef game as an OpenSpiel game or a PettingZoo environment (optional extras:
`pip install "gamedef[openspiel]"`, `"gamedef[pettingzoo]"`). Above play.
"""
