"""Compiling a checked program: the syntax tree becomes Python closures and generated
code (compiler, expressions, statements, blocks, modifiers, views), kept between runs
(codecache, gamecache). Above check.
"""
