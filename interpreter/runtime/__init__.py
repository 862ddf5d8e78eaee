"""Running a compiled game: the engine (Game, State, moves, apply), what a seat may see
(observe), how a position reads (render), state files and transcripts (saving), chance
mode, game-theory helpers (theory, resample), component listings (cardlist), and
loading a game by name (load). Above compile.
"""
